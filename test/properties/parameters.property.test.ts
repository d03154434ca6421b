/**
 * Any JSON value (objects, lists, numbers, null, very long text, odd Unicode) in every parameter
 * of every operation. Each case ends in a refusal naming the field and the item before any
 * request, or in the documented reading: text fields send text (numbers and true/false as they
 * print), option fields only their listed values, number fields whole numbers within bounds,
 * true/false fields true or false. No request ever carries "[object Object]", and no case crashes
 * the execution.
 *
 * Each parameter gets one execution of many items, the parameter reading `$json.v` of its item;
 * the few read once per execution (Concurrency, Concurrency Mode, Update Mode, which takes no
 * expression) get one execution per value.
 */
import fc from 'fast-check';
import type {
	IDataObject,
	INodeExecutionData,
	INodeParameters,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import { DataIntegrationManagement } from '../../nodes/DataIntegrationManagement/DataIntegrationManagement.node.ts';
import { operationsByResource } from '../../nodes/DataIntegrationManagement/actions/router';
import { SEED, type RecordedRequest } from '../emulator';
import { useEmulator } from '../helpers/emulator';
import { atScale } from '../helpers/scale';
import { runActionNode } from '../helpers/n8n';
import { WORKING_PARAMETERS } from '../actions/working-parameters';
import { hostileName } from './arbitraries';
import { countCases, failCase, oneAtATime, propertyParameters, propertySuite } from './harness';

const { emulator, credentials } = useEmulator();
propertySuite('parameters');

const CASES_PER_PARAMETER = atScale(8, 24);
const VALUES_PER_EXECUTION_WIDE_FIELD = 12;

const rl = (mode: string, value: unknown) => ({
	__rl: true as const,
	mode,
	value: value as string,
});

/**
 * Parameters under which each operation sends its request, so that one field at a time varies:
 * the shared working ones, Update Schemas showing every field of a change and its JSON mode's.
 */
const BASELINES: Record<string, INodeParameters> = {
	...WORKING_PARAMETERS,
	'integration.updateSchemas': {
		integrationId: SEED.integrations.ordersToSnowflake,
		updateMode: 'changes',
		changes: {
			change: [
				{
					level: 'column',
					schema: 'public',
					table: 'orders',
					column: 'status',
					enabled: 'enable',
					hashed: 'keep',
				},
			],
		},
		schemas: '{"public": {"enabled": true}}',
	},
	// Schema set, so that Table, which needs it, narrows too.
	'integration.getSchemas': {
		...WORKING_PARAMETERS['integration.getSchemas'],
		schema: rl('name', 'public'),
	},
	// Every filter set, so that each field varies with the rest of its filter given.
	'auditLog.getAll': {
		...WORKING_PARAMETERS['auditLog.getAll'],
		filters: {
			actorEmails: { emails: ['maya.patel@northwind-data.example'] },
			actorTypes: { types: ['user'] },
			events: { texts: ['a'] },
		},
	},
};

/**
 * Fields applied to the answer rather than sent: a value they take is not in the request, and
 * one the answer does not hold is refused after it (naming the field and the item all the same).
 */
const NARROWING = ['integration getSchemas schema', 'integration getSchemas table'];

/**
 * Fields the node applies to the answer, which refuse nothing it may hold: a value they take is
 * not in the request, and may leave nothing (Get Schemas' Column, the Filters of the lists but
 * Audit Log's Time Range, which the request carries).
 */
const FILTERING = (described: string) =>
	described === 'integration getSchemas column' ||
	/^\w+ getAll filters\.(?!timeRange)/.test(described);

/** One parameter to vary: where it sits in the node's parameters, and its description. */
interface Target {
	resource: string;
	operation: string;
	/** Its path: a name, `collection.field`, or `changes.change.0.field`. */
	path: string;
	property: INodeProperties;
	/** Read once per execution: varied by execution, not by item. */
	perExecution: boolean;
}

const properties = new DataIntegrationManagement().description.properties;

function targetsOf(resource: string, operation: string): Target[] {
	const shown = properties.filter(
		(property) =>
			property.displayOptions?.show?.resource?.includes(resource) &&
			property.displayOptions?.show?.operation?.includes(operation) &&
			property.name !== 'operation',
	);
	return shown.flatMap((property): Target[] => {
		const base = { resource, operation };
		if (property.type === 'collection') {
			return (property.options as INodeProperties[]).map((field) => ({
				...base,
				path: `${property.name}.${field.name}`,
				property: field,
				perExecution: ['concurrency', 'concurrencyMode', 'maxConcurrency'].includes(field.name),
			}));
		}
		if (property.type === 'fixedCollection') {
			// A list of entries (Changes) is given one; a set of groups (Filters), each.
			const entries = property.options as Array<{ name: string; values: INodeProperties[] }>;
			const first = property.typeOptions?.multipleValues ? '.0' : '';
			return entries.flatMap((entry) =>
				entry.values.map((field) => ({
					...base,
					path: `${property.name}.${entry.name}${first}.${field.name}`,
					property: field,
					perExecution: false,
				})),
			);
		}
		return [{ ...base, path: property.name, property, perExecution: !!property.noDataExpression }];
	});
}

const CONCURRENCY_FIELDS = [
	'options.concurrency',
	'options.concurrencyMode',
	'options.maxConcurrency',
];

/**
 * Every field of every operation. Concurrency and Concurrency Mode are read by the router, the
 * same for every operation, once per execution: varied on one operation only, to stay fast.
 */
const TARGETS: Target[] = Object.entries(operationsByResource).flatMap(([resource, operations]) =>
	Object.keys(operations).flatMap((operation) =>
		targetsOf(resource, operation).filter(
			(target) =>
				!CONCURRENCY_FIELDS.includes(target.path) ||
				`${resource} ${operation}` === 'integration get',
		),
	),
);

/** The baseline with the target set to `value`, its fixed collections copied, not shared. */
function parametersFor(target: Target, value: unknown): INodeParameters {
	const parameters = JSON.parse(
		JSON.stringify({
			resource: target.resource,
			operation: target.operation,
			...BASELINES[`${target.resource}.${target.operation}`],
		}),
	) as IDataObject;
	// The field must be shown for its value to be read.
	if (target.path === 'schemas') parameters.updateMode = 'json';
	if (target.path === 'limit') parameters.returnAll = false;
	const keys = target.path.split('.');
	let holder = parameters as Record<string, unknown>;
	for (const key of keys.slice(0, -1)) {
		holder[key] = holder[key] ?? {};
		holder = holder[key] as Record<string, unknown>;
	}
	const last = keys[keys.length - 1];
	holder[last] =
		target.property.type === 'resourceLocator'
			? rl(target.property.modes?.[target.property.modes.length - 1].name ?? 'id', value)
			: value;
	return parameters as INodeParameters;
}

/** Any JSON value, and values near what each kind of field takes. */
function valuesFor(property: INodeProperties): fc.Arbitrary<unknown> {
	const listed = ((property.options ?? []) as INodePropertyOptions[]).map((option) => option.value);
	return fc.oneof(
		{ arbitrary: fc.jsonValue({ maxDepth: 3 }), weight: 4 },
		{
			arbitrary: fc.constantFrom(null, {}, [], { id: 'x' }, ['a'], 0, 42, -1, 2.5, true, false, ''),
			weight: 3,
		},
		{ arbitrary: hostileName, weight: 2 },
		{ arbitrary: fc.string({ unit: 'binary', maxLength: 8 }), weight: 1 },
		{ arbitrary: fc.string({ minLength: 2000, maxLength: 4000 }), weight: 1 },
		...(listed.length ? [{ arbitrary: fc.constantFrom(...listed), weight: 3 }] : []),
		{
			arbitrary: fc.constantFrom(
				'1',
				' 7 ',
				'true',
				'false',
				'{"host": "db"}',
				'2026-11-01T09:30:00Z',
			),
			weight: 2,
		},
	);
}

/** Text fields: typed text, resource locators. */
function isTextField(property: INodeProperties): boolean {
	return property.type === 'string' || property.type === 'resourceLocator';
}

const isObject = (value: unknown) => typeof value === 'object' && value !== null;

/**
 * What the documentation says of `value` in this field: 'refused' (must be), 'text' (must not be
 * refused as not text; sent as String(value) when sent), or undefined (either way, by name).
 */
function documented(property: INodeProperties, value: unknown): 'refused' | 'text' | undefined {
	if (isTextField(property)) {
		// A list of texts (Actor Types, Events) takes a list, each of its values checked.
		if (Array.isArray(value) && property.typeOptions?.multipleValues) return undefined;
		if (isObject(value)) return 'refused';
		if ((typeof value === 'number' && Number.isFinite(value)) || typeof value === 'boolean')
			return 'text';
		return undefined;
	}
	if (property.type === 'options') {
		const listed = ((property.options ?? []) as INodePropertyOptions[]).map((o) => o.value);
		return listed.includes(value as string) ? undefined : 'refused';
	}
	if (property.type === 'number') {
		const min = (property.typeOptions?.minValue as number | undefined) ?? 0;
		const max = (property.typeOptions?.maxValue as number | undefined) ?? Infinity;
		const number =
			typeof value === 'number'
				? value
				: typeof value === 'string' && /^\s*\d+\s*$/.test(value)
					? Number(value)
					: Number.NaN;
		return Number.isSafeInteger(number) && number >= min && number <= max ? undefined : 'refused';
	}
	if (property.type === 'boolean') {
		return [true, false, 'true', 'false'].includes(value as boolean) ? undefined : 'refused';
	}
	if (property.type === 'json') {
		return isObject(value) && !Array.isArray(value)
			? undefined
			: value === null
				? undefined
				: typeof value === 'string'
					? undefined
					: 'refused';
	}
	return undefined;
}

/** Every name, key and text value a request carries: path segments, query values, body keys and leaves. */
function carried(request: RecordedRequest): Set<string> {
	const found = new Set<string>();
	for (const segment of request.path.split('/')) {
		try {
			found.add(decodeURIComponent(segment));
		} catch {
			found.add(segment);
		}
	}
	for (const value of Object.values(request.query)) for (const v of [value].flat()) found.add(v);
	const visit = (value: unknown) => {
		if (typeof value === 'string') found.add(value);
		else if (isObject(value)) {
			for (const [key, child] of Object.entries(value as object)) {
				found.add(key);
				visit(child);
			}
		}
	};
	visit(request.body);
	return found;
}

function errorOf(outputs: INodeExecutionData[]): IDataObject | undefined {
	const json = outputs[0]?.json;
	return json && typeof json.error === 'string' ? json : undefined;
}

/** No request carries "[object Object]": an object turned into text on the way. */
function rejectObjectText(described: string, requests: RecordedRequest[]): void {
	for (const request of requests) {
		const text = `${request.path} ${JSON.stringify(request.query)} ${JSON.stringify(request.body)}`;
		if (text.includes('[object Object]'))
			throw new Error(`${described}: a request carries "[object Object]": ${text.slice(0, 300)}`);
	}
}

/**
 * Items run one at a time, in order: a case's requests follow the previous case's. A new case
 * starts with every request but the next pages of an audit-log read.
 */
function groupsByCase(requests: RecordedRequest[]): RecordedRequest[][] {
	const groups: RecordedRequest[][] = [];
	for (const request of requests) {
		const nextPage = request.path === '/audit-logs' && request.query.offset !== '0';
		if (nextPage && groups.length) groups[groups.length - 1].push(request);
		else groups.push([request]);
	}
	return groups;
}

/** One execution per value when the target is read once per execution; else one for all. */
const executionsOf = (target: Target, values: unknown[]) =>
	target.perExecution
		? values.map((value) => ({ values: [value], parameters: parametersFor(target, value) }))
		: [{ values, parameters: parametersFor(target, '={{ $json.v }}') }];

/** Runs `values` through the target, one item each, and checks every case. */
async function check(target: Target, values: unknown[]): Promise<void> {
	const label = target.property.displayName.toLowerCase();
	for (const { values: batch, parameters } of executionsOf(target, values)) {
		emulator().reset();
		countCases(batch.length);
		const items = batch.map((v) => ({ v }) as IDataObject);
		const result = await runActionNode({
			credentials: credentials(),
			parameters: oneAtATime(parameters),
			items,
			continueOnFail: true,
		});
		const described = `${target.resource} ${target.operation} ${target.path}`;
		const requests = emulator().requests;
		rejectObjectText(described, requests);
		if (result.error) {
			// Read once per execution: a refusal fails the execution, naming the field, before any request.
			const message = result.error.message.toLowerCase();
			if (!target.perExecution || !message.includes(label) || requests.length)
				throw new Error(
					`${described} ${JSON.stringify(batch[0])?.slice(0, 80)}: ${result.error.message}`,
				);
			continue;
		}
		const outputs: INodeExecutionData[][] = batch.map(() => []);
		for (const item of result.items) outputs[(item.pairedItem as { item: number }).item].push(item);

		const groups = groupsByCase(requests);
		let next = 0;
		batch.forEach((value, index) => {
			const fail = (what: string) => failCase({ items }, outputs, index, `${described}: ${what}`);
			// A listing, or a filter, may find nothing: no output item, and no error.
			const filtering = FILTERING(described);
			if (!outputs[index].length && target.operation !== 'getAll' && !filtering)
				fail('no output item');
			const error = errorOf(outputs[index]);
			const refused = error !== undefined && error.httpCode === undefined;
			const expected = documented(target.property, value);
			const itemIndex = target.perExecution ? 0 : index;
			const narrowing = NARROWING.includes(described);
			if (refused) {
				// A value the answer does not hold was refused after its request.
				if (narrowing && expected !== 'refused') next++;
				const message = String(error.error);
				if (!message.includes(`(item ${itemIndex})`)) fail('the refusal does not name the item');
				if (expected === 'text' && /must be text/.test(message))
					fail('a number or true/false refused as not text');
				if ((expected === 'refused' || narrowing) && !message.toLowerCase().includes(label))
					fail(`the refusal does not name ${target.property.displayName}`);
				return;
			}
			if (expected === 'refused') fail('expected a refusal naming the field, before any request');
			const sent = groups[next++];
			if (!sent) fail('no request for an accepted case');
			if (expected === 'text' && !narrowing && !filtering) {
				const text = String(value);
				const carriedValues = new Set(sent.flatMap((request) => [...carried(request)]));
				if (!carriedValues.has(text) && !carriedValues.has(text.trim()))
					fail(`expected ${JSON.stringify(text)} in the request`);
			}
		});
		if (next !== groups.length) throw new Error(`${described}: requests no case accounts for`);
	}
}

describe('every parameter of every operation, fed any JSON value', () => {
	it('covers every operation', () => {
		const operations = new Set(
			TARGETS.map(({ resource, operation }) => `${resource}.${operation}`),
		);
		expect([...operations].sort()).toEqual(Object.keys(BASELINES).sort());
	});

	it.each(
		TARGETS.map(
			(target) => [`${target.resource} ${target.operation} ${target.path}`, target] as const,
		),
	)('%s', async (_, target) => {
		const count = target.perExecution ? VALUES_PER_EXECUTION_WIDE_FIELD : CASES_PER_PARAMETER;
		await fc.assert(
			fc.asyncProperty(
				fc.array(valuesFor(target.property), { minLength: count, maxLength: count }),
				async (values) => await check(target, values),
			),
			propertyParameters(1),
		);
	});
});
