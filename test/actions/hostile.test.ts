/**
 * The cases of hostile and malformed input found by hand, each pinned as an example; the property
 * suite (test/properties/) generates many more of each kind.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import {
	MAX_JSON_CHARACTERS,
	MAX_JSON_DEPTH,
} from '../../nodes/DataIntegrationManagement/shared/checks';
import { SEED } from '../emulator';
import { SUCCESS_CODE } from '../emulator/choices';
import { useEmulator } from '../helpers/emulator';
import { runActionNode } from '../helpers/n8n';
import { rl, sent } from './support';

const { emulator, credentials } = useEmulator();
const ORDERS = SEED.integrations.ordersToSnowflake;

const run = (parameters: INodeParameters, items: IDataObject[] = [{}]) =>
	runActionNode({ credentials: credentials(), parameters, items });

describe('names that mean something to JavaScript objects', () => {
	it.each(['__proto__', 'constructor'])(
		'a schema, table and column named %s travel in the body, and no prototype changes',
		async (name) => {
			const result = await run({
				resource: 'integration',
				operation: 'updateSchemas',
				integrationId: ORDERS,
				changes: {
					change: [
						{ level: 'schema', schema: name, enabled: 'disable' },
						{ level: 'column', schema: 'public', table: name, column: name, hashed: 'hash' },
					],
				},
			});

			// The emulator knows no such names: the point is what was sent, and what was not changed.
			expect(result.error?.message).toMatch(/does not exist/);
			const body = JSON.stringify(sent(emulator())[0].body);
			expect(body).toBe(
				`{"schemas":{"${name}":{"enabled":false},"public":{"tables":{"${name}":{"columns":{"${name}":{"hashed":true}}}}}}}`,
			);
			const probe = {} as Record<string, unknown>;
			expect([probe.enabled, probe.hashed, probe.tables]).toEqual([
				undefined,
				undefined,
				undefined,
			]);
			expect(Object.getOwnPropertyNames(Object)).not.toContain('tables');
		},
	);
});

describe('ids and names in the path', () => {
	it.each([
		['tag', 'deleteRelation', { tagId: '..', resourceId: 'r', resourceType: 'asset' }, 'Tag ID'],
		['asset', 'update', { assetId: '..', updateFields: { name: 'N' } }, 'Asset ID'],
		['integration', 'get', { integrationId: '..' }, 'Integration ID'],
		['integration', 'get', { integrationId: '%2E%2e' }, 'Integration ID'],
		['integration', 'getSchemas', { integrationId: '.' }, 'Integration ID'],
		[
			'integration',
			'getColumns',
			{ integrationId: ORDERS, schema: rl('name', 'public'), table: rl('name', '%2e') },
			'Table',
		],
	])(
		'%s %s with %j is refused by name, before any request',
		async (resource, operation, fields, label) => {
			const result = await run({ resource, operation, ...fields });

			expect(result.error).toMatchObject({
				name: 'NodeOperationError',
				message: `The field "${label}" cannot be "." or ".." (nor their percent-encoded forms): the request would go to another endpoint (item 0)`,
			});
			expect(emulator().requests).toEqual([]);
		},
	);

	it('an id of only spaces is refused, saying so', async () => {
		const result = await run({ resource: 'integration', operation: 'get', integrationId: '  ' });

		expect(result.error?.message).toBe('The field "Integration ID" is blank (item 0)');
		expect(emulator().requests).toEqual([]);
	});

	it('a slash or a dot inside an id stays in its one segment', async () => {
		await run({ resource: 'integration', operation: 'get', integrationId: '../x/..' });

		expect(emulator().requests.map((request) => request.path)).toEqual([
			'/integrations/..%2Fx%2F..',
		]);
	});
});

describe('audit-log entries whose timestamp is an object', () => {
	it('are returned, their timestamp read as none: even one that names toISO, or without an actor', async () => {
		const entries = [
			{ id: 'a', event: 'x', timestamp: { toISO: '2026-11-01T00:00:00Z' } },
			{ id: 'b', event: 'y', timestamp: {}, actor: null },
		];
		emulator().answerWith({
			body: { code: SUCCESS_CODE, data: { items: entries, totalItems: 2 } },
		});

		const result = await run({ resource: 'auditLog', operation: 'getAll', returnAll: true });

		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json)).toEqual(entries);
	});
});

describe('answers that are no JSON object', () => {
	it.each([null, [], 'text', 7])('%j: an error naming the request', async (body) => {
		emulator().answerWith({ body });

		const result = await run({ resource: 'user', operation: 'getAll', returnAll: true });

		expect(result.items).toEqual([]);
		expect(result.error).toMatchObject({
			name: 'NodeApiError',
			message: "The service's answer to GET /users is not the JSON object the API promises",
		});
	});
});

// A write's answer never fails its item: ./acknowledged-writes.test.ts.
describe('answers without the data the operation reads', () => {
	it.each([
		[
			{ resource: 'integration', operation: 'get', integrationId: ORDERS },
			`GET /integrations/${ORDERS}`,
			'it has no data object',
		],
		[
			{ resource: 'user', operation: 'getAll', returnAll: true },
			'GET /users',
			'it has no data object',
		],
	])('%j: an error naming the request', async (parameters, request, problem) => {
		emulator().answerWith({ body: { code: SUCCESS_CODE } });

		const result = await run(parameters);

		expect(result.items).toEqual([]);
		expect(result.error).toMatchObject({
			name: 'NodeApiError',
			message: `The service's answer to ${request} is not what the API describes: ${problem}`,
		});
	});

	it('names each part that is missing or of the wrong type', async () => {
		emulator().answerWith({ body: { code: SUCCESS_CODE, data: { items: {}, totalItems: -1 } } });

		const result = await run({ resource: 'auditLog', operation: 'getAll', returnAll: true });

		expect(result.error?.message).toBe(
			"The service's answer to GET /audit-logs is not what the API describes: data.items should be an array of objects; data.totalItems should be a whole number when given",
		);
	});
});

describe('numbers and dates from expressions', () => {
	const users = (limit: unknown) =>
		run({ resource: 'user', operation: 'getAll', returnAll: false, limit: '={{ $json.limit }}' }, [
			{ limit } as IDataObject,
		]);

	it.each([-5, 0, 2.5, 'many'])('Limit %j is refused before any request', async (limit) => {
		const result = await users(limit);

		expect(result.error?.message).toBe(
			`The field "Limit" must be a whole number of at least 1, not ${JSON.stringify(limit)} (item 0)`,
		);
		expect(emulator().requests).toEqual([]);
	});

	it('Limit given as text of digits is read as that number', async () => {
		expect((await users('3')).items).toHaveLength(3);
	});

	const auditSince = (since: string) =>
		run({
			resource: 'auditLog',
			operation: 'getAll',
			returnAll: false,
			limit: 1,
			filters: { timeRange: { since } },
		});

	it.each(['2026-02-30', '2026-02-29T10:00:00Z', '2026-13-01T00:00:00', '2026-11-01T24:61:00Z'])(
		'%s is not a real date and time, and is refused',
		async (since) => {
			const result = await auditSince(since);

			expect(result.error?.message).toBe('The field "Since" is not a valid date and time (item 0)');
			expect(emulator().requests).toEqual([]);
		},
	);

	it.each([
		['the date picker', '2028-02-29T23:59:59', undefined],
		['a UTC date-time', '2026-12-31T23:59:59Z', '2026-12-31T23:59:59.000Z'],
		[
			'a Luxon DateTime',
			'={{ DateTime.fromISO("2026-11-01T09:30:00Z") }}',
			'2026-11-01T09:30:00.000Z',
		],
	])('a real date from %s is sent', async (_source, since, expected) => {
		await auditSince(since);

		const startTime = emulator().requests[0]?.query.startTime;
		expect(startTime).toEqual(expected ?? expect.stringMatching(/^2028-0[23]-\d\dT/));
	});
});

describe('JSON fields', () => {
	const nested = (depth: number): IDataObject => {
		let value: IDataObject = { host: 'db' };
		for (let level = 1; level < depth; level++) value = { nested: value };
		return value;
	};
	const createAsset = (connection: IDataObject | string) =>
		run({
			resource: 'asset',
			operation: 'create',
			name: 'A',
			type: 't',
			additionalFields: { connection } as INodeParameters,
		});

	it(`a connection nested ${MAX_JSON_DEPTH} levels is sent, one more is refused`, async () => {
		expect((await createAsset(nested(MAX_JSON_DEPTH))).error).toBeUndefined();
		const result = await createAsset(JSON.stringify(nested(MAX_JSON_DEPTH + 1)));

		expect(result.error?.message).toBe(
			`The field "Connection" is nested more than ${MAX_JSON_DEPTH} levels deep (item 0)`,
		);
		expect(emulator().requests).toHaveLength(1);
	});

	it.each([
		['as JSON text', (text: string) => text],
		['as an object', (text: string) => JSON.parse(text) as IDataObject],
	])(
		`a connection over ${MAX_JSON_CHARACTERS} characters of JSON is refused, given %s`,
		async (_label, given) => {
			const text = JSON.stringify({ key: 'k'.repeat(MAX_JSON_CHARACTERS) });

			const result = await createAsset(given(text));

			expect(result.error?.message).toBe(
				`The field "Connection" is larger than ${MAX_JSON_CHARACTERS} characters of JSON (item 0)`,
			);
			expect(emulator().requests).toEqual([]);
		},
	);
});
