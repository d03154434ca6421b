import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { SEED } from '../emulator';
import { useEmulator } from '../helpers/emulator';
import { runActionNode } from '../helpers/n8n';
import { sent } from './support';

const { emulator, credentials } = useEmulator();

const run = (
	parameters: INodeParameters,
	options: { items?: IDataObject[]; continueOnFail?: boolean } = {},
) =>
	runActionNode({
		credentials: credentials(),
		parameters: { resource: 'asset', ...parameters },
		...options,
	});

const connection = { host: 'warehouse.internal', port: 5439, ssl: true };

describe('asset create', () => {
	it.each([
		['an object', connection],
		['JSON text', JSON.stringify(connection)],
	])('sends name, type, description and a connection given as %s', async (_label, given) => {
		const result = await run({
			operation: 'create',
			name: 'Warehouse',
			type: 'redshift',
			additionalFields: { description: 'Finance warehouse', connection: given },
		});

		expect(sent(emulator())).toEqual([
			{
				method: 'POST',
				path: '/assets',
				query: {},
				body: { name: 'Warehouse', type: 'redshift', description: 'Finance warehouse', connection },
			},
		]);
		const json = result.items[0].json;
		expect(json).toEqual({
			id: expect.stringMatching(/^ast_/),
			name: 'Warehouse',
			type: 'redshift',
			description: 'Finance warehouse',
			connection,
		});
		expect(result.items[0].pairedItem).toEqual({ item: 0 });
		expect(emulator().store.assets.get(json.id as string)?.connection).toEqual(connection);
	});

	it('leaves out the optional fields that were not given', async () => {
		await run({ operation: 'create', name: 'Bare', type: 'file' });

		expect(sent(emulator())[0].body).toEqual({ name: 'Bare', type: 'file' });
	});

	it.each([
		['text that is not JSON', '{"host": '],
		['a JSON array', '[1, 2]'],
		['a JSON number', '42'],
		['JSON null', 'null'],
	])(
		'rejects a connection given as %s, naming the field and item, with no request',
		async (_label, given) => {
			const result = await run({
				operation: 'create',
				name: 'Broken',
				type: 'postgres',
				additionalFields: { connection: given },
			});

			expect(result.error).toMatchObject({ name: 'NodeOperationError', context: { itemIndex: 0 } });
			expect(result.error?.message).toMatch(
				/^The field "Connection" (is not valid JSON|must be a JSON object) \(item 0\)/,
			);
			expect(emulator().requests).toHaveLength(0);
		},
	);

	it('with continue-on-fail, sends the good items and turns the bad one into an error item', async () => {
		const result = await run(
			{
				operation: 'create',
				name: 'Batch',
				type: 'postgres',
				additionalFields: { connection: '={{ $json.connection }}' },
			},
			{
				items: [
					{ connection: '{"db": "a"}' },
					{ connection: 'not json' },
					{ connection: '{"db": "c"}' },
				],
				continueOnFail: true,
			},
		);

		expect(sent(emulator()).map((request) => request.body)).toEqual([
			{ name: 'Batch', type: 'postgres', connection: { db: 'a' } },
			{ name: 'Batch', type: 'postgres', connection: { db: 'c' } },
		]);
		expect(result.items.map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
		]);
		expect(result.items[0].json.id).toMatch(/^ast_/);
		expect(result.items[1].json.error).toMatch(
			/^The field "Connection" is not valid JSON \(item 1\)/,
		);
		expect(result.items[2].json.id).toMatch(/^ast_/);
	});
});

describe('asset update', () => {
	it('sends name, description and connection, never type, and returns the id with the fields sent', async () => {
		const result = await run({
			operation: 'update',
			assetId: SEED.assets.ordersDb,
			updateFields: {
				name: 'Orders DB',
				description: 'Moved',
				connection: JSON.stringify(connection),
			},
		});

		expect(sent(emulator())).toEqual([
			{
				method: 'PATCH',
				path: `/assets/${SEED.assets.ordersDb}`,
				query: {},
				body: { name: 'Orders DB', description: 'Moved', connection },
			},
		]);
		expect(result.items).toEqual([
			{
				json: { id: SEED.assets.ordersDb, name: 'Orders DB', description: 'Moved', connection },
				pairedItem: { item: 0 },
			},
		]);
		expect(emulator().store.assets.get(SEED.assets.ordersDb)).toMatchObject({
			name: 'Orders DB',
			type: 'database',
			connection,
		});
	});

	it('does not send type even when an old workflow still holds one under Update Fields', async () => {
		const result = await run({
			operation: 'update',
			assetId: SEED.assets.revenueDashboard,
			updateFields: { name: 'Revenue', type: 'report' },
		});

		expect(result.error).toBeUndefined();
		expect(sent(emulator())[0].body).toEqual({ name: 'Revenue' });
	});

	it('fails with a clear error and sends nothing when no field is given', async () => {
		const result = await run({
			operation: 'update',
			assetId: SEED.assets.ordersDb,
			updateFields: {},
		});

		expect(result.error?.message).toBe(
			'Set at least one of Connection, Description, Name under "Update Fields" (item 0)',
		);
		expect(emulator().requests).toHaveLength(0);
	});

	it('rejects a connection that is not a JSON object before any request', async () => {
		const result = await run({
			operation: 'update',
			assetId: SEED.assets.ordersDb,
			updateFields: { name: 'Still sent?', connection: '["a"]' },
		});

		expect(result.error?.message).toBe('The field "Connection" must be a JSON object (item 0)');
		expect(emulator().requests).toHaveLength(0);
		expect(emulator().store.assets.get(SEED.assets.ordersDb)?.name).toBe('Orders database');
	});

	it('updates one asset per input item, in order', async () => {
		const result = await run(
			{
				operation: 'update',
				assetId: SEED.assets.ordersDb,
				updateFields: { description: 'Same for all' },
			},
			{ items: [{}, {}] },
		);

		expect(sent(emulator()).map((request) => `${request.method} ${request.path}`)).toEqual([
			`PATCH /assets/${SEED.assets.ordersDb}`,
			`PATCH /assets/${SEED.assets.ordersDb}`,
		]);
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
	});
});
