import type { INodeListSearchResult } from 'n8n-workflow';

import { SEED } from '../emulator';
import { useEmulator } from '../helpers/emulator';
import { callNodeMethod } from '../helpers/n8n';
import { rl, sent } from './support';

const { emulator, credentials } = useEmulator();

const ORDERS = SEED.integrations.ordersToSnowflake;

const search = (method: string, parameters: Record<string, unknown>, filter?: string) =>
	callNodeMethod<INodeListSearchResult>({
		credentials: credentials(),
		method,
		parameters: parameters as never,
		filter,
	});

describe('searchUsers (tag owner)', () => {
	const tagCreate = { resource: 'tag', operation: 'create' };

	it('lists every user with name and email, valued by id, without a filter', async () => {
		const { results } = await search('searchUsers', tagCreate);

		expect(sent(emulator())).toEqual([
			{ method: 'GET', path: '/users', query: {}, body: undefined },
		]);
		expect(results).toHaveLength(7);
		expect(results[0]).toEqual({
			name: 'Maya Patel (maya.patel@northwind-data.example)',
			value: SEED.users.maya,
		});
	});

	it('finds users by part of the name, ignoring case', async () => {
		const { results } = await search('searchUsers', tagCreate, 'tANaka');

		expect(results).toEqual([
			{ name: 'Aiko Tanaka (aiko.tanaka@northwind-data.example)', value: SEED.users.aiko },
		]);
	});

	it('finds users by the name alone, where the email holds none of it', async () => {
		const aiko = emulator().store.users.get(SEED.users.aiko)!;
		emulator().store.users.set(SEED.users.aiko, { ...aiko, email: 'ops@northwind-data.example' });

		// Found by the name: the ID is not shown.
		expect((await search('searchUsers', tagCreate, 'tanaka')).results).toEqual([
			{ name: 'Aiko Tanaka (ops@northwind-data.example)', value: SEED.users.aiko },
		]);
	});

	it('finds users by part of the email', async () => {
		const { results } = await search('searchUsers', tagCreate, 'sofia.lind');

		// Found by the email: the ID is not shown.
		expect(results).toEqual([
			{ name: 'Sofia Lindqvist (sofia.lindqvist@northwind-data.example)', value: SEED.users.sofia },
		]);
	});

	it('finds users by part of the ID, as User → Get Many → Search does', async () => {
		const { results } = await search(
			'searchUsers',
			tagCreate,
			SEED.users.aiko.slice(-6).toUpperCase(),
		);

		// The ID is shown, as the name and email do not hold the text.
		expect(results).toEqual([
			{
				name: `Aiko Tanaka (aiko.tanaka@northwind-data.example, ${SEED.users.aiko})`,
				value: SEED.users.aiko,
			},
		]);
	});

	it('leaves out an empty email: the ID alone in brackets, or no brackets', async () => {
		const aiko = emulator().store.users.get(SEED.users.aiko)!;
		emulator().store.users.set(SEED.users.aiko, { ...aiko, email: '' });

		expect((await search('searchUsers', tagCreate, SEED.users.aiko)).results).toEqual([
			{ name: `Aiko Tanaka (${SEED.users.aiko})`, value: SEED.users.aiko },
		]);
		expect((await search('searchUsers', tagCreate, 'Tanaka')).results).toEqual([
			{ name: 'Aiko Tanaka', value: SEED.users.aiko },
		]);
	});

	it('finds nothing for text no user has', async () => {
		const { results } = await search('searchUsers', tagCreate, 'zzz-nobody');

		expect(results).toEqual([]);
	});

	it('surfaces an API error with its status', async () => {
		emulator().injectFault({ kind: 'status', status: 500, path: '/users' });

		await expect(search('searchUsers', tagCreate)).rejects.toMatchObject({
			name: 'NodeApiError',
			httpCode: '500',
		});
	});
});

describe('searchSchemas and searchTables (getColumns)', () => {
	const getColumns = { resource: 'integration', operation: 'getColumns', integrationId: ORDERS };

	it('lists the schemas of the integration', async () => {
		const { results } = await search('searchSchemas', getColumns);

		expect(sent(emulator())).toEqual([
			{ method: 'GET', path: `/integrations/${ORDERS}/schemas`, query: {}, body: undefined },
		]);
		expect(results).toEqual(['public', 'billing', 'audit'].map((name) => ({ name, value: name })));
	});

	it('filters the schemas by name', async () => {
		const { results } = await search('searchSchemas', getColumns, 'BILL');

		expect(results.map((result) => result.value)).toEqual(['billing']);
	});

	it('lists nothing, without a request, before an integration is set', async () => {
		const { results } = await search('searchSchemas', { ...getColumns, integrationId: '' });

		expect(results).toEqual([]);
		expect(emulator().requests).toHaveLength(0);
	});

	it('names the Integration ID field when it cannot be sent, or when the service has no such integration', async () => {
		await expect(search('searchSchemas', { ...getColumns, integrationId: '..' })).rejects.toThrow(
			'The field "Integration ID" cannot be "." or ".."',
		);
		expect(emulator().requests).toHaveLength(0);

		await expect(
			search('searchSchemas', { ...getColumns, integrationId: 'int_missing' }),
		).rejects.toMatchObject({
			description: `The service found nothing for Integration ID "int_missing". Check that the Integration ID names one that exists, and that the Base URL in the credential is the API's address, ending in /v1.`,
		});
	});

	it.each([
		['a list-mode locator', rl('list', 'billing')],
		['a by-name locator', rl('name', 'billing')],
		['a plain string', 'billing'],
	])('lists the tables of the schema given as %s', async (_label, schema) => {
		const { results } = await search('searchTables', { ...getColumns, schema });

		expect(results.map((result) => result.value)).toEqual(['invoices', 'refunds', 'tax_rates']);
	});

	it('filters the tables by name', async () => {
		const { results } = await search(
			'searchTables',
			{ ...getColumns, schema: rl('list', 'public') },
			'order',
		);

		expect(results.map((result) => result.value)).toEqual(['orders', 'order_items']);
	});

	it('lists nothing, without a request, before a schema is picked', async () => {
		const { results } = await search('searchTables', { ...getColumns, schema: rl('list', '') });

		expect(results).toEqual([]);
		expect(emulator().requests).toHaveLength(0);
	});

	it.each([
		["a new locator's default, without __rl", { schema: { mode: 'list', value: '' } }],
		['an Integration ID left an unresolved expression', { integrationId: '={{ $json.id }}' }],
	])('lists nothing, without a request, for %s', async (_name, given) => {
		const { results } = await search('searchTables', { ...getColumns, ...given });

		expect(results).toEqual([]);
		expect(emulator().requests).toHaveLength(0);
	});

	it('lists nothing for a schema the integration does not have', async () => {
		const { results } = await search('searchTables', { ...getColumns, schema: 'nope' });

		expect(results).toEqual([]);
	});
});

describe('list searches of Update Schemas changes (From List, or By Name)', () => {
	const parameters = {
		resource: 'integration',
		operation: 'updateSchemas',
		integrationId: ORDERS,
		updateMode: 'changes',
		changes: {
			change: [
				{ level: 'column', schema: rl('list', 'billing'), table: rl('name', 'invoices') },
				{ level: 'column', schema: rl('name', 'public'), table: rl('list', 'customers') },
			],
		},
	};
	const searchAt = (method: string, path: string, filter?: string) =>
		callNodeMethod<INodeListSearchResult>({
			credentials: credentials(),
			method,
			parameters: parameters as never,
			path,
			filter,
		});
	const values = ({ results }: INodeListSearchResult) => results.map(({ value }) => value);

	it("searchChangeSchemas lists the integration's schemas, filtered", async () => {
		const path = 'parameters.changes.change[0].schema';
		expect(values(await searchAt('searchChangeSchemas', path))).toEqual([
			'public',
			'billing',
			'audit',
		]);
		expect(values(await searchAt('searchChangeSchemas', path, 'BIL'))).toEqual(['billing']);
	});

	it('searchChangeTables lists the tables of the schema the same change names, in either mode', async () => {
		expect(
			values(await searchAt('searchChangeTables', 'parameters.changes.change[0].table')),
		).toEqual(['invoices', 'refunds', 'tax_rates']);
		expect(
			values(await searchAt('searchChangeTables', 'parameters.changes.change[1].table')),
		).toEqual(Object.keys(emulator().store.schemas.get(ORDERS)!.public.tables));
	});

	it('searchChangeColumns lists the columns of the schema and table the same change names', async () => {
		expect(
			values(await searchAt('searchChangeColumns', 'parameters.changes.change[1].column')),
		).toEqual(Object.keys(emulator().store.schemas.get(ORDERS)!.public.tables.customers.columns));
	});

	it('searchChangeColumns lists nothing, without a request, while the change names no table', async () => {
		const given = {
			...parameters,
			changes: { change: [{ level: 'column', schema: rl('name', 'public') }] },
		};
		const found = await callNodeMethod<INodeListSearchResult>({
			credentials: credentials(),
			method: 'searchChangeColumns',
			parameters: given as never,
			path: 'parameters.changes.change[0].column',
		});

		expect(found.results).toEqual([]);
		expect(emulator().requests).toHaveLength(0);
	});
});
