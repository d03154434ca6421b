/**
 * What a person trying the emulator reads first (indexes.ts): GET on the base URL, with or without
 * a trailing slash, lists the IDs the service holds now (seeded, then what the API created, until
 * a reset) and the operations, with no API key and unrecorded; and the short version of the IDs
 * that `npm run emulator` prints at start, rule by rule.
 */
import { SEED, startEmulator, type Emulator } from './index';
import { idsToTry, workspace, type Workspace } from './indexes';

let emulator: Emulator;

beforeAll(async () => {
	emulator = await startEmulator();
});
afterAll(async () => await emulator.close());
beforeEach(() => emulator.reset());

const getJson = async (url: string) => {
	const response = await fetch(url);
	return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

const send = async (path: string, body: unknown) =>
	await fetch(`${emulator.baseUrl}${path}`, {
		method: 'POST',
		headers: { 'x-api-key': emulator.apiKey, 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});

const idsOf = (entries: Array<{ id: string }>) => entries.map(({ id }) => id).sort();

test.each(['', '/'])(
	'GET on the base URL + "%s" lists every seeded ID to try, with no key, unrecorded',
	async (slash) => {
		const { status, body } = await getJson(`${emulator.baseUrl}${slash}`);
		const held = body.workspace as Workspace;

		expect(status).toBe(200);
		expect(idsOf(held.integrations)).toEqual(Object.values(SEED.integrations).sort());
		expect(idsOf(held.users)).toEqual(Object.values(SEED.users).sort());
		expect(idsOf(held.tags)).toEqual(Object.values(SEED.tags).sort());
		expect(idsOf(held.assets)).toEqual(Object.values(SEED.assets).sort());
		expect(held.connectors).toEqual([]);
		expect(held.integrations).toContainEqual({
			id: SEED.integrations.shopToBigQuery,
			name: 'Shop MySQL to BigQuery',
			paused: true,
			schemas: {
				shop: ['products', 'inventory', 'reviews'],
				marketing: ['campaigns', 'subscribers'],
			},
		});
		const northwind = held.integrations.find(
			({ id }) => id === SEED.integrations.northwindToRedshift,
		);
		expect(northwind?.schemas.dbo).toContain(SEED.spacedTable);
		expect(held.users).toContainEqual({
			id: SEED.users.maya,
			name: 'Maya Patel',
			email: 'maya.patel@northwind-data.example',
		});
		expect(body.operations).toHaveLength(12);
		expect(emulator.requests).toEqual([]);
	},
);

test('the base URL with and without its trailing slash answer alike; so does the control index', async () => {
	const control = emulator.baseUrl.replace(/\/v1$/, '/__emulator');

	expect(await getJson(`${emulator.baseUrl}/`)).toEqual(await getJson(emulator.baseUrl));
	expect(await getJson(`${control}/`)).toEqual(await getJson(control));
	expect((await getJson(control)).body.controls).toContain('POST /__emulator/reset');
});

test('what the API creates is listed until a reset', async () => {
	expect((await send('/tags', { name: 'Trying', owner: SEED.users.maya })).status).toBe(200);
	const connector = { name: 'Warehouse', type: 'snowflake', connectionType: 'direct' };
	expect((await send('/connectors', { ...connector, authMethod: 'password' })).status).toBe(200);

	const held = (await getJson(emulator.baseUrl)).body.workspace as Workspace;
	expect(held.tags.map(({ name }) => name)).toContain('Trying');
	expect(held.connectors).toEqual([
		{ id: expect.stringMatching(/^con_/), name: 'Warehouse', type: 'snowflake' },
	]);

	emulator.reset();
	expect((await getJson(emulator.baseUrl)).body.workspace).toEqual(workspace(emulator.store));
	expect(workspace(emulator.store).connectors).toEqual([]);
});

const empty: Workspace = { integrations: [], users: [], tags: [], assets: [], connectors: [] };
const tag = (n: number) => ({ id: `tag_${n}`, name: `Tag ${n}` });

test.each<[string, Partial<Workspace>, string]>([
	['a kind with nothing says so', {}, 'tags         none yet'],
	[
		'up to three, each ID with its name',
		{ tags: [1, 2, 3].map(tag) },
		'tags         tag_1 Tag 1; tag_2 Tag 2; tag_3 Tag 3',
	],
	[
		'beyond three, how many more',
		{ tags: [1, 2, 3, 4, 5].map(tag) },
		'tags         tag_1 Tag 1; tag_2 Tag 2; tag_3 Tag 3; and 2 more',
	],
	[
		'a user by its email',
		{ users: [{ id: 'usr_1', name: 'Ann', email: 'ann@example.com' }] },
		'users        usr_1 ann@example.com',
	],
	[
		'a paused integration says so',
		{ integrations: [{ id: 'int_1', name: 'A to B', paused: true, schemas: {} }] },
		'integrations int_1 A to B (paused)',
	],
])('idsToTry: %s', (_rule, held, line) => {
	const lines = idsToTry({ ...empty, ...held });

	expect(lines).toHaveLength(5);
	expect(lines).toContain(line);
});

test('idsToTry: the seeded workspace, as npm run emulator prints it', () => {
	expect(idsToTry(workspace(emulator.store))).toEqual([
		`integrations ${SEED.integrations.ordersToSnowflake} Orders Postgres to Snowflake; ${SEED.integrations.shopToBigQuery} Shop MySQL to BigQuery (paused); ${SEED.integrations.northwindToRedshift} Northwind SQL Server to Redshift`,
		`users        ${SEED.users.maya} maya.patel@northwind-data.example; ${SEED.users.lucas} lucas.moreau@northwind-data.example; ${SEED.users.aiko} aiko.tanaka@northwind-data.example; and 4 more`,
		`tags         ${SEED.tags.pii} PII; ${SEED.tags.finance} Finance; ${SEED.tags.gdpr} GDPR; and 1 more`,
		`assets       ${SEED.assets.ordersDb} Orders database; ${SEED.assets.revenueDashboard} Revenue dashboard`,
		'connectors   none yet',
	]);
});
