/**
 * Generated ids and names through every operation that takes one. An id or name in the path
 * either is refused before any request, naming its field, or travels percent-encoded as exactly
 * one segment of its endpoint's path; a name in a body travels as a plain key or value; nothing
 * outside the request changes.
 */
import fc from 'fast-check';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { useEmulator } from '../helpers/emulator';
import { atScale } from '../helpers/scale';
import { rl } from '../actions/support';
import { canonicalJson, hostileName, segment, segmentRefusal } from './arbitraries';
import {
	errorOf,
	expectRefusalError,
	failCase,
	propertyParameters,
	propertySuite,
	runBatch,
	type Batch,
	type Expectation,
} from './harness';

const { emulator, credentials } = useEmulator();
propertySuite('names');

const ITEMS_PER_RUN = 100;
const RUNS = atScale(2, 6);

interface Field {
	/** Key of the input item the parameter reads, and the field's label in messages. */
	key: string;
	label: string;
	/** A path segment (refused when blank or a dot segment) or body text (refused when blank). */
	in: 'path' | 'body';
}

interface OperationUnderTest {
	resource: string;
	operation: string;
	method: string;
	fields: Field[];
	/** Parameters besides resource and operation; `$json.<key>` reads each field. */
	parameters: INodeParameters;
	/** The path for accepted values, given each field's value by key (already trimmed). */
	path(values: Record<string, string>): string;
	/** The body as JSON text for accepted values, when the operation sends one. */
	body?(values: Record<string, string>): string;
}

const json = (key: string) => `={{ $json[${JSON.stringify(key)}] }}`;
const key = JSON.stringify;
const path = (key: string): Field => ({ key, label: '', in: 'path' });
const labelled = (field: Field, label: string): Field => ({ ...field, label });
const bodyText = (key: string, label: string): Field => ({ key, label, in: 'body' });

const OPERATIONS: OperationUnderTest[] = [
	{
		resource: 'tag',
		operation: 'create',
		method: 'POST',
		fields: [bodyText('name', 'Name'), bodyText('owner', 'Owner')],
		parameters: { name: json('name'), owner: rl('id', json('owner')) },
		path: () => '/tags',
		body: (v) => `{"name":${key(v.name)},"owner":${key(v.owner)}}`,
	},
	{
		resource: 'tag',
		operation: 'update',
		method: 'PUT',
		fields: [labelled(path('tagId'), 'Tag ID')],
		parameters: { tagId: json('tagId'), updateFields: { name: 'Renamed' } },
		path: (v) => `/tags/${segment(v.tagId)}`,
		body: () => '{"name":"Renamed"}',
	},
	{
		resource: 'tag',
		operation: 'deleteRelation',
		method: 'DELETE',
		fields: [
			labelled(path('tagId'), 'Tag ID'),
			bodyText('resourceId', 'Resource ID'),
			bodyText('resourceType', 'Resource Type'),
		],
		parameters: {
			tagId: json('tagId'),
			resourceId: json('resourceId'),
			resourceType: json('resourceType'),
		},
		path: (v) => `/tags/${segment(v.tagId)}/relation`,
		body: (v) => `{"resourceId":${key(v.resourceId)},"resourceType":${key(v.resourceType)}}`,
	},
	{
		resource: 'asset',
		operation: 'create',
		method: 'POST',
		fields: [bodyText('name', 'Name'), bodyText('type', 'Type')],
		parameters: { name: json('name'), type: json('type') },
		path: () => '/assets',
		body: (v) => `{"name":${key(v.name)},"type":${key(v.type)}}`,
	},
	{
		resource: 'asset',
		operation: 'update',
		method: 'PATCH',
		fields: [labelled(path('assetId'), 'Asset ID')],
		parameters: { assetId: json('assetId'), updateFields: { description: 'Checked' } },
		path: (v) => `/assets/${segment(v.assetId)}`,
		body: () => '{"description":"Checked"}',
	},
	{
		resource: 'connector',
		operation: 'create',
		method: 'POST',
		fields: [bodyText('name', 'Name'), bodyText('type', 'Type')],
		parameters: {
			name: json('name'),
			type: json('type'),
			connectionType: 'source',
			authMethod: 'direct',
		},
		path: () => '/connectors',
		body: (v) =>
			`{"name":${key(v.name)},"type":${key(v.type)},"connectionType":"source","authMethod":"direct"}`,
	},
	{
		resource: 'integration',
		operation: 'get',
		method: 'GET',
		fields: [labelled(path('integrationId'), 'Integration ID')],
		parameters: { integrationId: json('integrationId') },
		path: (v) => `/integrations/${segment(v.integrationId)}`,
	},
	{
		resource: 'integration',
		operation: 'getSchemas',
		method: 'GET',
		fields: [labelled(path('integrationId'), 'Integration ID')],
		parameters: { integrationId: json('integrationId') },
		path: (v) => `/integrations/${segment(v.integrationId)}/schemas`,
	},
	{
		resource: 'integration',
		operation: 'getColumns',
		method: 'GET',
		fields: [
			labelled(path('integrationId'), 'Integration ID'),
			labelled(path('schema'), 'Schema'),
			labelled(path('table'), 'Table'),
		],
		parameters: {
			integrationId: json('integrationId'),
			schema: rl('name', json('schema')),
			table: rl('name', json('table')),
		},
		path: (v) =>
			`/integrations/${segment(v.integrationId)}/schemas/${segment(v.schema)}/tables/${segment(v.table)}/columns`,
	},
	{
		resource: 'integration',
		operation: 'updateSchemas',
		method: 'PATCH',
		fields: [
			labelled(path('integrationId'), 'Integration ID'),
			bodyText('schema', 'schema'),
			bodyText('table', 'table'),
			bodyText('column', 'column'),
		],
		parameters: {
			integrationId: json('integrationId'),
			updateMode: 'changes',
			changes: {
				change: [
					{
						level: 'column',
						schema: json('schema'),
						table: json('table'),
						column: json('column'),
						enabled: 'disable',
						hashed: 'hash',
					},
				],
			},
		},
		path: (v) => `/integrations/${segment(v.integrationId)}/schemas`,
		body: (v) =>
			`{"schemas":{${key(v.schema)}:{"tables":{${key(v.table)}:{"columns":{${key(v.column)}:{"enabled":false,"hashed":true}}}}}}}`,
	},
];

/** Why the node must refuse this field's value, if it must. */
function refusal(field: Field, value: string): string | undefined {
	if (field.in === 'path') return segmentRefusal(value);
	return value.trim() === '' ? 'blank' : undefined;
}

function trimmed(item: Record<string, string>): Record<string, string> {
	return Object.fromEntries(Object.entries(item).map(([name, value]) => [name, value.trim()]));
}

/** A generated input item: one value per field, most of them valid seed ids so requests go out. */
const itemFor = (operation: OperationUnderTest): fc.Arbitrary<Record<string, string>> =>
	fc.record(Object.fromEntries(operation.fields.map((field) => [field.key, hostileName])));

describe.each(
	OPERATIONS.map((operation) => [`${operation.resource} ${operation.operation}`, operation]),
)('%s', (_name, operation) => {
	test(`any generated id or name: refused by name, or sent as its endpoint's exact path and body (${RUNS} runs of ${ITEMS_PER_RUN} cases)`, async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.array(itemFor(operation), { minLength: ITEMS_PER_RUN, maxLength: ITEMS_PER_RUN }),
				async (items) => {
					const expectations: Expectation[] = items.map((item) => {
						const refused = operation.fields.filter((field) => refusal(field, item[field.key]));
						if (refused.length) return { refused: true, labels: refused.map((f) => f.label) };
						const path = operation.path(trimmed(item));
						return { requests: [{ method: operation.method, path }] };
					});
					const batch: Batch = {
						emulator: emulator(),
						credentials: credentials(),
						parameters: {
							resource: operation.resource,
							operation: operation.operation,
							...operation.parameters,
						},
						items: items as IDataObject[],
						expectations,
					};
					const { outputs, requests } = await runBatch(batch);
					items.forEach((item, index) => {
						if (expectations[index].refused) return;
						const fail = (what: string) => failCase(batch, outputs, index, what);
						// Sent: the body carries the names as they were given (trimmed), and the
						// answer is an output or an API error, never a crash of the node.
						if (operation.body) {
							const sentBody = canonicalJson(requests[index][0].body);
							const expectedBody = canonicalJson(JSON.parse(operation.body(trimmed(item))));
							if (sentBody !== expectedBody)
								fail(`expected the body ${expectedBody}, got ${sentBody}`);
						}
						const error = errorOf(outputs[index]);
						if (error && error.httpCode === undefined)
							fail('a request went out, yet the item failed without an API error');
					});
					await expectRefusalError(batch);
				},
			),
			propertyParameters(RUNS),
		);
	});
});
