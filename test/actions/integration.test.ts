import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { SchemasConfig } from '../../nodes/DataIntegrationManagement/client/types';
import { SEED } from '../emulator';
import { SUCCESS_CODE } from '../emulator/choices';
import { useEmulator } from '../helpers/emulator';
import { runActionNode } from '../helpers/n8n';
import { rl, sent } from './support';

const { emulator, credentials } = useEmulator();

const ORDERS = SEED.integrations.ordersToSnowflake;

const run = (parameters: INodeParameters, items?: IDataObject[]) =>
	runActionNode({
		credentials: credentials(),
		parameters: { resource: 'integration', ...parameters },
		items,
	});

const storedSchemas = (): SchemasConfig => structuredClone(emulator().store.schemas.get(ORDERS)!);

describe('integration get', () => {
	it('returns the integration unwrapped from data.integration', async () => {
		const result = await run({ operation: 'get', integrationId: SEED.integrations.shopToBigQuery });

		expect(sent(emulator())).toEqual([
			{
				method: 'GET',
				path: `/integrations/${SEED.integrations.shopToBigQuery}`,
				query: {},
				body: undefined,
			},
		]);
		expect(result.items).toEqual([
			{
				json: emulator().store.integrations.get(SEED.integrations.shopToBigQuery),
				pairedItem: { item: 0 },
			},
		]);
		expect(result.items[0].json).toMatchObject({ paused: true, name: 'Shop MySQL to BigQuery' });
	});

	it('gets one integration per input item', async () => {
		const result = await run({ operation: 'get', integrationId: ORDERS }, [{}, {}]);

		expect(emulator().requests).toHaveLength(2);
		expect(result.items.map((item) => [item.json.id, item.pairedItem])).toEqual([
			[ORDERS, { item: 0 }],
			[ORDERS, { item: 1 }],
		]);
	});
});

describe('integration getSchemas', () => {
	it('returns one item per column by default, as Get Columns does', async () => {
		const result = await run({ operation: 'getSchemas', integrationId: ORDERS });

		expect(sent(emulator())).toEqual([
			{ method: 'GET', path: `/integrations/${ORDERS}/schemas`, query: {}, body: undefined },
		]);
		const columns = Object.entries(storedSchemas()).flatMap(([schema, { tables }]) =>
			Object.entries(tables).flatMap(([table, { columns: byName }]) =>
				Object.entries(byName).map(([column, entry]) => ({ schema, table, column, ...entry })),
			),
		);
		expect(result.items.map((item) => item.json)).toEqual(columns);
		expect(
			result.items.every(({ pairedItem }) => (pairedItem as { item: number }).item === 0),
		).toBe(true);
	});

	it('returns one item holding the schemas map with output raw', async () => {
		const result = await run({
			operation: 'getSchemas',
			integrationId: ORDERS,
			options: { output: 'raw' },
		});

		expect(result.items).toEqual([{ json: { schemas: storedSchemas() }, pairedItem: { item: 0 } }]);
	});

	it('returns one item per schema, without the nested tables', async () => {
		const result = await run({
			operation: 'getSchemas',
			integrationId: ORDERS,
			options: { output: 'schemas' },
		});

		expect(result.items.map((item) => item.json)).toEqual([
			{ schema: 'public', nameInDestination: 'orders_public', enabled: true },
			{ schema: 'billing', nameInDestination: 'orders_billing', enabled: true },
			{ schema: 'audit', nameInDestination: 'orders_audit', enabled: false },
		]);
		expect(result.items.every((item) => (item.pairedItem as { item: number }).item === 0)).toBe(
			true,
		);
	});

	it('returns one item per table, naming its schema', async () => {
		const result = await run({
			operation: 'getSchemas',
			integrationId: ORDERS,
			options: { output: 'tables' },
		});

		expect(result.items.map((item) => `${item.json.schema}.${item.json.table}`)).toEqual([
			'public.customers',
			'public.orders',
			'public.order_items',
			'public.payments',
			'billing.invoices',
			'billing.refunds',
			'billing.tax_rates',
			'audit.row_changes',
		]);
		expect(result.items.find((item) => item.json.table === 'tax_rates')?.json).toEqual({
			schema: 'billing',
			table: 'tax_rates',
			nameInDestination: 'tax_rates',
			enabled: false,
			syncMode: 'full_refresh',
		});
		expect(result.items.some((item) => 'columns' in item.json)).toBe(false);
	});

	it('returns one item per column, naming its schema and table', async () => {
		const result = await run({
			operation: 'getSchemas',
			integrationId: ORDERS,
			options: { output: 'columns' },
		});

		const schemas = storedSchemas();
		const expectedCount = Object.values(schemas).reduce(
			(sum, schema) =>
				sum +
				Object.values(schema.tables).reduce((n, table) => n + Object.keys(table.columns).length, 0),
			0,
		);
		expect(result.items).toHaveLength(expectedCount);
		expect(
			result.items.find(
				(item) => item.json.table === SEED.table && item.json.column === SEED.hashedColumn,
			)?.json,
		).toEqual({
			schema: SEED.schema,
			table: SEED.table,
			column: SEED.hashedColumn,
			nameInDestination: 'email',
			enabled: true,
			hashed: true,
			isPrimaryKey: false,
		});
	});

	describe('a schema without tables and a table without columns, as the service may answer', () => {
		const schemas = {
			bare: { nameInDestination: 'bare', enabled: true },
			public: { enabled: false, tables: { orders: { enabled: true, syncMode: 'full_refresh' } } },
		};
		beforeEach(() => {
			emulator().answerWith({ body: { code: SUCCESS_CODE, data: { schemas } } });
		});

		it.each([
			[
				'compact',
				[
					{
						schemas: {
							bare: { enabled: true },
							public: { enabled: false, tables: { orders: { enabled: true } } },
						},
					},
				],
			],
			['raw', [{ schemas }]],
			[
				'schemas',
				[
					{ schema: 'bare', nameInDestination: 'bare', enabled: true },
					{ schema: 'public', enabled: false },
				],
			],
			['tables', [{ schema: 'public', table: 'orders', enabled: true, syncMode: 'full_refresh' }]],
			['columns', []],
		])('output %s renders them', async (output, expected) => {
			const result = await run({
				operation: 'getSchemas',
				integrationId: ORDERS,
				options: { output },
			});

			expect(result.error).toBeUndefined();
			expect(result.items.map((item) => item.json)).toEqual(expected);
		});
	});

	it('reports an unknown integration as a 404', async () => {
		const result = await run({ operation: 'getSchemas', integrationId: 'int_nope' });

		expect(result.error).toMatchObject({
			name: 'NodeApiError',
			httpCode: '404',
			context: { itemIndex: 0 },
		});
	});
});

describe('integration updateSchemas (list of changes)', () => {
	it("takes a change's schema, table and column as picked from a list or given by name, or as plain text", async () => {
		type Name = string | ReturnType<typeof rl>;
		const change = (schema: Name, table: Name, column: Name) => ({
			level: 'column',
			schema,
			table,
			column,
			hashed: 'hash',
		});
		const body = {
			schemas: { public: { tables: { customers: { columns: { country: { hashed: true } } } } } },
		};
		await run({
			operation: 'updateSchemas',
			integrationId: ORDERS,
			changes: {
				change: [change(rl('list', 'public'), rl('name', 'customers'), rl('list', ' country '))],
			},
		});
		const plain = await run({
			operation: 'updateSchemas',
			integrationId: ORDERS,
			changes: { change: [change('public', 'customers', 'country')] },
		});
		expect(plain.error).toBeUndefined();
		expect(sent(emulator()).map((request) => request.body)).toEqual([body, body]);
	});

	it('sends one PATCH carrying only the touched entries, nested as the request shape', async () => {
		const result = await run({
			operation: 'updateSchemas',
			integrationId: ORDERS,
			changes: {
				change: [
					{ level: 'schema', schema: 'audit', enabled: 'enable' },
					{ level: 'table', schema: 'billing', table: 'tax_rates', enabled: 'enable' },
					{
						level: 'column',
						schema: 'public',
						table: 'customers',
						column: 'full_name',
						enabled: 'keep',
						hashed: 'hash',
					},
					{
						level: 'column',
						schema: 'public',
						table: 'customers',
						column: 'internal_notes',
						enabled: 'enable',
						hashed: 'unhash',
					},
					{ level: 'table', schema: 'public', table: 'payments', enabled: 'disable' },
				],
			},
		});

		expect(sent(emulator())).toEqual([
			{
				method: 'PATCH',
				path: `/integrations/${ORDERS}/schemas`,
				query: {},
				body: {
					schemas: {
						audit: { enabled: true },
						billing: { tables: { tax_rates: { enabled: true } } },
						public: {
							tables: {
								customers: {
									columns: {
										full_name: { hashed: true },
										internal_notes: { enabled: true, hashed: false },
									},
								},
								payments: { enabled: false },
							},
						},
					},
				},
			},
		]);
		const stored = storedSchemas();
		expect(stored.audit.enabled).toBe(true);
		expect(stored.billing.tables.tax_rates.enabled).toBe(true);
		expect(stored.public.tables.customers.columns.full_name).toMatchObject({
			enabled: true,
			hashed: true,
		});
		expect(stored.public.tables.payments.enabled).toBe(false);
		expect(result.items).toEqual([{ json: { schemas: stored }, pairedItem: { item: 0 } }]);
	});

	it('leaves both flags unchanged by default, so a hash-only change sends only hashed', async () => {
		await run({
			operation: 'updateSchemas',
			integrationId: ORDERS,
			changes: {
				change: [
					{
						level: 'column',
						schema: 'public',
						table: 'customers',
						column: 'internal_notes',
						hashed: 'hash',
					},
				],
			},
		});

		expect(sent(emulator())[0].body).toEqual({
			schemas: {
				public: { tables: { customers: { columns: { internal_notes: { hashed: true } } } } },
			},
		});
		expect(storedSchemas().public.tables.customers.columns.internal_notes).toMatchObject({
			enabled: false,
			hashed: true,
		});
	});

	it('refuses a change left at the defaults (Level: table, nothing set) without a request', async () => {
		const result = await run({
			operation: 'updateSchemas',
			integrationId: ORDERS,
			changes: { change: [{ schema: 'billing', table: 'tax_rates' }] },
		});

		expect(result.error?.message).toContain(
			'change 1 sets neither Enabled nor, for a column, Hashed',
		);
		expect(sent(emulator())).toEqual([]);
	});

	it.each([
		[
			'a column change without its table',
			[{ level: 'column', schema: 'public', column: 'email', hashed: 'hash' }],
			'The changes cannot be sent (item 0): change 1 (column) needs its table name',
		],
		[
			'a table change with only Hashed, left from the column level (a table has none)',
			[{ level: 'table', schema: 'public', table: 'orders', hashed: 'hash' }],
			'The changes cannot be sent (item 0): change 1 sets neither Enabled nor, for a column, Hashed',
		],
		[
			'two changes that disagree',
			[
				{ level: 'table', schema: 'public', table: 'orders', enabled: 'disable' },
				{ level: 'table', schema: 'public', table: 'orders', enabled: 'enable' },
			],
			'change 2 sets Enabled of public.orders to Enable, but change 1 set it to Disable',
		],
		[
			'two column changes that disagree on Hashed',
			[
				{ level: 'column', schema: 'public', table: 'orders', column: 'email', hashed: 'hash' },
				{ level: 'column', schema: 'public', table: 'orders', column: 'email', hashed: 'unhash' },
			],
			'change 2 sets Hashed of public.orders.email to Unhash, but change 1 set it to Hash',
		],
		[
			'a third change that disagrees with the first, the second agreeing: the first named',
			[
				{ level: 'schema', schema: 'public', enabled: 'enable' },
				{ level: 'schema', schema: 'public', enabled: 'enable' },
				{ level: 'table', schema: 'public', table: 'orders', enabled: 'enable' },
				{ level: 'schema', schema: 'public', enabled: 'disable' },
			],
			'change 4 sets Enabled of public to Disable, but change 1 set it to Enable',
		],
	])('fails before any request on %s', async (_label, change, problem) => {
		const result = await run({
			operation: 'updateSchemas',
			integrationId: ORDERS,
			changes: { change },
		});

		expect(result.error).toMatchObject({ name: 'NodeOperationError', context: { itemIndex: 0 } });
		expect(result.error?.message).toContain(problem);
		expect(emulator().requests).toHaveLength(0);
	});

	it('fails before any request when there is no change at all', async () => {
		const result = await run({ operation: 'updateSchemas', integrationId: ORDERS, changes: {} });

		expect(result.error?.message).toBe('Add at least one change under "Changes" (item 0)');
		expect(emulator().requests).toHaveLength(0);
	});

	it("reports a name the service does not know as the API's 400, leaving the configuration as it was", async () => {
		const before = storedSchemas();
		const result = await run({
			operation: 'updateSchemas',
			integrationId: ORDERS,
			changes: {
				change: [{ level: 'table', schema: 'public', table: 'nope', enabled: 'disable' }],
			},
		});

		expect(result.error).toMatchObject({
			name: 'NodeApiError',
			httpCode: '400',
			context: { itemIndex: 0 },
		});
		expect(result.error?.message).toBe(
			"table 'nope' does not exist in schema 'public' [BAD_REQUEST]",
		);
		expect(storedSchemas()).toEqual(before);
	});
});

describe('integration updateSchemas (JSON)', () => {
	const patch = {
		public: { tables: { orders: { enabled: false, columns: { status: { hashed: true } } } } },
	};

	it.each([
		['JSON, an unknown integration', 'json', 'int_nope', undefined, 'Schemas'],
		[
			"List of Changes, a service's 404 for a table",
			'changes',
			ORDERS,
			"table 'ordrs' does not exist",
			'Changes',
		],
	])('%s: the 404 names the Integration ID, then the schemas sent', async (...test) => {
		const [, updateMode, integrationId, message, field] = test;
		if (message) emulator().injectFault({ kind: 'status', status: 404, message });
		const change = { level: 'table', schema: 'public', table: 'ordrs', enabled: 'disable' };
		const result = await run({
			operation: 'updateSchemas',
			integrationId,
			updateMode,
			...(updateMode === 'json' ? { schemas: patch } : { changes: { change: [change] } }),
		});

		expect(result.error).toMatchObject({ httpCode: '404', context: { itemIndex: 0 } });
		expect(result.error?.description).toBe(
			`The service found nothing for Integration ID "${integrationId}". Check that the Integration ID names one that exists, and that the Base URL in the credential is the API's address, ending in /v1. If both are right, check that each schema, table and column in ${field} exists in the integration (Get Schemas lists them).`,
		);
	});

	it.each([
		['an object', patch],
		['JSON text', JSON.stringify(patch)],
	])(
		"sends the schemas given as %s and outputs the response's schemas",
		async (_label, schemas) => {
			const result = await run({
				operation: 'updateSchemas',
				integrationId: ORDERS,
				updateMode: 'json',
				schemas,
			});

			expect(sent(emulator())).toEqual([
				{
					method: 'PATCH',
					path: `/integrations/${ORDERS}/schemas`,
					query: {},
					body: { schemas: patch },
				},
			]);
			const stored = storedSchemas();
			expect(stored.public.tables.orders.enabled).toBe(false);
			expect(stored.public.tables.orders.columns.status.hashed).toBe(true);
			expect(result.items).toEqual([{ json: { schemas: stored }, pairedItem: { item: 0 } }]);
		},
	);

	it.each([
		[
			'a read-only field',
			{ public: { nameInDestination: 'x' } },
			'public.nameInDestination cannot be set',
		],
		[
			'hashed on a table',
			{ public: { tables: { orders: { hashed: true } } } },
			'public.tables.orders.hashed cannot be set',
		],
		[
			'a flag that is not a boolean',
			{ public: { enabled: 'yes' } },
			'public.enabled must be true or false',
		],
		[
			'tables that are not an object',
			{ public: { tables: ['orders'] } },
			'public.tables must be an object of table names',
		],
		// A change of nothing: the service would answer as if a change were made.
		['no schema', {}, 'Schemas names no schema'],
		[
			'a schema that sets nothing',
			{ public: {} },
			'public sets nothing (a schema accepts enabled, tables)',
		],
		[
			'a schema whose tables set nothing',
			{ public: { tables: {} } },
			'public sets nothing (a schema accepts enabled, tables)',
		],
		[
			'a column that sets nothing',
			{ public: { tables: { orders: { columns: { status: {} } } } } },
			'public.tables.orders.columns.status sets nothing (a column accepts enabled, hashed)',
		],
	])('rejects %s before any request', async (_label, schemas, problem) => {
		const result = await run({
			operation: 'updateSchemas',
			integrationId: ORDERS,
			updateMode: 'json',
			schemas,
		});

		expect(result.error).toMatchObject({ name: 'NodeOperationError', context: { itemIndex: 0 } });
		expect(result.error?.message).toMatch(
			/^The field "Schemas" is not a valid schema update \(item 0\)/,
		);
		expect(result.error?.message).toContain(problem);
		expect(emulator().requests).toHaveLength(0);
	});

	it('sends a flag beside an empty map, as Get Schemas in Compact gives a table without columns', async () => {
		const schemas = {
			public: { enabled: true, tables: { orders: { enabled: true, columns: {} } } },
		};
		const result = await run({
			operation: 'updateSchemas',
			integrationId: ORDERS,
			updateMode: 'json',
			schemas,
		});
		expect(result.error).toBeUndefined();
		expect(sent(emulator()).map(({ body }) => body)).toEqual([{ schemas }]);
	});

	it.each([
		['text that is not JSON', '{"public": ', /^The field "Schemas" is not valid JSON \(item 0\)/],
		['a JSON array', '[]', /^The field "Schemas" must be a JSON object \(item 0\)/],
	])('rejects %s before any request', async (_label, schemas, message) => {
		const result = await run({
			operation: 'updateSchemas',
			integrationId: ORDERS,
			updateMode: 'json',
			schemas,
		});

		expect(result.error?.message).toMatch(message);
		// The field's own example, not another field's.
		expect(result.error?.description).toMatch(/, e\.g\. \{"public": \{"enabled": true, "tables"/);
		expect(emulator().requests).toHaveLength(0);
	});

	it("Get Schemas' whole item given in the tool form: says to give its schemas field, with no expression", async () => {
		const { error } = await runActionNode({
			credentials: credentials(),
			parameters: {
				resource: 'integration',
				operation: 'updateSchemas',
				integrationId: ORDERS,
				updateMode: 'json',
				schemas: { schemas: { public: { enabled: true } } },
			},
			asTool: true,
		});

		expect(error?.description).toMatch(
			/ Give only the value of the "schemas" field of what Get Schemas answered\.$/,
		);
		expect(emulator().requests).toHaveLength(0);
	});

	it("Get Schemas' whole item given as the map: says to give its schemas field", async () => {
		const wrapped = { schemas: { public: { enabled: true } } };
		const result = await run({
			operation: 'updateSchemas',
			integrationId: ORDERS,
			updateMode: 'json',
			schemas: wrapped,
		});

		expect(result.error?.message).toMatch(/^The field "Schemas" is not a valid schema update/);
		expect(result.error?.description).toMatch(
			/ To give Get Schemas' output, set its Options → Output to Compact and give \{\{ \$json\.schemas \}\}\.$/,
		);
		const plain = await run({
			operation: 'updateSchemas',
			integrationId: ORDERS,
			updateMode: 'json',
			schemas: { public: { hashed: true } },
		});
		expect(plain.error?.description).not.toMatch(/json\.schemas/);
		expect(emulator().requests).toHaveLength(0);
	});

	it('sends one PATCH per input item', async () => {
		const result = await run(
			{
				operation: 'updateSchemas',
				integrationId: ORDERS,
				updateMode: 'json',
				schemas: { audit: { enabled: true } },
			},
			[{}, {}],
		);

		expect(sent(emulator()).map((request) => request.body)).toEqual([
			{ schemas: { audit: { enabled: true } } },
			{ schemas: { audit: { enabled: true } } },
		]);
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
	});
});

describe('integration getColumns', () => {
	const columnsPath = `/integrations/${ORDERS}/schemas/${SEED.schema}/tables/${SEED.table}/columns`;

	it.each([
		['list-mode locators', rl('list', SEED.schema), rl('list', SEED.table)],
		['by-name locators', rl('name', SEED.schema), rl('name', SEED.table)],
		['plain strings', SEED.schema, SEED.table],
	])('returns one item per column from %s', async (_label, schema, table) => {
		const result = await run({ operation: 'getColumns', integrationId: ORDERS, schema, table });

		expect(sent(emulator())).toEqual([
			{ method: 'GET', path: columnsPath, query: {}, body: undefined },
		]);
		const columns = storedSchemas()[SEED.schema].tables[SEED.table].columns;
		expect(result.items.map((item) => item.json.column)).toEqual(Object.keys(columns));
		expect(result.items.find((item) => item.json.column === SEED.primaryKeyColumn)).toEqual({
			json: {
				schema: SEED.schema,
				table: SEED.table,
				column: SEED.primaryKeyColumn,
				...columns[SEED.primaryKeyColumn],
			},
			pairedItem: { item: 0 },
		});
	});

	it('returns one item holding the columns map with output raw', async () => {
		const result = await run({
			operation: 'getColumns',
			integrationId: ORDERS,
			schema: rl('list', SEED.schema),
			table: rl('list', SEED.table),
			options: { output: 'raw' },
		});

		expect(result.items).toEqual([
			{
				json: { columns: storedSchemas()[SEED.schema].tables[SEED.table].columns },
				pairedItem: { item: 0 },
			},
		]);
	});

	it('encodes a table name with a space in the path', async () => {
		const result = await run({
			operation: 'getColumns',
			integrationId: SEED.integrations.northwindToRedshift,
			schema: rl('name', 'dbo'),
			table: rl('name', SEED.spacedTable),
		});

		expect(emulator().requests[0].path).toBe(
			`/integrations/${SEED.integrations.northwindToRedshift}/schemas/dbo/tables/Order%20Details/columns`,
		);
		expect(result.items.map((item) => item.json.column)).toEqual([
			'OrderID',
			'ProductID',
			'UnitPrice',
			'Quantity',
			'Discount',
		]);
	});

	it('reports an unknown table as a 404 naming it', async () => {
		const result = await run({
			operation: 'getColumns',
			integrationId: ORDERS,
			schema: 'public',
			table: 'nope',
		});

		expect(result.error).toMatchObject({
			name: 'NodeApiError',
			httpCode: '404',
			context: { itemIndex: 0 },
		});
		expect(result.error?.message).toBe(
			"table 'nope' does not exist in schema 'public' [NOT_FOUND]",
		);
	});
});
