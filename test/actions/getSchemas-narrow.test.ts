import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { narrowSchemas } from '../../nodes/DataIntegrationManagement/actions/integration/sourceSchemas';
import { schemasAdvice } from '../../nodes/DataIntegrationManagement/actions/integration/getSchemas.operation';
import { TOOL_ANSWER_CHARACTERS } from '../../nodes/DataIntegrationManagement/actions/toolAnswer';
import type {
	ReceivedSchemas,
	SchemasConfig,
} from '../../nodes/DataIntegrationManagement/client/types';
import { SEED } from '../emulator';
import { useEmulator } from '../helpers/emulator';
import { runActionNode } from '../helpers/n8n';
import { largeSchemas, rl, sent } from './support';

const { emulator, credentials } = useEmulator();

const ORDERS = SEED.integrations.ordersToSnowflake;
const stored = (): SchemasConfig => structuredClone(emulator().store.schemas.get(ORDERS)!);

const getSchemas = (parameters: INodeParameters, asTool = false) =>
	runActionNode({
		credentials: credentials(),
		parameters: {
			resource: 'integration',
			operation: 'getSchemas',
			integrationId: ORDERS,
			...parameters,
		},
		asTool,
	});
const jsonOf = (result: { items: Array<{ json: IDataObject }> }) =>
	result.items.map(({ json }) => json);

describe('narrowSchemas', () => {
	const schemas = {
		public: { enabled: true, tables: { orders: { enabled: true }, customers: { enabled: false } } },
		bare: { enabled: true },
		__proto__: { enabled: false, tables: {} },
	} as unknown as ReceivedSchemas;
	const proto = JSON.parse('{"__proto__": {"enabled": false}}') as ReceivedSchemas;

	it.each([
		['nothing named: every schema', { schema: '', table: '', column: '' }, { schemas }],
		[
			'a schema',
			{ schema: 'public', table: '', column: '' },
			{ schemas: { public: schemas.public } },
		],
		[
			'a table of it',
			{ schema: 'public', table: 'orders', column: '' },
			{ schemas: { public: { enabled: true, tables: { orders: { enabled: true } } } } },
		],
		[
			'a schema not there',
			{ schema: 'Public', table: '', column: '' },
			{ missing: 'schema', known: Object.keys(schemas) },
		],
		[
			'a table not there',
			{ schema: 'public', table: 'x', column: '' },
			{ missing: 'table', known: ['orders', 'customers'] },
		],
		[
			'a table of a schema without tables',
			{ schema: 'bare', table: 'x', column: '' },
			{ missing: 'table', known: [] },
		],
		[
			'an inherited name',
			{ schema: 'toString', table: '', column: '' },
			{ missing: 'schema', known: Object.keys(schemas) },
		],
	])('%s', (_label, narrowing, expected) => {
		expect(narrowSchemas(schemas, narrowing)).toEqual(expected);
	});

	const columns = {
		a: {
			enabled: true,
			tables: {
				t1: { enabled: true, columns: { Email: { hashed: true }, id: { hashed: false } } },
				t2: { enabled: false, columns: { id: { hashed: false } } },
			},
		},
		b: { enabled: true, tables: { t3: { enabled: true, columns: { work_email: {} } } } },
	} as unknown as ReceivedSchemas;

	it.each([
		[
			'a part of column names, any case, in every table: the tables and schemas that have one',
			{ schema: '', table: '', column: 'EMAIL' },
			{
				a: {
					enabled: true,
					tables: { t1: { ...columns.a.tables!.t1, columns: { Email: { hashed: true } } } },
				},
				b: columns.b,
			},
		],
		[
			'a part of column names in a table named',
			{ schema: 'a', table: 't2', column: 'i' },
			{ a: { ...columns.a, tables: { t2: columns.a.tables!.t2 } } },
		],
		['a part no column name holds: nothing', { schema: '', table: '', column: 'phone' }, {}],
	])('%s', (_label, narrowing, expected) => {
		expect(narrowSchemas(columns, narrowing)).toEqual({ schemas: expected });
	});

	it('keeps a schema named __proto__ as its own entry', () => {
		const narrowed = narrowSchemas(proto, { schema: '__proto__', table: '', column: '' });
		expect('schemas' in narrowed && Object.keys(narrowed.schemas)).toEqual(['__proto__']);
	});
});

describe('schemasAdvice: what narrows an answer too large, from what is set and its names', () => {
	const map = { schemas: { a: { tables: { t1: {}, t2: {} } }, b: { tables: { t3: {} } } } };
	it.each([
		[
			'columns of several schemas',
			[
				{ schema: 'a', table: 't1', column: '' },
				{ schema: 'b', table: 't3', column: '' },
			],
			'set Schema to one of "a", "b", or Table too',
		],
		['the Raw or Compact map', [map], 'set Schema to one of "a", "b", or Table too'],
		[
			'tables of one schema',
			[
				{ schema: 'a', table: 't1', column: '' },
				{ schema: 'a', table: 't2', column: '' },
			],
			'set Schema to "a" and Table to one of "t1", "t2"',
		],
		[
			'the map of one schema',
			[{ schemas: { a: map.schemas.a } }],
			'set Schema to "a" and Table to one of "t1", "t2"',
		],
		[
			'columns of one table',
			[{ schema: 'a', table: 't1', column: 'c' }],
			'set Options → Output to Compact (only the enabled and hashed flags), or set Column to a part of the names of the columns you need; its columns are "c"',
		],
		[
			'the Compact map of one table',
			[{ schemas: { a: { tables: { t1: { columns: { c1: {}, c2: {} } } } } } }],
			'set Column to a part of the names of the columns you need: this table is larger than an answer in any Output; its columns are "c1", "c2"',
		],
		[
			'more names than a message lists',
			Array.from({ length: 25 }, (_, n) => ({ schema: `s${n}` })),
			`set Schema to one of ${Array.from({ length: 20 }, (_, n) => `"s${n}"`).join(', ')} and 5 more, or Table too`,
		],
	])('%s', (_label, items, expected) => {
		const output = 'schemas' in items[0] ? 'compact' : 'columns';
		const advice = schemasAdvice({ schema: '', table: '', column: '' }, output);
		expect(advice(items as IDataObject[], 0, 'size')).toBe(expected);
	});

	it.each<[string, { schema: string; table: string; column: string }, string, string]>([
		[
			'Schema set: not Schema again',
			{ schema: 'a', table: '', column: '' },
			'columns',
			'set Table to one of "t1", "t2", keeping Schema "a"',
		],
		[
			'Schema and Table set, Output not Compact: Compact',
			{ schema: 'a', table: 't1', column: '' },
			'raw',
			'set Options → Output to Compact (only the enabled and hashed flags), or set Column to a part of the names of the columns you need; its columns are "c1"',
		],
		[
			'Schema, Table and Column set, Compact: a longer part of the names',
			{ schema: 'a', table: 't1', column: 'c' },
			'compact',
			'set Column to a part longer than "c" of the names of the columns you need: this table is larger than an answer in any Output; its columns are "c1"',
		],
	])('never proposes what is set: %s', (_label, narrowing, output, expected) => {
		const items =
			output === 'columns'
				? [
						{ schema: 'a', table: 't1', column: 'c1' },
						{ schema: 'a', table: 't2', column: 'c1' },
					]
				: [{ schemas: { a: { tables: { t1: { columns: { c1: {} } } } } } }];
		expect(schemasAdvice(narrowing, output)(items, 0, 'size')).toBe(expected);
	});
});

describe('Get Schemas narrowed to a schema or a table', () => {
	it.each([
		['picked from the list', rl('list', SEED.schema), rl('list', SEED.table)],
		['typed by name', rl('name', SEED.schema), rl('name', SEED.table)],
		['as plain text', ` ${SEED.schema} `, SEED.table],
	])('gives one schema, or one table of it (%s), in one request', async (_label, schema, table) => {
		const all = stored();
		const publicOnly = await getSchemas({ schema, options: { output: 'raw' } });
		const customersOnly = await getSchemas({ schema, table, options: { output: 'raw' } });

		expect(jsonOf(publicOnly)).toEqual([{ schemas: { [SEED.schema]: all[SEED.schema] } }]);
		expect(jsonOf(customersOnly)).toEqual([
			{
				schemas: {
					[SEED.schema]: {
						...all[SEED.schema],
						tables: { [SEED.table]: all[SEED.schema].tables[SEED.table] },
					},
				},
			},
		]);
		expect(sent(emulator()).map(({ path }) => path)).toEqual([
			`/integrations/${ORDERS}/schemas`,
			`/integrations/${ORDERS}/schemas`,
		]);
	});

	it.each(['columns', 'tables', 'schemas', 'compact', 'raw'])(
		'gives, with Output %s, what the whole answer gives of that table',
		async (output) => {
			const whole = jsonOf(await getSchemas({ options: { output } }));
			const narrowed = jsonOf(
				await getSchemas({
					schema: rl('list', SEED.schema),
					table: rl('list', SEED.table),
					options: { output },
				}),
			);
			const asTool = jsonOf(
				await getSchemas(
					{ schema: rl('name', SEED.schema), table: rl('name', SEED.table), options: { output } },
					true,
				),
			);

			expect(asTool).toEqual(narrowed);
			if (output === 'columns' || output === 'tables')
				expect(narrowed).toEqual(
					whole.filter(({ schema, table }) => schema === SEED.schema && table === SEED.table),
				);
			else if (output === 'schemas')
				expect(narrowed).toEqual(whole.filter(({ schema }) => schema === SEED.schema));
			else {
				const [{ schemas }] = whole as Array<{ schemas: ReceivedSchemas }>;
				expect(narrowed).toEqual([
					{
						schemas: {
							[SEED.schema]: {
								...schemas[SEED.schema],
								tables: { [SEED.table]: schemas[SEED.schema].tables![SEED.table] },
							},
						},
					},
				]);
			}
		},
	);

	it('is not narrowed when Schema and Table are left empty (the default)', async () => {
		const result = await getSchemas({ schema: rl('list', ''), table: rl('list', '') });
		expect(jsonOf(result)).toEqual(jsonOf(await getSchemas({})));
		expect(new Set(jsonOf(result).map(({ schema }) => schema)).size).toBeGreaterThan(1);
	});

	it.each([
		[
			'a schema the integration does not have',
			{ schema: rl('name', 'nope') },
			`The field "Schema" names "nope", which integration ${ORDERS} does not have (item 0)`,
			'The schemas there: "public", "billing", "audit". Pick one from the list, or leave Schema empty.',
		],
		[
			'a table the schema does not have',
			{ schema: rl('list', SEED.schema), table: rl('name', 'nope') },
			`The field "Table" names "nope", which schema "public" of integration ${ORDERS} does not have (item 0)`,
			'The tables there: "customers", "orders", "order_items", "payments". Pick one from the list, or leave Table empty.',
		],
	])(
		'fails on %s, naming the field, the item (not in the tool form: one call, one item) and the names there are',
		async (_label, parameters, message, description) => {
			for (const asTool of [false, true]) {
				const result = await getSchemas(parameters, asTool);
				expect(result.error).toMatchObject({
					name: 'NodeOperationError',
					message: asTool ? message.replace(' (item 0)', '') : message,
					description,
					context: { itemIndex: 0 },
				});
			}
		},
	);

	it('refuses a Table without its Schema before any request', async () => {
		const result = await getSchemas({ table: rl('name', SEED.table) });

		expect(result.error).toMatchObject({
			name: 'NodeOperationError',
			message: 'The field "Table" needs Schema: set Schema too, or leave Table empty (item 0)',
		});
		expect(sent(emulator())).toEqual([]);
	});

	it('with On Error: Continue, gives the failing item an error and the others their answer', async () => {
		const result = await runActionNode({
			credentials: credentials(),
			parameters: {
				resource: 'integration',
				operation: 'getSchemas',
				integrationId: ORDERS,
				schema: '={{ $json.schema }}',
				options: { output: 'schemas' },
			},
			items: [{ schema: 'nope' }, { schema: SEED.schema }],
			continueOnFail: true,
		});

		expect(result.items).toEqual([
			{
				json: expect.objectContaining({ error: expect.stringContaining('"nope"') }),
				pairedItem: { item: 0 },
			},
			{ json: expect.objectContaining({ schema: SEED.schema }), pairedItem: { item: 1 } },
		]);
	});
});

describe('Get Schemas of a large integration, as a tool', () => {
	beforeEach(() => emulator().store.schemas.set(ORDERS, largeSchemas(12, 25, 30)));

	it.each(['columns', 'tables', 'compact', 'raw'])(
		'answers within the tool limit with Output %s, saying what was left out and how to narrow',
		async (output) => {
			const inNode = jsonOf(await getSchemas({ options: { output } }));
			const asTool = jsonOf(await getSchemas({ options: { output } }, true));
			const note = asTool[asTool.length - 1];

			expect(JSON.stringify(inNode).length).toBeGreaterThan(TOOL_ANSWER_CHARACTERS);
			expect(JSON.stringify(asTool).length).toBeLessThanOrEqual(TOOL_ANSWER_CHARACTERS);
			expect(asTool.slice(0, -1)).toEqual(inNode.slice(0, asTool.length - 1));
			expect(note).toMatchObject({
				truncated: true,
				itemsGiven: asTool.length - 1,
				itemsLeftOut: inNode.length - (asTool.length - 1),
				characterLimit: TOOL_ANSWER_CHARACTERS,
				narrowWith: expect.stringMatching(
					/^set Schema to one of "s0", "s1", .* "s11", or Table too$/,
				),
			});
			expect(note.message).toContain('To get them, narrow the request: set Schema to one of "s0"');
		},
	);

	it('answers whole once narrowed to a table', async () => {
		const table = jsonOf(
			await getSchemas({ schema: rl('name', 's3'), table: rl('name', 't7') }, true),
		);

		expect(table).toHaveLength(30);
		expect(table.every(({ schema, table: name }) => schema === 's3' && name === 't7')).toBe(true);
	});

	it('tells, narrowed to a schema still too large, the tables that narrow it, not Schema again', async () => {
		emulator().store.schemas.set(ORDERS, largeSchemas(2, 60, 20));
		const answer = jsonOf(await getSchemas({ schema: rl('name', 's1') }, true));

		expect(answer[answer.length - 1].narrowWith).toMatch(
			/^set Table to one of "t0", .* and 40 more, keeping Schema "s1"$/,
		);
	});

	it('tells, narrowed to one table still too large, Output Compact or Column; in Compact too large, Column, and Column reaches the columns left out', async () => {
		emulator().store.schemas.set(ORDERS, largeSchemas(1, 1, 600));
		const table = { schema: rl('name', 's0'), table: rl('name', 't0') };
		const perColumn = jsonOf(await getSchemas(table, true));
		expect(perColumn[perColumn.length - 1].narrowWith).toMatch(
			/^set Options → Output to Compact \(only the enabled and hashed flags\), or set Column to a part of the names of the columns you need; its columns are "c0", "c1", .* and 580 more$/,
		);

		const compact = jsonOf(await getSchemas({ ...table, options: { output: 'compact' } }, true));
		expect(compact).toHaveLength(1);
		expect(compact[0]).toMatchObject({ truncated: true, itemsGiven: 0, itemsLeftOut: 1 });
		expect(compact[0].narrowWith).toMatch(
			/^set Column to a part of the names of the columns you need: this table is larger than an answer in any Output; its columns are "c0", "c1", .* and 580 more$/,
		);

		const someColumns = jsonOf(
			await getSchemas({ ...table, column: 'C59', options: { output: 'compact' } }, true),
		);
		const columns = (someColumns[0] as { schemas: ReceivedSchemas }).schemas.s0.tables!.t0.columns;
		expect(Object.keys(columns!)).toEqual([
			'c59',
			...Array.from({ length: 10 }, (_, n) => `c59${n}`),
		]);
	});

	it('gives the node the whole answer, uncut', async () => {
		const inNode = jsonOf(await getSchemas({}));
		expect(inNode).toHaveLength(12 * 25 * 30);
		expect(inNode.some((item) => 'truncated' in item)).toBe(false);
	});
});
