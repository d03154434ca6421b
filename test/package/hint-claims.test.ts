/**
 * Every factual claim a builder hint makes (n8n's AI workflow builder writes workflows from them,
 * as fact) is held by a run of the node through n8n-core against the emulator. Each hint of both
 * nodes has its claims below, each quoting the words it checks; a new hint fails the first test
 * until its claims are here, and a hint whose words change fails its claim until the check is
 * read again.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { SEED } from '../emulator';
import { useEmulator } from '../helpers/emulator';
import { callNodeMethod, pollTrigger, runActionNode } from '../helpers/n8n';
import { rl } from '../actions/support';
import { action, hintsOf, trigger } from './hints';

const { emulator, credentials } = useEmulator();

const run = async (parameters: INodeParameters, items?: IDataObject[]) => {
	const result = await runActionNode({ credentials: credentials(), parameters, items });
	expect(result.error).toBeUndefined();
	return result.items.map((item) => item.json);
};
const sentBodies = () => emulator().requests.map((request) => request.body);
const auditQueries = () =>
	emulator()
		.requests.filter(({ path }) => path === '/audit-logs')
		.map(({ query }) => query);
const operationKeys = () =>
	action.properties
		.filter(({ name }) => name === 'operation')
		.flatMap(({ displayOptions, options }) =>
			(options as Array<{ value: string }>).map(
				({ value }) => `${displayOptions?.show?.resource?.[0]}.${value}`,
			),
		);
const changeSchemas = (change: IDataObject) =>
	run({
		resource: 'integration',
		operation: 'updateSchemas',
		integrationId: SEED.integrations.ordersToSnowflake,
		updateMode: 'changes',
		changes: { change: [{ enabled: 'keep', hashed: 'keep', ...change }] },
	});

/** Get Schemas of the seed's orders integration, one item per table, as the node or the tool. */
const tablesOf = async (parameters: INodeParameters, asTool = false) => {
	const result = await runActionNode({
		credentials: credentials(),
		parameters: {
			resource: 'integration',
			operation: 'getSchemas',
			integrationId: SEED.integrations.ordersToSnowflake,
			options: { output: 'tables' },
			...parameters,
		},
		asTool,
	});
	return result.error ?? result.items.map(({ json }) => `${json.schema}.${json.table}`);
};
const PUBLIC_TABLES = [
	'public.customers',
	'public.orders',
	'public.order_items',
	'public.payments',
];

/** Get Schemas narrowed by its Schema and Table, as the hints of both say. */
const narrowedClaims = (level: 'schema' | 'table'): Claim[] => [
	{
		says: `Set, the answer holds only that ${level}`,
		check: async () => {
			const schema = rl('name', SEED.schema);
			const table = rl('name', SEED.table);
			expect(await tablesOf(level === 'schema' ? { schema } : { schema, table })).toEqual(
				level === 'schema' ? PUBLIC_TABLES : [`${SEED.schema}.${SEED.table}`],
			);
		},
	},
	{
		says:
			level === 'schema'
				? 'an empty value reads every schema'
				: 'an empty value reads every table of the schema; needs Schema',
		check: async () => {
			const empty = rl('list', '');
			if (level === 'schema') {
				const all = await tablesOf({ schema: empty });
				expect(new Set((all as string[]).map((name) => name.split('.')[0]))).toEqual(
					new Set(['public', 'billing', 'audit']),
				);
				return;
			}
			expect(await tablesOf({ schema: rl('name', SEED.schema), table: empty })).toEqual(
				PUBLIC_TABLES,
			);
			expect(await tablesOf({ table: rl('name', SEED.table) })).toMatchObject({
				message: expect.stringContaining('needs Schema'),
			});
		},
	},
];

interface Claim {
	/** The words of the hint it checks. */
	says: string;
	check: () => Promise<void>;
}

/** Claims of the trigger's start, shared by the hints that make them. */
const startClaims: Claim[] = [
	{
		says: 'now',
		check: async () => {
			const first = await pollTrigger({
				credentials: credentials(),
				parameters: { startFrom: 'now' },
			});
			expect(first.items).toBeNull();
			const [added] = emulator().addAuditEntries([{ timestamp: new Date().toISOString() }]);
			const next = await pollTrigger({
				credentials: credentials(),
				parameters: { startFrom: 'now' },
				staticData: first.staticData,
			});
			expect(next.items?.map((item) => item.json.id)).toEqual([added.id]);
		},
	},
	{
		says: 'startDate',
		check: async () => {
			const parameters = { startFrom: 'date', startDate: '2026-10-30T00:00:00Z' };
			const { items } = await pollTrigger({ credentials: credentials(), parameters });
			const backlog = emulator().store.auditEntries.filter(
				({ timestamp }) => Date.parse(timestamp) >= Date.parse('2026-10-30T00:00:00Z'),
			);
			expect(items?.length).toBe(backlog.length);
			expect(backlog.length).toBeGreaterThan(0);
		},
	},
];

/** A time without a zone in the workflow's time zone (the harness's: n8n's default, New York). */
const zonelessTime: Claim = {
	says: "a time without a zone is read in the workflow's time zone",
	check: async () => {
		await run({
			resource: 'auditLog',
			operation: 'getAll',
			filters: { timeRange: { since: '2026-10-05T08:00:00' } },
		});
		expect(auditQueries()[0].startTime).toBe('2026-10-05T12:00:00.000Z');
		emulator().clearRequests();
		await run({
			resource: 'auditLog',
			operation: 'getAll',
			filters: { timeRange: { until: '2026-10-05T08:00:00' } },
		});
		expect(auditQueries()[0].endTime).toBe('2026-10-05T12:00:00.000Z');
	},
};

/** The API lists users and audit-log entries only; the node has an operation for each endpoint. */
const noListOf = (resource: string): Claim => ({
	says: `no call that lists ${resource}s`,
	check: async () => {
		const lists = operationKeys().filter((key) => key.endsWith('.getAll'));
		expect(lists.sort()).toEqual(['auditLog.getAll', 'user.getAll']);
		expect(operationKeys()).not.toContain(`${resource}.getAll`);
	},
});

const MAYA = { type: 'user', email: 'maya.patel@northwind-data.example' };
const SYSTEM = { type: 'system', email: 'system@northwind-data.example' };
/**
 * The events of the entries the trigger with these filters emits from a small log, and the
 * same from Audit Log → Get Many (oldest first), which takes the same filters.
 */
async function filteredEvents(filters: INodeParameters): Promise<unknown[]> {
	emulator().reset({ seed: false });
	emulator().addAuditEntries([
		{ timestamp: '2026-11-01T10:00:00Z', event: 'Integration paused', actor: MAYA },
		{ timestamp: '2026-11-01T10:00:01Z', event: 'Sync failed', actor: SYSTEM },
		{ timestamp: '2026-11-01T10:00:02Z', event: 'Tag created', actor: MAYA },
	]);
	const parameters = { startFrom: 'date', startDate: '2026-11-01T00:00:00Z', filters };
	const { items } = await pollTrigger({ credentials: credentials(), parameters });
	const emitted = (items ?? []).map((item) => item.json.event);
	const options = { sortDirection: 'asc' };
	const listed = await run({ resource: 'auditLog', operation: 'getAll', filters, options });
	expect(listed.map(({ event }) => event)).toEqual(emitted);
	return emitted;
}

/** Claims of the filters both nodes take, each hint's. */
const filterClaims: Record<string, Claim[]> = {
	match: [
		{
			says: '`anyOf` keeps only the entries that match one of the values',
			check: async () => {
				const texts = ['paused', 'sync'];
				expect(await filteredEvents({ events: { texts, match: 'anyOf' } })).toEqual([
					'Integration paused',
					'Sync failed',
				]);
			},
		},
		{
			says: '`allBut` keeps every entry except those',
			check: async () => {
				const texts = ['paused', 'sync'];
				expect(await filteredEvents({ events: { texts, match: 'allBut' } })).toEqual([
					'Tag created',
				]);
			},
		},
	],
	emails: [
		{
			says: 'an expression may give them as one text, separated by commas',
			check: async () => {
				const emails = `={{ "${SYSTEM.email}, nobody@example.com" }}`;
				expect(await filteredEvents({ actorEmails: { emails } })).toEqual(['Sync failed']);
			},
		},
	],
	types: [
		{
			says: "as the service writes them, e.g. ['user']",
			check: async () => {
				expect(await filteredEvents({ actorTypes: { types: ['user'] } })).toEqual([
					'Integration paused',
					'Tag created',
				]);
			},
		},
		{
			says: 'an expression may give them as one text, separated by commas',
			check: async () => {
				const types = '={{ "system, api_key" }}';
				expect(await filteredEvents({ actorTypes: { types } })).toEqual(['Sync failed']);
			},
		},
	],
	texts: [
		{
			says: 'each a part of an event description',
			check: async () => {
				const texts = ['PAUSE', 'created'];
				expect(await filteredEvents({ events: { texts } })).toEqual([
					'Integration paused',
					'Tag created',
				]);
			},
		},
		{
			says: 'an expression may give them as one text, separated by commas',
			check: async () => {
				const texts = '={{ "sync, tag" }}';
				expect(await filteredEvents({ events: { texts } })).toEqual(['Sync failed', 'Tag created']);
			},
		},
	],
};

/** Each hint, by `<node> <where>`, and its claims. */
const CLAIMS: Record<string, Claim[]> = {
	'action builderHint.searchHint': [
		{
			says: 'enable, disable or hash schemas, tables and columns',
			check: async () => {
				await changeSchemas({ level: 'schema', schema: 'public', enabled: 'disable' });
				await changeSchemas({
					level: 'table',
					schema: 'public',
					table: 'orders',
					enabled: 'enable',
				});
				await changeSchemas({
					level: 'column',
					schema: 'public',
					table: 'customers',
					column: 'country',
					hashed: 'hash',
				});
				const schema = emulator().store.getSchemas(SEED.integrations.ordersToSnowflake).public;
				expect(schema.enabled).toBe(false);
				expect(schema.tables.orders.enabled).toBe(true);
				expect(schema.tables.customers.columns.country.hashed).toBe(true);
			},
		},
		{
			says: 'User → Get Many finds users by a part of their email or name (Filters → `search`)',
			check: async () => {
				for (const search of ['PRIYA.r', 'raman']) {
					const found = await run({ resource: 'user', operation: 'getAll', filters: { search } });
					expect(found.map(({ id }) => id)).toEqual([SEED.users.priya]);
				}
			},
		},
		{
			says: 'Integration → Get Schemas reads one schema or table when `schema` and `table` are set',
			check: async () => {
				expect(await tablesOf({ schema: SEED.schema })).toEqual(PUBLIC_TABLES);
				expect(await tablesOf({ schema: SEED.schema, table: SEED.table })).toEqual([
					`${SEED.schema}.${SEED.table}`,
				]);
			},
		},
	],
	'action relatedNodes': [{ ...startClaims[0], says: 'once for each new audit log entry' }],
	'action usableAsTool': [
		{
			says: 'removes a tag from a resource',
			check: async () => {
				await run({
					resource: 'tag',
					operation: 'deleteRelation',
					tagId: SEED.tags.pii,
					...SEED.piiRelation,
				});
				expect(emulator().requests[0]).toMatchObject({
					method: 'DELETE',
					path: `/tags/${SEED.tags.pii}/relation`,
				});
			},
		},
		{
			says: 'source schemas (Schema, Table narrow them)',
			check: async () => {
				const narrowed = { schema: rl('name', SEED.schema), table: rl('name', SEED.table) };
				expect(await tablesOf(narrowed, true)).toEqual([`${SEED.schema}.${SEED.table}`]);
			},
		},
		{
			says: 'A cut answer says what narrows it',
			check: async () => {
				const parameters = { resource: 'auditLog', operation: 'getAll', returnAll: true };
				const result = await runActionNode({
					credentials: credentials(),
					parameters,
					asTool: true,
				});
				expect(result.items[result.items.length - 1].json).toMatchObject({
					truncated: true,
					narrowWith: expect.stringMatching(/^set Filters → Time Range → Until to /),
				});
			},
		},
		{
			says: 'finds users by email or name',
			check: async () => {
				const parameters = { resource: 'user', operation: 'getAll', filters: { search: 'maya' } };
				const result = await runActionNode({
					credentials: credentials(),
					parameters,
					asTool: true,
				});
				expect(result.items.map(({ json }) => json.id)).toEqual([SEED.users.maya]);
			},
		},
		{
			says: 'a change: changeMade',
			check: async () => {
				const parameters = {
					resource: 'tag',
					operation: 'create',
					name: 'Made',
					owner: rl('id', SEED.users.maya),
				};
				const result = await runActionNode({
					credentials: credentials(),
					parameters,
					asTool: true,
				});
				expect(result.items[0].json).toMatchObject({ changeMade: true, id: expect.any(String) });
			},
		},
		{
			says: 'write times in ISO 8601 with a zone',
			check: async () => {
				const filters = { timeRange: { since: '2026-10-05T10:30:00+02:00' } };
				await run({ resource: 'auditLog', operation: 'getAll', filters });
				expect(auditQueries()[0].startTime).toBe('2026-10-05T08:30:00.000Z');
			},
		},
	],
	'action owner': [
		{
			says: "mode `id` with that id as value (mode `list` is the editor's picker and holds the same id)",
			check: async () => {
				const [user] = await run({ resource: 'user', operation: 'getAll', limit: 1 });
				for (const mode of ['id', 'list'])
					await run({
						resource: 'tag',
						operation: 'create',
						name: `by ${mode}`,
						owner: rl(mode, user.id as string),
					});
				expect(
					sentBodies()
						.slice(1)
						.map((body) => (body as IDataObject).owner),
				).toEqual([user.id, user.id]);
			},
		},
	],
	'action tagId': [
		{
			says: 'as Tag → Create returns it',
			check: async () => {
				const [created] = await run({
					resource: 'tag',
					operation: 'create',
					name: 'New',
					owner: rl('id', SEED.users.maya),
				});
				const [updated] = await run({
					resource: 'tag',
					operation: 'update',
					tagId: String(created.id),
					updateFields: { name: 'Renamed' },
				});
				expect(updated).toMatchObject({ id: created.id, name: 'Renamed' });
			},
		},
		noListOf('tag'),
	],
	'action integrationId': [noListOf('integration')],
	'action returnAll': [
		{
			says: '`returnAll: true` reads every result, however many',
			check: async () => {
				const all = await run({ resource: 'auditLog', operation: 'getAll', returnAll: true });
				expect(all).toHaveLength(SEED.audit.count);
			},
		},
		{
			says: 'keep `returnAll: false` and set `limit`',
			check: async () => {
				expect(
					await run({ resource: 'auditLog', operation: 'getAll', returnAll: false, limit: 3 }),
				).toHaveLength(3);
			},
		},
	],
	'action updateMode': [
		{
			says: 'each entry sends only the schema, table or column it names, and only the flags not left at `keep`',
			check: async () => {
				await changeSchemas({
					level: 'column',
					schema: 'public',
					table: 'customers',
					column: 'country',
					hashed: 'hash',
				});
				expect(sentBodies()).toEqual([
					{
						schemas: {
							public: { tables: { customers: { columns: { country: { hashed: true } } } } },
						},
					},
				]);
			},
		},
		{
			says: '`json` sends `schemas` as written',
			check: async () => {
				const schemas = {
					public: { enabled: true, tables: { orders: { columns: { id: { enabled: true } } } } },
				};
				await run({
					resource: 'integration',
					operation: 'updateSchemas',
					integrationId: SEED.integrations.ordersToSnowflake,
					updateMode: 'json',
					schemas: JSON.stringify(schemas),
				});
				expect(sentBodies()).toEqual([{ schemas }]);
			},
		},
	],
	'action changes': [
		{
			says: '`level`, `schema`, then `table` and `column` as the level needs',
			check: async () => {
				await changeSchemas({ level: 'schema', schema: 'public', enabled: 'enable' });
				expect(sentBodies()).toEqual([{ schemas: { public: { enabled: true } } }]);
			},
		},
		{
			says: '`enabled` or `hashed` left at `keep` sends nothing for it',
			check: async () => {
				const column = { level: 'column', schema: 'public', table: 'orders', column: 'id' };
				await changeSchemas({ ...column, enabled: 'keep', hashed: 'hash' });
				await changeSchemas({ ...column, enabled: 'disable', hashed: 'keep' });
				const columns = (flags: IDataObject) => ({
					schemas: { public: { tables: { orders: { columns: { id: flags } } } } },
				});
				expect(sentBodies()).toEqual([columns({ hashed: true }), columns({ enabled: false })]);
			},
		},
	],
	'action schema (getColumns)': [
		{
			says: 'the list picker needs `integrationId` first',
			check: async () => {
				const search = (integrationId: string) =>
					callNodeMethod<{ results: unknown[] }>({
						credentials: credentials(),
						method: 'searchSchemas',
						parameters: { resource: 'integration', operation: 'getColumns', integrationId },
					});
				expect((await search('')).results).toEqual([]);
				expect((await search(SEED.integrations.ordersToSnowflake)).results.length).toBeGreaterThan(
					0,
				);
			},
		},
		{
			says: 'Mode `name` with the schema as Integration → Get Schemas names it',
			check: async () => {
				const columns = await run({
					resource: 'integration',
					operation: 'getColumns',
					integrationId: SEED.integrations.ordersToSnowflake,
					schema: rl('name', SEED.schema),
					table: rl('name', SEED.table),
				});
				expect(columns.map((column) => column.column)).toContain(SEED.hashedColumn);
			},
		},
	],
	'action table (getColumns)': [
		{
			says: 'Mode `name` with the table as Integration → Get Schemas names it',
			check: async () => {
				const columns = await run({
					resource: 'integration',
					operation: 'getColumns',
					integrationId: SEED.integrations.northwindToRedshift,
					schema: rl('name', 'dbo'),
					table: rl('name', SEED.spacedTable),
				});
				expect(columns.length).toBeGreaterThan(0);
			},
		},
	],
	'action since': [zonelessTime],
	'trigger builderHint.searchHint': startClaims,
	'trigger relatedNodes': [
		{
			says: 'past audit log entries',
			check: async () => {
				expect(
					await run({ resource: 'auditLog', operation: 'getAll', returnAll: true }),
				).toHaveLength(SEED.audit.count);
			},
		},
	],
	'trigger startFrom': startClaims,
	...Object.fromEntries(
		Object.entries(filterClaims).flatMap(([name, claims]) => [
			[`trigger ${name}`, claims],
			[`action ${name}`, claims],
		]),
	),
	'trigger startDate': [
		{
			says: "a time without a zone is read in the workflow's time zone",
			check: async () => {
				emulator().reset({ seed: false });
				emulator().addAuditEntries([
					{ timestamp: '2026-11-01T16:59:59Z' },
					{ timestamp: '2026-11-01T17:00:00Z' },
				]);
				const parameters = { startFrom: 'date', startDate: '2026-11-01T12:00:00' };
				const { items } = await pollTrigger({ credentials: credentials(), parameters });
				expect(items?.map((item) => item.json.timestamp)).toEqual(['2026-11-01T17:00:00Z']);
			},
		},
	],
};
// The same hint on Until as on Since.
CLAIMS['action until'] = CLAIMS['action since'];
// Get Schemas' Schema and Table: Get Columns' fields and hints, with what narrowing adds.
for (const level of ['schema', 'table'] as const)
	CLAIMS[`action ${level} (getSchemas)`] = [
		...CLAIMS[`action ${level} (getColumns)`],
		...narrowedClaims(level),
	];

const FOUND = [
	...hintsOf(action).map((found) => ({ ...found, key: `action ${found.where}` })),
	...hintsOf(trigger).map((found) => ({ ...found, key: `trigger ${found.where}` })),
];
/**
 * Each hint once (a field several operations share has one hint); fields of one name whose hints
 * differ (Schema in Get Columns and in Get Schemas) are told apart by their operation.
 */
const HINTS = [
	...new Map(
		FOUND.map((found) => {
			const hints = new Set(FOUND.filter(({ key }) => key === found.key).map(({ hint }) => hint));
			const key = hints.size > 1 ? `${found.key} (${found.operations})` : found.key;
			return [key, { ...found, key }];
		}),
	).values(),
];

it('every hint has its claims below, and no claim is of a hint that is gone', () => {
	expect([...new Set(HINTS.map(({ key }) => key))].sort()).toEqual(Object.keys(CLAIMS).sort());
});

describe.each(HINTS.map(({ key, hint }) => [key, hint] as const))('the hint of %s', (key, hint) => {
	it.each((CLAIMS[key] ?? []).map((claim) => [claim.says, claim] as const))(
		'"%s": says so, and the node does it',
		async (_says, { says, check }) => {
			expect(hint).toContain(says);
			await check();
		},
	);
});
