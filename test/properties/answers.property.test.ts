/**
 * Generated answers the API promises never to give: a 200 whose envelope has no `data`, or whose
 * `data` lacks what the operation reads. Every read reports such an answer as an error naming its
 * request (method and path): never a TypeError, an empty item or a silent success. Every write,
 * which the service acknowledged, gives its item with a `warning` naming its request instead
 * (test/actions/acknowledged-writes.test.ts). Answers the checks accept:
 * ./accepted-answers.property.test.ts.
 */
import fc from 'fast-check';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { SUCCESS_CODE } from '../emulator/choices';
import { SEED, type ChosenAnswer } from '../emulator';
import { useEmulator } from '../helpers/emulator';
import { atScale } from '../helpers/scale';
import { rl } from '../actions/support';
import { operationsOf } from '../actions/error-walk';
import {
	errorOf,
	expectThrownError,
	failCase,
	propertyParameters,
	propertySuite,
	runBatch,
	type Batch,
} from './harness';

const { emulator, credentials } = useEmulator();
propertySuite('answers');

const ITEMS_PER_RUN = 60;
const RUNS = atScale(2, 5);
const ORDERS = SEED.integrations.ordersToSnowflake;

/** What an operation reads from `data`: a key and the JSON type it must have. */
interface Needed {
	key: string;
	type: 'string' | 'object' | 'array';
}

interface OperationUnderTest {
	resource: string;
	operation: string;
	parameters: INodeParameters;
	method: string;
	path: string;
	/** What the operation reads from `data`; none when it reads no `data` at all. */
	needs: Needed[];
}

const OPERATIONS: OperationUnderTest[] = [
	{
		resource: 'tag',
		operation: 'create',
		parameters: { name: 'T', owner: rl('id', SEED.users.maya) },
		method: 'POST',
		path: '/tags',
		needs: [{ key: 'id', type: 'string' }],
	},
	{
		resource: 'tag',
		operation: 'update',
		parameters: { tagId: SEED.tags.pii, updateFields: { name: 'T' } },
		method: 'PUT',
		path: `/tags/${SEED.tags.pii}`,
		needs: [{ key: 'id', type: 'string' }],
	},
	{
		resource: 'tag',
		operation: 'deleteRelation',
		parameters: { tagId: SEED.tags.pii, resourceId: 'r', resourceType: 'asset' },
		method: 'DELETE',
		path: `/tags/${SEED.tags.pii}/relation`,
		needs: [],
	},
	{
		resource: 'asset',
		operation: 'create',
		parameters: { name: 'A', type: 'postgres' },
		method: 'POST',
		path: '/assets',
		needs: [{ key: 'id', type: 'string' }],
	},
	{
		resource: 'asset',
		operation: 'update',
		parameters: { assetId: 'ast_1', updateFields: { name: 'A' } },
		method: 'PATCH',
		path: '/assets/ast_1',
		needs: [{ key: 'id', type: 'string' }],
	},
	{
		resource: 'connector',
		operation: 'create',
		parameters: { name: 'C', type: 'postgres', connectionType: 'source', authMethod: 'direct' },
		method: 'POST',
		path: '/connectors',
		needs: [{ key: 'id', type: 'string' }],
	},
	{
		resource: 'integration',
		operation: 'get',
		parameters: { integrationId: ORDERS },
		method: 'GET',
		path: `/integrations/${ORDERS}`,
		needs: [{ key: 'integration', type: 'object' }],
	},
	{
		resource: 'integration',
		operation: 'getSchemas',
		parameters: { integrationId: ORDERS, options: { output: 'columns' } },
		method: 'GET',
		path: `/integrations/${ORDERS}/schemas`,
		needs: [{ key: 'schemas', type: 'object' }],
	},
	{
		resource: 'integration',
		operation: 'updateSchemas',
		parameters: {
			integrationId: ORDERS,
			updateMode: 'json',
			schemas: '{"public":{"enabled":true}}',
		},
		method: 'PATCH',
		path: `/integrations/${ORDERS}/schemas`,
		needs: [{ key: 'schemas', type: 'object' }],
	},
	{
		resource: 'integration',
		operation: 'getColumns',
		parameters: {
			integrationId: ORDERS,
			schema: rl('name', 'public'),
			table: rl('name', 'customers'),
		},
		method: 'GET',
		path: `/integrations/${ORDERS}/schemas/public/tables/customers/columns`,
		needs: [{ key: 'columns', type: 'object' }],
	},
	{
		resource: 'user',
		operation: 'getAll',
		parameters: { returnAll: true },
		method: 'GET',
		path: '/users',
		needs: [{ key: 'items', type: 'array' }],
	},
	{
		resource: 'auditLog',
		operation: 'getAll',
		parameters: { returnAll: true },
		method: 'GET',
		path: '/audit-logs',
		needs: [{ key: 'items', type: 'array' }],
	},
];

const notAnObject = fc.oneof(
	fc.constant(null),
	fc.string({ maxLength: 8 }),
	fc.integer(),
	fc.boolean(),
	fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }),
);

const valueOtherThan = (type: Needed['type']) =>
	fc.oneof(fc.jsonValue({ maxDepth: 1 }), notAnObject).filter((value) => {
		if (type === 'array') return !Array.isArray(value);
		if (type === 'object')
			return typeof value !== 'object' || value === null || Array.isArray(value);
		return typeof value !== 'string';
	});

/** A body the operation cannot use: not an envelope, or `data` without what it needs. */
function unusableBody(operation: OperationUnderTest): fc.Arbitrary<unknown> {
	const notAnEnvelope = notAnObject.filter((body) => body !== null);
	if (operation.needs.length === 0) return notAnEnvelope;
	const otherKey = fc
		.string({ maxLength: 8 })
		.filter((key) => !operation.needs.some((needed) => needed.key === key));
	return fc.oneof(
		notAnEnvelope,
		fc.constant({ code: SUCCESS_CODE }),
		fc.constant({ code: SUCCESS_CODE, message: 'done' }),
		notAnObject.map((data) => ({ code: SUCCESS_CODE, data })),
		fc
			.dictionary(otherKey, fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 })
			.map((data) => ({ code: SUCCESS_CODE, data })),
		fc.constantFrom(...operation.needs).chain((needed) =>
			valueOtherThan(needed.type).map((value) => ({
				code: SUCCESS_CODE,
				data: Object.fromEntries([[needed.key, value]]),
			})),
		),
	);
}

/** Whether the operation changes data: the router's own table says. */
const isWrite = ({ resource, operation }: OperationUnderTest) =>
	operationsOf[resource][operation].changesData;

describe.each(
	OPERATIONS.map((operation) => [`${operation.resource} ${operation.operation}`, operation]),
)('%s', (_name, operation) => {
	// The request, as the error names it: the operation as the API numbers it, with its values.
	const request = `${operation.method} ${operation.path}`;
	const outcome = isWrite(operation)
		? `an item with a warning naming "${request}"`
		: `an error naming "${request}"`;

	test(`an answer without what it needs is ${outcome} (${RUNS} runs of ${ITEMS_PER_RUN} cases)`, async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.array(unusableBody(operation), { minLength: ITEMS_PER_RUN, maxLength: ITEMS_PER_RUN }),
				async (bodies) => {
					const batch: Batch = {
						emulator: emulator(),
						credentials: credentials(),
						parameters: {
							resource: operation.resource,
							operation: operation.operation,
							...operation.parameters,
						},
						items: bodies.map((body) => ({ body }) as IDataObject),
						expectations: bodies.map(() => ({
							requests: [{ method: operation.method, path: operation.path }],
						})),
						answers: bodies.map(
							(body): ChosenAnswer => ({ method: operation.method, path: operation.path, body }),
						),
					};
					const { outputs } = await runBatch(batch);
					outputs.forEach((output, index) => {
						const words = isWrite(operation) ? output[0]?.json.warning : errorOf(output)?.error;
						if (output.length !== 1 || typeof words !== 'string')
							failCase(batch, outputs, index, `expected ${outcome}`);
						if (errorOf(output) && isWrite(operation))
							failCase(batch, outputs, index, 'a write the service acknowledged failed its item');
						if (!words.toLowerCase().includes(request.toLowerCase()))
							failCase(batch, outputs, index, `it does not name "${request}"`);
					});
					if (!isWrite(operation)) await expectThrownError(batch, 0, [request]);
				},
			),
			propertyParameters(RUNS),
		);
	});
});
