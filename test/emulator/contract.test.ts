/**
 * Contract tests of the emulator against the service's API description (summarised in the
 * README's "Operations" and docs/guarantees.md ("Where the API description is silent")), the
 * nodes' choices in nodes/DataIntegrationManagement/client/choices.ts and the emulator's own in
 * ./choices.ts, over real HTTP with the global fetch.
 */
import { sleep } from 'n8n-workflow';

import * as nodeChoices from '../../nodes/DataIntegrationManagement/client/choices';
import type {
	AuditLogEntry,
	AuditLogPage,
	ColumnConfig,
	Envelope,
	Integration,
	SchemasConfig,
	Tag,
	User,
} from '../../nodes/DataIntegrationManagement/client/types';
import type { ErrorBody } from './errors';
import {
	AUDIT_LOG_DEFAULT_PAGE_SIZE,
	AUDIT_LOG_PAGE_SIZE_MAX,
	AUDIT_LOG_QUERY_NAMES,
	AUDIT_LOG_SORT_FIELDS,
	ERROR_CODES,
	SORT_ORDERS,
	SUCCESS_CODE,
	TAG_ORIGIN_API,
} from './choices';
import { DEFAULT_API_KEY, SEED, startEmulator, Store, type Emulator } from './index';
import { onRequestArrival } from '../helpers/emulator';
import { seedStore } from './seed';

let emulator: Emulator;

beforeAll(async () => {
	emulator = await startEmulator();
});

afterAll(async () => {
	await emulator.close();
});

beforeEach(() => {
	emulator.reset();
});

// ----- Helpers -----

interface Answer<T> {
	status: number;
	headers: Headers;
	text: string;
	body: T;
}

interface CallOptions {
	body?: unknown;
	/** Sent verbatim instead of JSON-encoding `body`. */
	rawBody?: string;
	/** The x-api-key to send; null sends none. Default: the emulator's key. */
	apiKey?: string | null;
	headers?: Record<string, string>;
}

/** One request to /v1; the body is JSON-decoded when there is one. */
async function call<T = Envelope<never>>(
	method: string,
	path: string,
	options: CallOptions = {},
): Promise<Answer<T>> {
	const headers: Record<string, string> = { ...options.headers };
	const apiKey = options.apiKey === undefined ? emulator.apiKey : options.apiKey;
	if (apiKey !== null) headers['x-api-key'] = apiKey;
	let payload = options.rawBody;
	if (options.body !== undefined) payload = JSON.stringify(options.body);
	if (payload !== undefined) headers['content-type'] ??= 'application/json';
	const response = await fetch(`${emulator.baseUrl}${path}`, { method, headers, body: payload });
	const text = await response.text();
	return {
		status: response.status,
		headers: response.headers,
		text,
		body: text ? (JSON.parse(text) as T) : (undefined as T),
	};
}

/** A request to the control endpoints (no key). */
async function control(method: string, path: string, body?: unknown) {
	const response = await fetch(`${emulator.baseUrl.replace(/\/v1$/, '')}/__emulator${path}`, {
		method,
		headers: body === undefined ? {} : { 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await response.text();
	return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

/** Asserts an error answer: status, exactly { code, message }, the code choices.ts pairs with the status. */
function expectError(answer: Answer<unknown>, status: keyof typeof ERROR_CODES, message: RegExp) {
	expect(answer.status).toBe(status);
	const body = answer.body as ErrorBody;
	expect(Object.keys(body).sort()).toEqual(['code', 'message']);
	expect(body.code).toBe(ERROR_CODES[status]);
	expect(body.message).toMatch(message);
}

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The two values the spec names as valid for a new connector. */
const CONNECTOR_VALUES = { connectionType: 'source', authMethod: 'direct' };

const ORDERS = SEED.integrations.ordersToSnowflake;
const NORTHWIND = SEED.integrations.northwindToRedshift;
const COLUMNS_PATH = `/integrations/${ORDERS}/schemas/${SEED.schema}/tables/${SEED.table}/columns`;

/** One request per operation, each valid apart from the key (body always given: jest.each passes `done` to short rows). */
const EVERY_OPERATION: Array<[method: string, path: string, body: unknown]> = [
	['POST', '/tags', { name: 'Sales', owner: SEED.users.maya }],
	['PUT', `/tags/${SEED.tags.pii}`, { name: 'PII data' }],
	['DELETE', `/tags/${SEED.tags.pii}/relation`, SEED.piiRelation],
	['POST', '/assets', { name: 'Lake', type: 'storage' }],
	['PATCH', `/assets/${SEED.assets.ordersDb}`, { name: 'Orders DB' }],
	['POST', '/connectors', { name: 'PG', type: 'postgres', ...CONNECTOR_VALUES }],
	['GET', `/integrations/${ORDERS}`, undefined],
	['GET', `/integrations/${ORDERS}/schemas`, undefined],
	['PATCH', `/integrations/${ORDERS}/schemas`, { schemas: { public: { enabled: false } } }],
	['GET', COLUMNS_PATH, undefined],
	['GET', '/users', undefined],
	['GET', '/audit-logs', undefined],
];

// ----- Authentication and routing -----

describe('authentication', () => {
	test.each(EVERY_OPERATION)(
		'%s %s without x-api-key is 401 and changes nothing',
		async (method, path, body) => {
			const before = JSON.stringify([
				...emulator.store.tags.values(),
				...emulator.store.assets.values(),
			]);
			expectError(await call(method, path, { body, apiKey: null }), 401, /missing x-api-key/);
			expect(
				JSON.stringify([...emulator.store.tags.values(), ...emulator.store.assets.values()]),
			).toBe(before);
		},
	);

	test.each(EVERY_OPERATION)('%s %s with a wrong key is 401', async (method, path, body) => {
		expectError(
			await call(method, path, { body, apiKey: 'wrong-key-123' }),
			401,
			/invalid API key/,
		);
	});

	test('no response, success or failure, carries the key sent or the real key', async () => {
		const answers = [
			await call('GET', '/users'),
			await call('GET', '/users', { apiKey: 'wrong-key-123' }),
			await call('GET', '/nowhere'),
			await call('POST', '/tags', { body: { name: '' } }),
		];
		for (const answer of answers) {
			expect(answer.text).not.toContain(DEFAULT_API_KEY);
			expect(answer.text).not.toContain('wrong-key-123');
			expect([...answer.headers.values()].join(' ')).not.toContain(DEFAULT_API_KEY);
		}
	});

	test('the key is checked before the body: wrong key and malformed JSON is 401', async () => {
		expectError(
			await call('POST', '/tags', { rawBody: '{oops', apiKey: 'nope' }),
			401,
			/invalid API key/,
		);
	});

	test('an emulator started with its own key accepts that key only', async () => {
		const other = await startEmulator({ apiKey: 'custom-key', seed: false });
		try {
			const ok = await fetch(`${other.baseUrl}/users`, { headers: { 'x-api-key': 'custom-key' } });
			const rejected = await fetch(`${other.baseUrl}/users`, {
				headers: { 'x-api-key': DEFAULT_API_KEY },
			});
			expect([ok.status, rejected.status]).toEqual([200, 401]);
			expect(((await ok.json()) as Envelope<{ items: User[] }>).data?.items).toEqual([]);
		} finally {
			await other.close();
		}
	});
});

describe('routing and bodies', () => {
	test.each([
		['GET', '/nowhere'],
		['GET', '/tags'],
		['POST', '/users'],
		['DELETE', `/tags/${SEED.tags.pii}`],
	])('%s %s is a 404 error body', async (method, path) => {
		expectError(await call(method, path), 404, /no operation/);
	});

	test('malformed JSON is a 400 error body', async () => {
		expectError(await call('POST', '/tags', { rawBody: '{"name": "x",' }), 400, /not valid JSON/);
	});

	test('a body that is not JSON is a 400', async () => {
		const answer = await call('POST', '/tags', {
			rawBody: 'name=x',
			headers: { 'content-type': 'text/plain' },
		});
		expectError(answer, 400, /must be JSON/);
	});

	test('a JSON body that is not an object is a 400', async () => {
		expectError(
			await call('POST', '/assets', { body: ['name'] }),
			400,
			/request body must be a JSON object/,
		);
	});

	// n8n's HTTP helper may send Content-Type: application/json without a body.
	const jsonHeader = { 'content-type': 'application/json' };

	test('a GET with Content-Type: application/json and no body is accepted', async () => {
		expect((await call('GET', '/users', { headers: jsonHeader })).status).toBe(200);
	});

	test('an empty DELETE body with Content-Type: application/json reads as no body', async () => {
		const answer = await call('DELETE', `/tags/${SEED.tags.pii}/relation`, {
			rawBody: '',
			headers: jsonHeader,
		});
		expectError(answer, 400, /resourceId is required/);
	});

	test('operations without query parameters in the spec reject one', async () => {
		expectError(await call('GET', '/users?limit=5'), 400, /unknown query parameter 'limit'/);
	});
});

// ----- Tags -----

describe('POST /tags', () => {
	test('creates a tag: code, message, data.id, and the tag is stored', async () => {
		const answer = await call<Envelope<{ id: string }>>('POST', '/tags', {
			body: { name: 'Marketing', description: 'Campaign data', owner: SEED.users.aiko },
		});
		expect(answer.status).toBe(200);
		expect(answer.body.code).toBe(SUCCESS_CODE);
		expect(typeof answer.body.message).toBe('string');
		expect(Object.keys(answer.body.data ?? {})).toEqual(['id']);
		const stored = emulator.store.tags.get(answer.body.data!.id);
		expect(stored).toMatchObject({
			name: 'Marketing',
			description: 'Campaign data',
			owner: SEED.users.aiko,
		});
		expect(stored?.createdAt).toMatch(ISO_UTC);
	});

	test('a created tag can be edited', async () => {
		const created = await call<Envelope<{ id: string }>>('POST', '/tags', {
			body: { name: 'Ops', owner: SEED.users.lucas },
		});
		const id = created.body.data!.id;
		const edited = await call<Envelope<Tag>>('PUT', `/tags/${id}`, {
			body: { description: 'Runbooks' },
		});
		expect(edited.status).toBe(200);
		expect(edited.body.data).toMatchObject({
			id,
			name: 'Ops',
			description: 'Runbooks',
			owner: SEED.users.lucas,
		});
	});

	test.each([
		[{ owner: SEED.users.maya }, /name is required and must be a non-empty string/],
		[{ name: '', owner: SEED.users.maya }, /name is required and must be a non-empty string/],
		[{ name: '  ', owner: SEED.users.maya }, /name is required/],
		[{ name: 42, owner: SEED.users.maya }, /name is required/],
		[{ name: 'Sales' }, /owner is required and must be a non-empty string/],
		[{ name: 'Sales', owner: 7 }, /owner is required/],
		[
			{ name: 'Sales', owner: 'usr_nobody' },
			/owner 'usr_nobody' is not the id of an existing user/,
		],
		[{ name: 'Sales', owner: SEED.users.maya, description: 5 }, /description must be a string/],
		[{ name: 'Sales', owner: SEED.users.maya, colour: 'red' }, /unknown field 'colour'/],
	])('rejects %j with 400', async (body, message) => {
		const tagsBefore = emulator.store.tags.size;
		expectError(await call('POST', '/tags', { body }), 400, message);
		expect(emulator.store.tags.size).toBe(tagsBefore);
	});

	test('no body at all names the first missing field', async () => {
		expectError(await call('POST', '/tags'), 400, /name is required/);
	});
});

describe('PUT /tags/{id}', () => {
	test('returns the full tag, sets origin and lastUpdatedAt, keeps the rest', async () => {
		const before = { ...emulator.store.tags.get(SEED.tags.finance)! };
		const answer = await call<Envelope<Tag>>('PUT', `/tags/${SEED.tags.finance}`, {
			body: { name: 'Finance & billing', owner: SEED.users.priya },
		});
		expect(answer.status).toBe(200);
		expect(answer.body.code).toBe(SUCCESS_CODE);
		const tag = answer.body.data!;
		expect(Object.keys(tag).sort()).toEqual(
			['createdAt', 'description', 'id', 'lastUpdatedAt', 'name', 'origin', 'owner'].sort(),
		);
		expect(tag).toMatchObject({
			id: SEED.tags.finance,
			name: 'Finance & billing',
			owner: SEED.users.priya,
			description: before.description,
			createdAt: before.createdAt,
			origin: TAG_ORIGIN_API,
		});
		expect(tag.lastUpdatedAt).toMatch(ISO_UTC);
		expect(Date.parse(tag.lastUpdatedAt)).toBeGreaterThan(Date.parse(before.lastUpdatedAt));
		expect(emulator.store.tags.get(SEED.tags.finance)).toEqual(tag);
	});

	test.each([
		[{}, /at least one of name, description, owner is required/],
		[{ name: '' }, /name must be a non-empty string/],
		[{ description: null }, /description must be a string/],
		[{ owner: 'usr_ghost' }, /owner 'usr_ghost' is not the id of an existing user/],
		[{ origin: 'ui' }, /unknown field 'origin'/],
	])('rejects %j with 400 and leaves the tag unchanged', async (body, message) => {
		const before = { ...emulator.store.tags.get(SEED.tags.gdpr) };
		expectError(await call('PUT', `/tags/${SEED.tags.gdpr}`, { body }), 400, message);
		expect(emulator.store.tags.get(SEED.tags.gdpr)).toEqual(before);
	});

	test('an unknown tag is 404', async () => {
		expectError(
			await call('PUT', '/tags/tag_missing', { body: { name: 'x' } }),
			404,
			/tag 'tag_missing' does not exist/,
		);
	});
});

describe('DELETE /tags/{id}/relation', () => {
	const path = `/tags/${SEED.tags.pii}/relation`;

	test('removes the relation; deleting it again is 404', async () => {
		const first = await call<Envelope<never>>('DELETE', path, { body: SEED.piiRelation });
		expect(first.status).toBe(200);
		expect(Object.keys(first.body).sort()).toEqual(['code', 'message']);
		expect(first.body.code).toBe(SUCCESS_CODE);
		expect(emulator.store.tagRelations.get(SEED.tags.pii)).not.toContainEqual(SEED.piiRelation);

		expectError(
			await call('DELETE', path, { body: SEED.piiRelation }),
			404,
			/has no relation to integration/,
		);
	});

	test('a relation added by a test can be deleted through the API', async () => {
		const relation = { resourceId: 'con_abc', resourceType: 'connector' };
		emulator.addTagRelation(SEED.tags.deprecated, relation);
		const answer = await call('DELETE', `/tags/${SEED.tags.deprecated}/relation`, {
			body: relation,
		});
		expect(answer.status).toBe(200);
		expect(emulator.store.tagRelations.get(SEED.tags.deprecated)).toEqual([]);
	});

	test('the relation must match both resourceId and resourceType', async () => {
		const body = { ...SEED.piiRelation, resourceType: 'asset' };
		expectError(await call('DELETE', path, { body }), 404, /has no relation/);
		expect(emulator.store.tagRelations.get(SEED.tags.pii)).toContainEqual(SEED.piiRelation);
	});

	test.each([
		[{ resourceType: 'integration' }, /resourceId is required/],
		[{ resourceId: 'int_1', resourceType: 3 }, /resourceType is required/],
		[{ resourceId: 'int_1' }, /resourceType is required/],
	])('rejects %j with 400', async (body, message) => {
		expectError(await call('DELETE', path, { body }), 400, message);
	});

	test('an unknown tag is 404', async () => {
		expectError(
			await call('DELETE', '/tags/tag_missing/relation', { body: SEED.piiRelation }),
			404,
			/tag_missing/,
		);
	});
});

// ----- Assets and connectors -----

describe('POST /assets', () => {
	test('creates an asset: data holds exactly id, name and type', async () => {
		const body = {
			name: 'Event lake',
			type: 'storage',
			description: 'Raw events',
			connection: { bucket: 'events' },
		};
		const answer = await call<Envelope<{ id: string; name: string; type: string }>>(
			'POST',
			'/assets',
			{ body },
		);
		expect(answer.status).toBe(200);
		expect(answer.body.code).toBe(SUCCESS_CODE);
		const data = answer.body.data!;
		expect(data).toEqual({ id: expect.any(String), name: 'Event lake', type: 'storage' });
		expect(emulator.store.assets.get(data.id)).toEqual({ id: data.id, ...body });
	});

	test.each([
		[{ type: 'storage' }, /name is required and must be a non-empty string/],
		[{ name: 'Lake' }, /type is required and must be a non-empty string/],
		[{ name: 'Lake', type: 'storage', description: false }, /description must be a string/],
		[{ name: 'Lake', type: 'storage', connection: [] }, /connection must be a JSON object/],
		[{ name: 'Lake', type: 'storage', connection: null }, /connection must be a JSON object/],
		[{ name: 'Lake', type: 'storage', connection: 'host=x' }, /connection must be a JSON object/],
	])('rejects %j with 400', async (body, message) => {
		expectError(await call('POST', '/assets', { body }), 400, message);
		expect(emulator.store.assets.size).toBe(2);
	});
});

describe('PATCH /assets/{id}', () => {
	const path = `/assets/${SEED.assets.ordersDb}`;

	test('edits the given fields only and returns data.id', async () => {
		const answer = await call<Envelope<{ id: string }>>('PATCH', path, {
			body: {
				description: 'Moved to the new cluster',
				connection: { host: 'orders-db-2.internal' },
			},
		});
		expect(answer.status).toBe(200);
		expect(answer.body).toEqual({ code: SUCCESS_CODE, data: { id: SEED.assets.ordersDb } });
		expect(emulator.store.assets.get(SEED.assets.ordersDb)).toMatchObject({
			name: 'Orders database',
			type: 'database',
			description: 'Moved to the new cluster',
			connection: { host: 'orders-db-2.internal' },
		});
	});

	test.each([
		[{ type: 'warehouse' }, /type cannot be changed/],
		[{ name: 'x', type: 'warehouse' }, /type cannot be changed/],
		[{}, /at least one of name, description, connection is required/],
		[{ name: '' }, /name must be a non-empty string/],
		[{ connection: [1] }, /connection must be a JSON object/],
	])('rejects %j with 400', async (body, message) => {
		const before = structuredClone(emulator.store.assets.get(SEED.assets.ordersDb));
		expectError(await call('PATCH', path, { body }), 400, message);
		expect(emulator.store.assets.get(SEED.assets.ordersDb)).toEqual(before);
	});

	test('an unknown asset is 404', async () => {
		expectError(
			await call('PATCH', '/assets/ast_missing', { body: { name: 'x' } }),
			404,
			/asset 'ast_missing'/,
		);
	});
});

describe('POST /connectors', () => {
	const valid = { name: 'Orders PG', type: 'postgres', ...CONNECTOR_VALUES };

	test('creates a connector: code, message, data with id, name, type', async () => {
		const body = {
			...valid,
			description: 'Read replica',
			connection: { host: 'replica.internal', port: 5432 },
		};
		const answer = await call<Envelope<{ id: string; name: string; type: string }>>(
			'POST',
			'/connectors',
			{ body },
		);
		expect(answer.status).toBe(200);
		expect(answer.body.code).toBe(SUCCESS_CODE);
		expect(typeof answer.body.message).toBe('string');
		const { id, ...rest } = answer.body.data!;
		expect(rest).toEqual({ name: 'Orders PG', type: 'postgres' });
		expect(emulator.store.connectors.get(id)).toEqual({ id, ...body });
	});

	test.each(['name', 'type', 'connectionType', 'authMethod'])('%s is required', async (field) => {
		const body: Record<string, unknown> = { ...valid };
		delete body[field];
		expectError(
			await call('POST', '/connectors', { body }),
			400,
			new RegExp(`^${field} is required`),
		);
		expect(emulator.store.connectors.size).toBe(0);
	});

	test.each([
		[{ ...valid, connection: ['a'] }, /connection must be a JSON object/],
		[{ ...valid, description: 1 }, /description must be a string/],
		[{ ...valid, authMethod: '' }, /authMethod is required/],
	])('rejects %j with 400', async (body, message) => {
		expectError(await call('POST', '/connectors', { body }), 400, message);
	});
});

// ----- Integrations and source schemas -----

describe('GET /integrations/{id}', () => {
	test('returns data.integration with every Integration field', async () => {
		const answer = await call<Envelope<{ integration: Integration }>>(
			'GET',
			`/integrations/${ORDERS}`,
		);
		expect(answer.status).toBe(200);
		expect(answer.body.code).toBe(SUCCESS_CODE);
		const integration = answer.body.data!.integration;
		expect(Object.keys(integration).sort()).toEqual(
			['createdAt', 'destination', 'id', 'latestRunId', 'name', 'paused', 'source'].sort(),
		);
		expect(integration.id).toBe(ORDERS);
		expect(typeof integration.paused).toBe('boolean');
		expect(integration.createdAt).toMatch(ISO_UTC);
		for (const endpoint of [integration.source, integration.destination]) {
			expect(Object.keys(endpoint).sort()).toEqual(['id', 'name', 'type']);
		}
	});

	test('an unknown integration is 404', async () => {
		expectError(
			await call('GET', '/integrations/int_missing'),
			404,
			/integration 'int_missing' does not exist/,
		);
	});
});

describe('GET /integrations/{id}/schemas and columns', () => {
	test('schemas carry every level with response-only fields', async () => {
		const answer = await call<Envelope<{ schemas: SchemasConfig }>>(
			'GET',
			`/integrations/${ORDERS}/schemas`,
		);
		expect(answer.status).toBe(200);
		const schemas = answer.body.data!.schemas;
		expect(schemas).toEqual(emulator.store.schemas.get(ORDERS));
		const table = schemas[SEED.schema].tables[SEED.table];
		expect(table).toMatchObject({
			enabled: true,
			syncMode: expect.any(String),
			cursorField: expect.any(String),
		});
		expect(typeof schemas[SEED.schema].nameInDestination).toBe('string');
		expect(table.columns[SEED.primaryKeyColumn].isPrimaryKey).toBe(true);
		expect(table.columns[SEED.hashedColumn].hashed).toBe(true);
		expect(table.columns[SEED.disabledColumn].enabled).toBe(false);
	});

	test('columns of one table', async () => {
		const answer = await call<Envelope<{ columns: Record<string, ColumnConfig> }>>(
			'GET',
			COLUMNS_PATH,
		);
		expect(answer.status).toBe(200);
		const columns = answer.body.data!.columns;
		expect(columns).toEqual(
			emulator.store.schemas.get(ORDERS)![SEED.schema].tables[SEED.table].columns,
		);
		for (const column of Object.values(columns)) {
			expect(Object.keys(column).sort()).toEqual([
				'enabled',
				'hashed',
				'isPrimaryKey',
				'nameInDestination',
			]);
		}
	});

	test('path parameters are URL-decoded', async () => {
		const path = `/integrations/${NORTHWIND}/schemas/dbo/tables/${encodeURIComponent(SEED.spacedTable)}/columns`;
		const answer = await call<Envelope<{ columns: Record<string, ColumnConfig> }>>('GET', path);
		expect(answer.status).toBe(200);
		expect(Object.keys(answer.body.data!.columns)).toContain('ProductID');
	});

	test.each([
		[`/integrations/int_missing/schemas`, /integration 'int_missing'/],
		[
			`/integrations/int_missing/schemas/public/tables/customers/columns`,
			/integration 'int_missing'/,
		],
		[
			`/integrations/${ORDERS}/schemas/nope/tables/customers/columns`,
			/schema 'nope' does not exist/,
		],
		[
			`/integrations/${ORDERS}/schemas/public/tables/nope/columns`,
			/table 'nope' does not exist in schema 'public'/,
		],
	])('GET %s is 404', async (path, message) => {
		expectError(await call('GET', path), 404, message);
	});
});

describe('PATCH /integrations/{id}/schemas', () => {
	const path = `/integrations/${ORDERS}/schemas`;
	const storedSchemas = () => structuredClone(emulator.store.schemas.get(ORDERS)!);

	test('sets enabled and hashed; operations 8 and 10 read the new values', async () => {
		const answer = await call<Envelope<{ schemas: SchemasConfig }>>('PATCH', path, {
			body: {
				schemas: {
					billing: { enabled: false },
					public: {
						tables: {
							customers: {
								enabled: false,
								columns: {
									email: { hashed: false },
									internal_notes: { enabled: true, hashed: true },
								},
							},
						},
					},
				},
			},
		});
		expect(answer.status).toBe(200);
		expect(answer.body.code).toBe(SUCCESS_CODE);
		const expected = (schemas: SchemasConfig) => {
			expect(schemas.billing.enabled).toBe(false);
			expect(schemas.public.enabled).toBe(true);
			expect(schemas.public.tables.customers.enabled).toBe(false);
			expect(schemas.public.tables.customers.columns.email).toMatchObject({
				hashed: false,
				enabled: true,
			});
			expect(schemas.public.tables.customers.columns.internal_notes).toMatchObject({
				enabled: true,
				hashed: true,
			});
			// Untouched entries keep their values.
			expect(schemas.public.tables.customers.columns.phone.hashed).toBe(true);
			expect(schemas.public.tables.orders.enabled).toBe(true);
		};
		expected(answer.body.data!.schemas);
		expected((await call<Envelope<{ schemas: SchemasConfig }>>('GET', path)).body.data!.schemas);
		const columns = (
			await call<Envelope<{ columns: Record<string, ColumnConfig> }>>('GET', COLUMNS_PATH)
		).body.data!.columns;
		expect(columns.email.hashed).toBe(false);
		expect(columns.internal_notes).toMatchObject({ enabled: true, hashed: true });
	});

	test('the response is the full configuration, not just the patched part', async () => {
		const answer = await call<Envelope<{ schemas: SchemasConfig }>>('PATCH', path, {
			body: { schemas: { audit: { enabled: true } } },
		});
		expect(Object.keys(answer.body.data!.schemas).sort()).toEqual(['audit', 'billing', 'public']);
		expect(answer.body.data!.schemas.audit.enabled).toBe(true);
	});

	test.each([
		[{}, /schemas is required/],
		[{ schemas: [] }, /schemas must be an object/],
		[{ schemas: { public: true } }, /schemas\.public must be an object/],
		[{ schemas: { nope: { enabled: false } } }, /schema 'nope' does not exist/],
		[
			{ schemas: { public: { tables: { nope: { enabled: false } } } } },
			/table 'nope' does not exist in schema 'public'/,
		],
		[
			{ schemas: { public: { tables: { customers: { columns: { nope: { hashed: true } } } } } } },
			/column 'nope' does not exist in table 'public.customers'/,
		],
		[{ schemas: { public: { enabled: 'no' } } }, /schemas\.public\.enabled must be a boolean/],
		[
			{ schemas: { public: { tables: { customers: { columns: { email: { hashed: 1 } } } } } } },
			/schemas\.public\.tables\.customers\.columns\.email\.hashed must be a boolean/,
		],
		[
			{ schemas: { public: { nameInDestination: 'x' } } },
			/schemas\.public\.nameInDestination cannot be set/,
		],
		[
			{ schemas: { public: { tables: { customers: { syncMode: 'full_refresh' } } } } },
			/syncMode cannot be set/,
		],
		[
			{ schemas: { public: { tables: { customers: { hashed: true } } } } },
			/customers\.hashed cannot be set/,
		],
		[
			{
				schemas: {
					public: { tables: { customers: { columns: { id: { isPrimaryKey: false } } } } },
				},
			},
			/columns\.id\.isPrimaryKey cannot be set/,
		],
		[{ schemas: {}, extra: 1 }, /unknown field 'extra'/],
	])('rejects %j with 400', async (body, message) => {
		expectError(await call('PATCH', path, { body }), 400, message);
	});

	test.each(['__proto__', 'constructor', 'hasOwnProperty'])(
		'a schema, table or column named %s is an unknown name, and no prototype changes',
		async (name) => {
			const prototypeKeys = Object.getOwnPropertyNames(Object.prototype);
			// JSON text, so the name is an own key of the body as it is on the wire.
			const patches = [
				`{"${name}":{"enabled":false}}`,
				`{"public":{"tables":{"${name}":{"enabled":false}}}}`,
				`{"public":{"tables":{"customers":{"columns":{"${name}":{"hashed":true}}}}}}`,
			];
			for (const patch of patches) {
				const answer = await call('PATCH', path, { rawBody: `{"schemas":${patch}}` });
				expectError(answer, 400, new RegExp(`'${name}' does not exist`));
			}
			expectError(
				await call('GET', `/integrations/${ORDERS}/schemas/${name}/tables/customers/columns`),
				404,
				new RegExp(`schema '${name}' does not exist`),
			);
			expectError(
				await call('GET', `/integrations/${ORDERS}/schemas/public/tables/${name}/columns`),
				404,
				new RegExp(`table '${name}' does not exist`),
			);
			expect(Object.getOwnPropertyNames(Object.prototype)).toEqual(prototypeKeys);
			expect(({} as Record<string, unknown>).enabled).toBeUndefined();
		},
	);

	test('nothing is applied when any part of the patch is invalid', async () => {
		const before = storedSchemas();
		const body = {
			schemas: {
				billing: { enabled: false },
				public: {
					tables: { customers: { columns: { email: { hashed: false }, ghost: { hashed: true } } } },
				},
			},
		};
		expectError(await call('PATCH', path, { body }), 400, /column 'ghost'/);
		expect(storedSchemas()).toEqual(before);
	});

	test('names with spaces are quoted in messages', async () => {
		const body = {
			schemas: {
				dbo: { tables: { 'Order Details': { columns: { Discount: { hashed: 'yes' } } } } },
			},
		};
		const answer = await call('PATCH', `/integrations/${NORTHWIND}/schemas`, { body });
		expectError(
			answer,
			400,
			/schemas\.dbo\.tables\["Order Details"\]\.columns\.Discount\.hashed must be a boolean/,
		);
	});

	test('an unknown integration is 404', async () => {
		const answer = await call('PATCH', '/integrations/int_missing/schemas', {
			body: { schemas: {} },
		});
		expectError(answer, 404, /integration 'int_missing'/);
	});
});

// ----- Users -----

describe('GET /users', () => {
	test('lists every user: code, message, data.items', async () => {
		const answer = await call<Envelope<{ items: User[] }>>('GET', '/users');
		expect(answer.status).toBe(200);
		expect(answer.body.code).toBe(SUCCESS_CODE);
		expect(typeof answer.body.message).toBe('string');
		const items = answer.body.data!.items;
		expect(items).toEqual([...emulator.store.users.values()]);
		expect(items.length).toBeGreaterThanOrEqual(6);
		for (const user of items) {
			expect(Object.keys(user).sort()).toEqual(['createdAt', 'email', 'id', 'name']);
			expect(user.email).toMatch(/^[^@\s]+@[^@\s]+\.[a-z]+$/);
			expect(user.createdAt).toMatch(ISO_UTC);
		}
	});
});

// ----- Audit log -----

type AuditAnswer = Answer<Envelope<AuditLogPage>>;

async function auditLogs(params: Record<string, string | number> = {}): Promise<AuditAnswer> {
	const query = new URLSearchParams(
		Object.entries(params).map(([key, value]): [string, string] => [key, String(value)]),
	);
	return call<Envelope<AuditLogPage>>('GET', `/audit-logs${query.size ? `?${query}` : ''}`);
}

/** Pages through the whole log with the given page size and order; returns the ids in order. */
async function pageThrough(
	limit: number,
	sortOrder: 'asc' | 'desc',
	extra: Record<string, string> = {},
) {
	const ids: string[] = [];
	for (let offset = 0; ; offset += limit) {
		const page = (await auditLogs({ ...extra, limit, offset, sortOrder })).body.data!;
		ids.push(...page.items.map((entry) => entry.id));
		if (page.items.length < limit) return ids;
	}
}

/** The expected ascending order, computed independently: by instant, then insertion order. */
function expectedAscendingIds(entries: AuditLogEntry[]): string[] {
	return entries
		.map((entry, position) => ({ entry, position }))
		.sort(
			(a, b) =>
				Date.parse(a.entry.timestamp) - Date.parse(b.entry.timestamp) || a.position - b.position,
		)
		.map(({ entry }) => entry.id);
}

describe("GET /audit-logs: the nodes' choices (client/choices.ts) against the emulator's (./choices.ts)", () => {
	// Two sources written apart: the emulator reads only its own, so a name changed on either
	// side fails here.
	test('the query names agree, meaning by meaning', () => {
		expect(nodeChoices.AUDIT_LOG_QUERY).toEqual(AUDIT_LOG_QUERY_NAMES);
	});

	test('the sort field the nodes send is the one the emulator accepts', () => {
		expect([nodeChoices.AUDIT_LOG_SORT_FIELD]).toEqual(AUDIT_LOG_SORT_FIELDS);
	});

	test('the page size the nodes ask at most is the most the emulator allows', () => {
		expect(nodeChoices.AUDIT_LOG_MAX_PAGE_SIZE).toBe(AUDIT_LOG_PAGE_SIZE_MAX);
	});

	test("a request with every one of the nodes' names and values is answered", async () => {
		const n = nodeChoices.AUDIT_LOG_QUERY;
		for (const sortOrder of SORT_ORDERS) {
			const answer = await auditLogs({
				[n.pageSize]: nodeChoices.AUDIT_LOG_MAX_PAGE_SIZE,
				[n.skip]: 0,
				[n.sortField]: nodeChoices.AUDIT_LOG_SORT_FIELD,
				[n.sortDirection]: sortOrder,
				[n.since]: SEED.audit.windowStart,
				[n.until]: SEED.audit.windowEnd,
			});
			// The error's text when refused: it names the parameter.
			expect(answer.status === 200 ? 'answered' : answer.text).toBe('answered');
			expect(answer.body.data!.items).toHaveLength(
				Math.min(nodeChoices.AUDIT_LOG_MAX_PAGE_SIZE, SEED.audit.count),
			);
		}
	});
});

describe('GET /audit-logs', () => {
	const q = AUDIT_LOG_QUERY_NAMES;

	test('defaults: newest first, default page size, totalItems counts everything', async () => {
		const answer = await auditLogs();
		expect(answer.status).toBe(200);
		expect(answer.body.code).toBe(SUCCESS_CODE);
		const page = answer.body.data!;
		expect(page.totalItems).toBe(SEED.audit.count);
		expect(page.items).toHaveLength(AUDIT_LOG_DEFAULT_PAGE_SIZE);
		const expected = expectedAscendingIds(emulator.store.auditEntries).reverse();
		expect(page.items.map((entry) => entry.id)).toEqual(
			expected.slice(0, AUDIT_LOG_DEFAULT_PAGE_SIZE),
		);
		for (const entry of page.items) {
			expect(Object.keys(entry).sort()).toEqual(['actor', 'context', 'event', 'id', 'timestamp']);
			expect(entry.id).toMatch(UUID_V4);
		}
	});

	test(`limit ${AUDIT_LOG_PAGE_SIZE_MAX} is allowed`, async () => {
		const page = (await auditLogs({ [q.pageSize]: AUDIT_LOG_PAGE_SIZE_MAX })).body.data!;
		expect(page.items).toHaveLength(AUDIT_LOG_PAGE_SIZE_MAX);
	});

	test('paging with an odd page size visits every entry once, in order, ties included', async () => {
		const expected = expectedAscendingIds(emulator.store.auditEntries);
		expect(await pageThrough(7, 'asc')).toEqual(expected);
		expect(await pageThrough(7, 'desc')).toEqual([...expected].reverse());
	});

	test('entries sharing one timestamp keep insertion order across page boundaries', async () => {
		const counts = new Map<string, number>();
		for (const entry of emulator.store.auditEntries)
			counts.set(entry.timestamp, (counts.get(entry.timestamp) ?? 0) + 1);
		const [shared] = [...counts].find(([, count]) => count >= 3)!;
		const group = emulator.store.auditEntries
			.filter((entry) => entry.timestamp === shared)
			.map((entry) => entry.id);
		const justAfter = new Date(Date.parse(shared) + 1).toISOString();
		const window = { [q.since]: shared, [q.until]: justAfter };
		expect(await pageThrough(2, 'asc', window)).toEqual(group);
		expect(await pageThrough(2, 'desc', window)).toEqual([...group].reverse());
	});

	test('an offset past the end gives no items but the same totalItems', async () => {
		const page = (await auditLogs({ [q.skip]: 1000 })).body.data!;
		expect(page).toEqual({ totalItems: SEED.audit.count, items: [] });
	});

	describe('time filters (on a log of known entries)', () => {
		const entries = [
			{ timestamp: '2026-10-05T09:59:59.999Z', event: 'before' },
			{ timestamp: '2026-10-05T10:00:00Z', event: 'at, Z without milliseconds' },
			{ timestamp: '2026-10-05T12:00:00.000+02:00', event: 'at, with an offset' },
			{ timestamp: '2026-10-05T10:00:00.001Z', event: 'after' },
		];
		const events = (answer: AuditAnswer) => answer.body.data!.items.map((entry) => entry.event);

		beforeEach(() => {
			emulator.reset({ seed: false });
			emulator.addAuditEntries(entries);
		});

		test('startTime is inclusive and compares instants, not strings', async () => {
			const answer = await auditLogs({
				[q.since]: '2026-10-05T10:00:00.000Z',
				[q.sortDirection]: 'asc',
			});
			expect(events(answer)).toEqual(['at, Z without milliseconds', 'at, with an offset', 'after']);
			expect(answer.body.data!.totalItems).toBe(3);
		});

		test('endTime is exclusive', async () => {
			const answer = await auditLogs({ [q.until]: '2026-10-05T10:00:00Z' });
			expect(events(answer)).toEqual(['before']);
			expect(answer.body.data!.totalItems).toBe(1);
		});

		test('filters accept an offset and sub-millisecond fractions', async () => {
			const answer = await auditLogs({
				[q.since]: '2026-10-05T11:59:59.9995+02:00',
				[q.until]: '2026-10-05T10:00:00.0005Z',
				[q.sortDirection]: 'desc',
			});
			expect(events(answer)).toEqual(['at, with an offset', 'at, Z without milliseconds']);
		});

		test('timestamps come back exactly as stored', async () => {
			const answer = await auditLogs({ [q.sortDirection]: 'asc' });
			expect(answer.body.data!.items.map((entry) => entry.timestamp)).toEqual(
				entries.map((entry) => entry.timestamp),
			);
		});

		test('totalItems counts the filtered entries, not the page', async () => {
			const answer = await auditLogs({
				[q.since]: '2026-10-05T10:00:00Z',
				[q.pageSize]: 1,
				[q.skip]: 1,
			});
			expect(answer.body.data!.totalItems).toBe(3);
			expect(events(answer)).toEqual(['at, with an offset']);
		});
	});

	test.each([
		[q.pageSize, '101'],
		[q.pageSize, '0'],
		[q.pageSize, 'abc'],
		[q.pageSize, '1.5'],
		[q.pageSize, '-1'],
		[q.skip, '-1'],
		[q.skip, 'x'],
		[q.sortField, 'event'],
		[q.sortDirection, 'up'],
		[q.since, '2026-13-01'],
		[q.since, 'yesterday'],
		[q.since, '2026-02-30T00:00:00Z'],
		[q.until, '2026-10-01T00:00:00'],
		[q.until, '2026-10-01T24:00:00Z'],
	])('%s=%s is a 400 naming the parameter', async (name, value) => {
		expectError(await auditLogs({ [name]: value }), 400, new RegExp(`^${name} must`));
	});

	test('sortBy=timestamp is accepted', async () => {
		expect((await auditLogs({ [q.sortField]: 'timestamp' })).status).toBe(200);
	});

	test('an unknown or repeated parameter is a 400', async () => {
		expectError(
			await call('GET', '/audit-logs?pageSize=10'),
			400,
			/unknown query parameter 'pageSize'/,
		);
		expectError(
			await call('GET', '/audit-logs?limit=5&limit=6'),
			400,
			/limit must be given at most once/,
		);
	});
});

// ----- Faults, latency, recording -----

describe('faults', () => {
	test('status: answers with the status, an error body and Retry-After, then lets requests through', async () => {
		emulator.injectFault({
			kind: 'status',
			status: 429,
			retryAfterSeconds: 2,
			message: 'slow down',
		});
		const limited = await call('GET', '/users');
		expect(limited.status).toBe(429);
		expect(limited.headers.get('retry-after')).toBe('2');
		expect(limited.body).toEqual({ code: ERROR_CODES[429], message: 'slow down' });
		expect((await call('GET', '/users')).status).toBe(200);
		expect(emulator.requests).toHaveLength(2);
	});

	test('status without retryAfterSeconds sends no Retry-After', async () => {
		emulator.injectFault({ kind: 'status', status: 500 });
		const answer = await call('GET', '/users');
		expectError(answer, 500, /injected fault/);
		expect(answer.headers.get('retry-after')).toBeNull();
	});

	test('path, method, skip and count select which requests fail', async () => {
		emulator.injectFault({
			kind: 'status',
			status: 503,
			path: '/audit-logs',
			method: 'get',
			skip: 1,
			count: 2,
		});
		const statuses = [];
		for (const path of [
			'/users',
			'/audit-logs',
			'/audit-logs',
			'/users',
			'/audit-logs',
			'/audit-logs',
		]) {
			statuses.push((await call('GET', path)).status);
		}
		expect(statuses).toEqual([200, 200, 503, 200, 503, 200]);
		emulator.injectFault({ kind: 'status', status: 500, method: 'POST' });
		expect((await call('GET', '/users')).status).toBe(200);
	});

	test('drop: the connection closes without an answer', async () => {
		emulator.injectFault({ kind: 'drop', path: '/users' });
		await expect(call('GET', '/users')).rejects.toThrow();
		expect(emulator.requests.map((request) => request.path)).toEqual(['/users']);
		expect((await call('GET', '/users')).status).toBe(200);
	});

	test('malformed: a 200 JSON answer that does not parse', async () => {
		emulator.injectFault({ kind: 'malformed' });
		const response = await fetch(`${emulator.baseUrl}/users`, {
			headers: { 'x-api-key': emulator.apiKey },
		});
		expect(response.status).toBe(200);
		expect(response.headers.get('content-type')).toMatch(/^application\/json/);
		await expect(response.json()).rejects.toThrow(/JSON/);
	});

	test('redirect: the status and Location ({path} the path as sent), before the key check', async () => {
		emulator.injectFault({
			kind: 'redirect',
			status: 308,
			location: 'https://new.example{path}?a=1',
		});
		const moved = await fetch(`${emulator.baseUrl}/users?limit=2`, { redirect: 'manual' });
		expect(moved.status).toBe(308);
		expect(moved.headers.get('location')).toBe('https://new.example/v1/users?a=1');
		emulator.injectFault({ kind: 'redirect' });
		const bare = await fetch(`${emulator.baseUrl}/users`, { redirect: 'manual' });
		expect([bare.status, bare.headers.get('location')]).toEqual([307, null]);
		expect((await call('GET', '/users')).status).toBe(200);
	});

	test('clearFaults removes pending faults', async () => {
		emulator.injectFault({ kind: 'status', status: 500, count: 5 });
		emulator.clearFaults();
		expect((await call('GET', '/users')).status).toBe(200);
	});

	test.each([
		[{ kind: 'explode' }, /kind must be one of/],
		[{ kind: 'status' }, /status must be an integer from 400 to 599/],
		[{ kind: 'status', status: 200 }, /status must be/],
		[{ kind: 'drop', count: 0 }, /count must be/],
		[{ kind: 'drop', path: 'users' }, /path must be a string starting with/],
		[{ kind: 'drop', after: 1 }, /fault fields are/],
		[{ kind: 'redirect', status: 404 }, /status of a redirect must be an integer from 300 to 399/],
		[{ kind: 'redirect', location: 7 }, /location must be a string/],
	])('an invalid fault %j is refused', (fault, message) => {
		expect(() => emulator.injectFault(fault as never)).toThrow(message);
	});
});

describe('chosen answers', () => {
	test('a matching request gets the chosen status and body, after the key check, then the operation answers again', async () => {
		emulator.answerWith({ path: '/users', body: { code: SUCCESS_CODE } });
		expect((await call('GET', '/users', { apiKey: 'wrong' })).status).toBe(401);
		const chosen = await call('GET', '/users');
		expect(chosen.status).toBe(200);
		expect(chosen.body).toEqual({ code: SUCCESS_CODE });
		expect((await call('GET', '/users')).body).toMatchObject({
			data: { items: expect.any(Array) },
		});
		expect(emulator.requests.map((request) => request.path)).toEqual([
			'/users',
			'/users',
			'/users',
		]);
	});

	test('method, path and count select requests; answers are used in the order given', async () => {
		emulator.answerWith({ method: 'post', path: '/tags', body: 'first', count: 2 });
		emulator.answerWith({ path: '/tags', body: [1, 2], status: 202 });
		expect((await call('GET', '/users')).body).toMatchObject({ code: SUCCESS_CODE });
		const bodies = [];
		for (let i = 0; i < 3; i++) {
			const answer = await call('POST', '/tags', { body: {} });
			bodies.push([answer.status, answer.body]);
		}
		expect(bodies).toEqual([
			[200, 'first'],
			[200, 'first'],
			[202, [1, 2]],
		]);
		expect((await call('POST', '/tags', { body: {} })).status).toBe(400);
	});

	test('reset clears chosen answers', async () => {
		emulator.answerWith({ body: null, count: 3 });
		emulator.reset();
		expect((await call('GET', '/users')).body).toMatchObject({
			data: { items: expect.any(Array) },
		});
	});

	test.each([
		[{}, /with a body/],
		[{ body: 1, status: 99 }, /status must be an integer from 200 to 599/],
		[{ body: 1, count: 0 }, /count must be/],
		[{ body: 1, path: 'users' }, /path must be a string starting with/],
		[{ body: 1, method: 1 }, /method must be a string/],
	])('an invalid answer %j is refused', (answer, message) => {
		expect(() => emulator.answerWith(answer as never)).toThrow(message);
	});
});

describe('latency', () => {
	test('setLatency delays every /v1 answer; reset removes it', async () => {
		const timed = async () => {
			const start = performance.now();
			await call('GET', '/users');
			return performance.now() - start;
		};
		emulator.setLatency(600);
		expect(await timed()).toBeGreaterThanOrEqual(590);
		emulator.reset();
		expect(await timed()).toBeLessThan(300);
	});
});

describe('holds in transit', () => {
	test('a held request is acted on after a request sent later to the same record', async () => {
		const path = `/tags/${SEED.tags.gdpr}`;
		emulator.holdInTransit({ method: 'PUT', path, ms: 200 });
		const firstArrived = new Promise<void>((resolve) => {
			const unhook = onRequestArrival(emulator, () => {
				unhook();
				resolve();
			});
		});
		const first = call('PUT', path, { body: { name: 'first' } });
		// Sent once the first is on its way, acted on while it is held.
		await firstArrived;
		const second = await call('PUT', path, { body: { name: 'second' } });
		expect(second.status).toBe(200);
		expect(emulator.store.tags.get(SEED.tags.gdpr)?.name).toBe('second');
		expect((await first).status).toBe(200);
		expect(emulator.store.tags.get(SEED.tags.gdpr)?.name).toBe('first');
	});

	test('holds only the requests it matches, as many as its count', async () => {
		emulator.holdInTransit({ method: 'GET', path: '/users', ms: 600, count: 1 });
		const timed = async (path: string) => {
			const start = performance.now();
			await call('GET', path);
			return performance.now() - start;
		};
		expect(await timed(`/integrations/${SEED.integrations.ordersToSnowflake}`)).toBeLessThan(300);
		expect(await timed('/users')).toBeGreaterThanOrEqual(590);
		expect(await timed('/users')).toBeLessThan(300);
	});

	test('POST /holds arms one over HTTP; reset forgets those not used', async () => {
		expect((await control('POST', '/holds', { path: '/users', ms: 5000 })).status).toBe(201);
		emulator.reset();
		const start = performance.now();
		await call('GET', '/users');
		expect(performance.now() - start).toBeLessThan(1000);
	});

	test.each([
		[{}, /ms must be an integer from 1 to 60000/],
		[{ ms: 0 }, /ms must be/],
		[{ ms: 100, path: 'tags' }, /path must be a string starting with/],
		[{ ms: 100, until: 'later' }, /hold fields are ms, count, skip, method, path/],
	])('an invalid hold %j is refused', (hold, message) => {
		expect(() => emulator.holdInTransit(hold as never)).toThrow(message);
	});
});

describe("the service's clock", () => {
	test('setClockOffset moves the Date header of every /v1 answer; reset puts it back', async () => {
		const dateSaid = async () =>
			Date.parse(String((await call('GET', '/users')).headers.get('date')));
		emulator.setClockOffset(-3600_000);
		expect(Math.abs(Date.now() - 3600_000 - (await dateSaid()))).toBeLessThan(2000);
		emulator.reset();
		expect(Math.abs(Date.now() - (await dateSaid()))).toBeLessThan(2000);
	});

	test('setDateHeader(false) leaves the Date header out; reset puts it back', async () => {
		emulator.setDateHeader(false);
		expect((await call('GET', '/users')).headers.get('date')).toBeNull();
		emulator.reset();
		expect((await call('GET', '/users')).headers.get('date')).not.toBeNull();
	});
});

describe('recorded requests', () => {
	test('records method, relative path, query, lowercased headers and parsed body, rejected ones too', async () => {
		await call('POST', '/tags', {
			body: { name: 'Sales', owner: SEED.users.maya },
			headers: { 'X-Trace': 'abc' },
		});
		await call('GET', '/audit-logs?limit=5&sortOrder=asc', { apiKey: 'wrong' });
		await call('PUT', `/tags/${SEED.tags.gdpr}`, { rawBody: '{broken' });
		expect(emulator.requests).toMatchObject([
			{ method: 'POST', path: '/tags', query: {}, body: { name: 'Sales', owner: SEED.users.maya } },
			{
				method: 'GET',
				path: '/audit-logs',
				query: { limit: '5', sortOrder: 'asc' },
				body: undefined,
			},
			{ method: 'PUT', path: `/tags/${SEED.tags.gdpr}`, body: undefined },
		]);
		expect(emulator.requests[0].headers['x-trace']).toBe('abc');
		expect(emulator.requests[0].headers['x-api-key']).toBe(emulator.apiKey);
		expect(emulator.requests[1].headers['x-api-key']).toBe('wrong');
	});

	test('clearRequests empties the log', async () => {
		await call('GET', '/users');
		emulator.clearRequests();
		expect(emulator.requests).toEqual([]);
	});
});

// ----- Control endpoints and reset -----

describe('control endpoints', () => {
	test('need no key and are not recorded', async () => {
		expect((await control('GET', '/requests')).status).toBe(200);
		expect(emulator.requests).toEqual([]);
	});

	test('POST /reset with seed false empties the state; without a body re-seeds it', async () => {
		expect(await control('POST', '/reset', { seed: false })).toEqual({
			status: 200,
			body: { reset: true },
		});
		expect((await call<Envelope<{ items: User[] }>>('GET', '/users')).body.data!.items).toEqual([]);
		expect(emulator.store.integrations.size).toBe(0);
		await control('POST', '/reset');
		expect(emulator.store.users.size).toBeGreaterThanOrEqual(6);
		expect((await control('POST', '/reset', { seed: 'no' })).status).toBe(400);
	});

	test('POST /audit-logs adds entries that the API then lists', async () => {
		const added = await control('POST', '/audit-logs', {
			entries: [{ timestamp: '2026-11-02T08:00:00+01:00', event: 'Tag created' }],
		});
		expect(added.status).toBe(200);
		const [entry] = added.body.entries as AuditLogEntry[];
		expect(entry).toMatchObject({ timestamp: '2026-11-02T08:00:00+01:00', event: 'Tag created' });
		expect(entry.id).toMatch(UUID_V4);
		expect(entry.actor).toEqual({ type: expect.any(String), email: expect.any(String) });
		expect(entry.context).toEqual({ ipAddress: expect.any(String), userAgent: expect.any(String) });
		const newest = (await auditLogs({ [AUDIT_LOG_QUERY_NAMES.pageSize]: 1 })).body.data!.items;
		expect(newest).toEqual([entry]);
		expect(
			(await control('POST', '/audit-logs', { entries: [{ timestamp: 'tomorrow' }] })).status,
		).toBe(400);
		expect((await control('POST', '/audit-logs', { entries: 'x' })).status).toBe(400);
	});

	test('GET /requests lists /v1 requests with the key redacted; DELETE clears them', async () => {
		await call('GET', '/users');
		const listed = await control('GET', '/requests');
		expect(listed.body.requests).toHaveLength(1);
		expect(listed.body.requests[0]).toMatchObject({ method: 'GET', path: '/users' });
		expect(JSON.stringify(listed.body)).not.toContain(emulator.apiKey);
		expect((await control('DELETE', '/requests')).status).toBe(204);
		expect(emulator.requests).toEqual([]);
	});

	test('POST /faults injects, DELETE /faults clears, a bad spec is a 400', async () => {
		expect(
			(await control('POST', '/faults', { kind: 'status', status: 502, count: 2 })).status,
		).toBe(201);
		expect((await call('GET', '/users')).status).toBe(502);
		expect((await control('DELETE', '/faults')).status).toBe(204);
		expect((await call('GET', '/users')).status).toBe(200);
		expect(await control('POST', '/faults', { kind: 'status' })).toMatchObject({
			status: 400,
			body: { code: ERROR_CODES[400], message: expect.stringMatching(/status must be/) },
		});
	});

	test('POST /answers adds a chosen answer, DELETE /answers clears them, a bad one is a 400', async () => {
		expect(
			(await control('POST', '/answers', { body: { code: SUCCESS_CODE }, count: 2 })).status,
		).toBe(201);
		expect((await call('GET', '/users')).body).toEqual({ code: SUCCESS_CODE });
		expect((await control('DELETE', '/answers')).status).toBe(204);
		expect((await call('GET', '/users')).body).toMatchObject({ data: expect.any(Object) });
		expect((await control('POST', '/answers', { status: 200 })).status).toBe(400);
	});

	test('PUT /latency sets the delay; a bad value is a 400', async () => {
		expect(await control('PUT', '/latency', { ms: 120 })).toEqual({
			status: 200,
			body: { ms: 120 },
		});
		const start = performance.now();
		await call('GET', '/users');
		expect(performance.now() - start).toBeGreaterThanOrEqual(110);
		expect((await control('PUT', '/latency', { ms: -1 })).status).toBe(400);
	});

	test('an unknown control path is a 404', async () => {
		expect((await control('GET', '/nothing')).status).toBe(404);
	});
});

describe('reset()', () => {
	test('restores the seed, clears requests and faults, keeps the same store object', async () => {
		const store = emulator.store;
		await call('PUT', `/tags/${SEED.tags.pii}`, { body: { name: 'Changed' } });
		emulator.injectFault({ kind: 'status', status: 500 });
		emulator.reset();
		expect(emulator.store).toBe(store);
		expect(store.tags.get(SEED.tags.pii)?.name).toBe('PII');
		expect(emulator.requests).toEqual([]);
		expect((await call('GET', '/users')).status).toBe(200);
	});

	test('cuts a request that arrived before it (its client gone): it takes no fault set after the reset and changes nothing', async () => {
		emulator.setLatency(300);
		const arrived = new Promise<void>((resolve) => {
			const unhook = onRequestArrival(emulator, () => {
				unhook();
				resolve();
			});
		});
		const stale = call('POST', '/tags', { body: { name: 'Stale', owner: SEED.users.maya } });
		await arrived;
		// Reset while it waits out the latency, as a test ends after its client gave up.
		await sleep(100);
		emulator.reset();
		emulator.injectFault({ kind: 'status', status: 503, path: '/tags' });
		await expect(stale).rejects.toThrow();
		expect([...emulator.store.tags.values()].map((tag) => tag.name)).not.toContain('Stale');
		const fresh = await call('POST', '/tags', { body: { name: 'Fresh', owner: SEED.users.maya } });
		expect(fresh.status).toBe(503);
	});

	test('reset({ seed: false }) leaves every collection empty', () => {
		emulator.reset({ seed: false });
		const { users, tags, tagRelations, assets, connectors, integrations, schemas, auditEntries } =
			emulator.store;
		for (const collection of [
			users,
			tags,
			tagRelations,
			assets,
			connectors,
			integrations,
			schemas,
		]) {
			expect(collection.size).toBe(0);
		}
		expect(auditEntries).toEqual([]);
	});
});

// ----- Seed data -----

describe('seed', () => {
	test('is deterministic', () => {
		const [first, second] = [new Store(), new Store()];
		seedStore(first);
		seedStore(second);
		expect(first).toEqual(second);
		expect(first.auditEntries.map((entry) => entry.id)).toEqual(
			emulator.store.auditEntries.map((entry) => entry.id),
		);
	});

	test('has users, owned tags with relations, and 3 integrations with 2+ schemas each', () => {
		const { users, tags, tagRelations, integrations, schemas } = emulator.store;
		expect(users.size).toBeGreaterThanOrEqual(6);
		for (const id of users.keys()) expect(id).toMatch(/^usr_/);
		for (const tag of tags.values()) expect(users.has(tag.owner)).toBe(true);
		expect([...tagRelations.values()].flat().length).toBeGreaterThanOrEqual(3);
		expect(integrations.size).toBe(3);
		for (const id of integrations.keys())
			expect(Object.keys(schemas.get(id)!).length).toBeGreaterThanOrEqual(2);
	});

	test('columns include primary keys, hashed and disabled ones', () => {
		const columns = [...emulator.store.schemas.values()]
			.flatMap((config) => Object.values(config))
			.flatMap((schema) => Object.values(schema.tables))
			.flatMap((table) => Object.values(table.columns));
		expect(columns.some((column) => column.isPrimaryKey)).toBe(true);
		expect(columns.some((column) => column.hashed)).toBe(true);
		expect(columns.some((column) => !column.enabled)).toBe(true);
	});

	test('audit log: UUID v4 ids, the fixed window, varied actors, groups sharing a timestamp', () => {
		const entries = emulator.store.auditEntries;
		expect(entries).toHaveLength(SEED.audit.count);
		expect(new Set(entries.map((entry) => entry.id)).size).toBe(entries.length);
		for (const entry of entries) {
			expect(entry.id).toMatch(UUID_V4);
			expect(
				entry.timestamp >= SEED.audit.windowStart && entry.timestamp < SEED.audit.windowEnd,
			).toBe(true);
		}
		expect(new Set(entries.map((entry) => entry.actor.type))).toEqual(
			new Set(['user', 'api_key', 'system']),
		);
		expect(new Set(entries.map((entry) => entry.event)).size).toBeGreaterThanOrEqual(10);
		const groupSizes = new Map<string, number>();
		for (const entry of entries)
			groupSizes.set(entry.timestamp, (groupSizes.get(entry.timestamp) ?? 0) + 1);
		const shared = [...groupSizes.values()].filter((size) => size > 1);
		expect(shared.length).toBeGreaterThanOrEqual(5);
		for (const size of shared) {
			expect(size).toBeGreaterThanOrEqual(3);
			expect(size).toBeLessThanOrEqual(7);
		}
	});
});
