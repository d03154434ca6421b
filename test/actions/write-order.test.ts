/**
 * Items are rows: where two items change one record, the later one wins, at any concurrency.
 * Each case runs the node through n8n-core against an emulator that holds the first write(s) to
 * the record in transit (200 or 300 ms): a node that sent a later write meanwhile would see it
 * overwritten by the earlier one.
 */
import { ExecuteContext } from 'n8n-core';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { SEED } from '../emulator';
import { useEmulator } from '../helpers/emulator';
import { runActionNode } from '../helpers/n8n';

const { emulator, credentials } = useEmulator();

const FIXED_8 = { options: { concurrencyMode: 'fixed', concurrency: 8 } };

const SETTINGS: Array<[string, { options?: INodeParameters }]> = [
	['options unset (Auto)', {}],
	['Fixed 8', FIXED_8],
	['Auto with Max Concurrency 8', { options: { concurrencyMode: 'auto', maxConcurrency: 8 } }],
	['Fixed, one at a time', { options: { concurrencyMode: 'fixed' } }],
];

/** Runs the node with `parameters` over `items` under a setting; fails the test on any error. */
async function run(
	setting: (typeof SETTINGS)[number][1],
	parameters: INodeParameters,
	items: IDataObject[],
) {
	const result = await runActionNode({
		credentials: credentials(),
		parameters: { ...parameters, ...(setting.options ? { options: setting.options } : {}) },
		items,
	});
	expect(result.error).toBeUndefined();
	return result;
}

describe.each(SETTINGS)('two items on one record, %s: the later one wins', (_name, setting) => {
	it('Asset → Update renaming one asset twice', async () => {
		const path = `/assets/${SEED.assets.ordersDb}`;
		emulator().holdInTransit({ method: 'PATCH', path, ms: 300 });

		await run(
			setting,
			{
				resource: 'asset',
				operation: 'update',
				assetId: SEED.assets.ordersDb,
				updateFields: { name: '={{ $json.name }}' },
			},
			[{ name: 'first-name' }, { name: 'second-name' }],
		);

		expect(emulator().store.assets.get(SEED.assets.ordersDb)?.name).toBe('second-name');
	});

	it('Tag → Update naming one tag twice', async () => {
		emulator().holdInTransit({ method: 'PUT', path: `/tags/${SEED.tags.gdpr}`, ms: 300 });

		await run(
			setting,
			{
				resource: 'tag',
				operation: 'update',
				tagId: SEED.tags.gdpr,
				updateFields: { name: '={{ $json.name }}' },
			},
			[{ name: 'GDPR-1' }, { name: 'GDPR-2' }],
		);

		expect(emulator().store.tags.get(SEED.tags.gdpr)?.name).toBe('GDPR-2');
	});

	it('Tag → Update writing one description four times, the first two held', async () => {
		emulator().holdInTransit({ method: 'PUT', path: `/tags/${SEED.tags.pii}`, ms: 200, count: 2 });

		await run(
			setting,
			{
				resource: 'tag',
				operation: 'update',
				// The id from each item, as an expression: known only per item.
				tagId: '={{ $json.tagId }}',
				updateFields: { description: '={{ $json.description }}' },
			},
			['one', 'two', 'three', 'four'].map((description) => ({
				tagId: SEED.tags.pii,
				description,
			})),
		);

		expect(emulator().store.tags.get(SEED.tags.pii)?.description).toBe('four');
	});

	it('Integration → Update Schemas hashing two columns of one table, one per item', async () => {
		const path = `/integrations/${SEED.integrations.ordersToSnowflake}/schemas`;
		emulator().holdInTransit({ method: 'PATCH', path, ms: 300 });

		await run(
			setting,
			{
				resource: 'integration',
				operation: 'updateSchemas',
				integrationId: SEED.integrations.ordersToSnowflake,
				updateMode: 'json',
				schemas: '={{ JSON.stringify($json.schemas) }}',
			},
			['full_name', 'country'].map((column) => ({
				schemas: { public: { tables: { customers: { columns: { [column]: { hashed: true } } } } } },
			})),
		);

		const { columns } = emulator().store.getSchemas(SEED.integrations.ordersToSnowflake).public
			.tables.customers;
		expect([columns.full_name.hashed, columns.country.hashed]).toEqual([true, true]);
	});
});

describe('what is not held back', () => {
	/** Whether every request reached the service before it answered any (each was held 300 ms). */
	const allInFlightTogether = () => {
		const { traffic } = emulator().rateLimit;
		expect(traffic).toHaveLength(4);
		return (
			Math.max(...traffic.map(({ arrivedAt }) => arrivedAt)) <
			Math.min(...traffic.map(({ answeredAt }) => answeredAt))
		);
	};

	it('writes to different records are in flight together', async () => {
		const ids = [SEED.tags.pii, SEED.tags.finance, SEED.tags.gdpr, SEED.tags.deprecated];
		for (const id of ids) emulator().holdInTransit({ path: `/tags/${id}`, ms: 300 });

		await run(
			FIXED_8,
			{
				resource: 'tag',
				operation: 'update',
				tagId: '={{ $json.tagId }}',
				updateFields: { description: 'checked' },
			},
			ids.map((tagId) => ({ tagId })),
		);

		expect(allInFlightTogether()).toBe(true);
		for (const id of ids) expect(emulator().store.tags.get(id)?.description).toBe('checked');
	});

	it('reads of one record are in flight together', async () => {
		const id = SEED.integrations.ordersToSnowflake;
		emulator().holdInTransit({ method: 'GET', path: `/integrations/${id}`, ms: 300, count: 4 });

		const result = await run(
			FIXED_8,
			{ resource: 'integration', operation: 'get', integrationId: id },
			[{}, {}, {}, {}],
		);

		expect(result.items).toHaveLength(4);
		expect(allInFlightTogether()).toBe(true);
	});

	it("an item's record is resolved once, so the order is decided on the value sent", async () => {
		// n8n-core's own resolution of a parameter, which ExecuteContext.getNodeParameter calls
		const context = ExecuteContext.prototype as unknown as {
			_getNodeParameter(parameter: string, itemIndex: number): unknown;
		};
		const resolve = jest.spyOn(context, '_getNodeParameter');
		try {
			await run(
				SETTINGS[0][1],
				{ resource: 'tag', operation: 'create', name: '={{ $json.name }}', owner: SEED.users.maya },
				[{ name: 'Once A' }, { name: 'Once B' }, { name: 'Once C' }],
			);
			const names = resolve.mock.calls.filter(([parameter]) => parameter === 'name');
			expect(names.map(([, itemIndex]) => itemIndex)).toEqual([0, 1, 2]);
		} finally {
			resolve.mockRestore();
		}
	});

	it('an item whose record cannot be resolved fails on that one resolution, before any request; the others go on', async () => {
		const context = ExecuteContext.prototype as unknown as {
			_getNodeParameter(parameter: string, itemIndex: number): unknown;
		};
		const resolve = jest.spyOn(context, '_getNodeParameter');
		try {
			const result = await runActionNode({
				credentials: credentials(),
				parameters: {
					resource: 'tag',
					operation: 'update',
					tagId: '={{ $json.tag ? $json.tag.id : $("No such node").item.json.id }}',
					updateFields: { description: 'resolved once' },
					options: FIXED_8.options,
				},
				items: [{ tag: { id: SEED.tags.gdpr } }, {}, { tag: { id: SEED.tags.pii } }],
				continueOnFail: true,
			});

			const ids = resolve.mock.calls.filter(([parameter]) => parameter === 'tagId');
			expect(ids.map(([, itemIndex]) => itemIndex).sort()).toEqual([0, 1, 2]);
			expect(result.items.map(({ json }) => Object.keys(json).includes('error'))).toEqual([
				false,
				true,
				false,
			]);
			expect(
				emulator()
					.requests.map(({ method, path }) => `${method} ${path}`)
					.sort(),
			).toEqual([`PUT /tags/${SEED.tags.gdpr}`, `PUT /tags/${SEED.tags.pii}`].sort());
		} finally {
			resolve.mockRestore();
		}
	});
});
