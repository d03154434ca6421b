import type { IDataObject } from 'n8n-workflow';

import { SEED } from '../emulator';
import { useEmulator } from '../helpers/emulator';
import { runActionNode } from '../helpers/n8n';
import { createAssetsVia, namedAssets, startCountingProxy, type CountingProxy } from './support';

const { emulator, credentials } = useEmulator();

let proxy: CountingProxy;
/** Requests whose body names one of these (or whose path ends in one) are held this long. */
let holds: Record<string, number> = {};

beforeAll(async () => {
	proxy = await startCountingProxy(emulator(), ({ path, body }) => {
		const name = (body as { name?: string } | undefined)?.name;
		return holds[name ?? ''] ?? holds[path.split('/').pop() ?? ''] ?? 0;
	});
});
afterAll(async () => await proxy.close());
beforeEach(() => {
	holds = {};
	proxy.resetCount();
});

const viaProxy = () => ({ ...credentials(), baseUrl: proxy.baseUrl });
const named = namedAssets;

/** Asset → Create of `items`, with Concurrency Mode Fixed at `concurrency`. */
const createAssets = (items: IDataObject[], concurrency: number, continueOnFail = false) =>
	createAssetsVia(
		proxy,
		credentials(),
		items,
		{ concurrencyMode: 'fixed', concurrency },
		continueOnFail,
	);

describe('Options → Concurrency Mode Fixed', () => {
	it('keeps exactly N requests in flight, never more', async () => {
		emulator().setLatency(60);

		const result = await createAssets(named(7), 3);

		expect(result.error).toBeUndefined();
		expect(proxy.maxInFlight).toBe(3);
		expect(emulator().requests).toHaveLength(7);
		expect(emulator().store.assets.size).toBe(2 + 7);
	});

	it('without Concurrency set sends one request at a time, in input order', async () => {
		emulator().setLatency(20);

		await createAssetsVia(proxy, credentials(), named(4), { concurrencyMode: 'fixed' });

		expect(proxy.maxInFlight).toBe(1);
		expect(emulator().requests.map((request) => (request.body as { name: string }).name)).toEqual([
			'asset-0',
			'asset-1',
			'asset-2',
			'asset-3',
		]);
	});

	it.each([1, 3])(
		'Concurrency %i added alone (no Concurrency Mode) is what runs: never more in flight',
		async (concurrency) => {
			emulator().setLatency(40);

			await createAssetsVia(proxy, credentials(), named(9), { concurrency });

			expect(proxy.maxInFlight).toBe(concurrency);
			expect(emulator().store.assets.size).toBe(2 + 9);
		},
	);

	it('without Concurrency, Concurrency Mode unset runs Auto: more than one in flight', async () => {
		emulator().setLatency(40);

		await createAssetsVia(proxy, credentials(), named(9), {});

		expect(proxy.maxInFlight).toBeGreaterThan(1);
	});

	it('outputs items in input order, each paired to its input, when answers arrive out of order', async () => {
		holds = { 'asset-0': 150, 'asset-1': 75 };

		const result = await createAssets(named(4), 4);

		// The held first requests reached the service, and were answered, last ...
		expect(proxy.completed).toHaveLength(4);
		expect(proxy.maxInFlight).toBe(4);
		const answerOrder = emulator().requests.map(
			(request) => (request.body as { name: string }).name,
		);
		expect(answerOrder.slice(-2)).toEqual(['asset-1', 'asset-0']);
		// ... yet the output follows the input.
		expect(result.items.map((item) => [item.json.name, item.pairedItem])).toEqual([
			['asset-0', { item: 0 }],
			['asset-1', { item: 1 }],
			['asset-2', { item: 2 }],
			['asset-3', { item: 3 }],
		]);
	});

	it('reports the failure of the lowest item, as one at a time would, even when a later one fails first', async () => {
		holds = { ast_slow_missing: 150 };
		const parameters = (concurrency: number) => ({
			resource: 'asset',
			operation: 'update',
			assetId: '={{ $json.id }}',
			updateFields: { description: 'x' },
			options: { concurrencyMode: 'fixed', concurrency },
		});
		const items = [
			{ id: SEED.assets.ordersDb },
			{ id: 'ast_slow_missing' },
			{ id: 'ast_fast_missing' },
		];

		const sequential = await runActionNode({
			credentials: viaProxy(),
			parameters: parameters(1),
			items,
		});
		const concurrent = await runActionNode({
			credentials: viaProxy(),
			parameters: parameters(3),
			items,
		});

		expect(sequential.error).toMatchObject({ httpCode: '404', context: { itemIndex: 1 } });
		expect(sequential.error?.message).toContain('ast_slow_missing');
		expect(concurrent.error).toMatchObject({ httpCode: '404', context: { itemIndex: 1 } });
		expect(concurrent.error?.message).toContain('ast_slow_missing');
		expect(concurrent.items).toEqual([]);
	});

	it('starts no new item after a failure', async () => {
		emulator().setLatency(30);
		emulator().injectFault({ kind: 'status', status: 500, method: 'POST' });

		const result = await createAssets(named(8), 2);

		expect(result.error).toMatchObject({ httpCode: '500', context: { itemIndex: 0 } });
		// The failing item and the one already beside it; none of the six after them.
		expect(emulator().requests).toHaveLength(2);
	});

	it('with continue-on-fail, pairs error items to their inputs in order and goes on', async () => {
		holds = { 'asset-1': 100 };
		emulator().injectFault({ kind: 'status', status: 500, method: 'POST', skip: 2 });

		const result = await createAssets(named(5), 3, true);

		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.pairedItem)).toEqual(
			[0, 1, 2, 3, 4].map((item) => ({ item })),
		);
		const failed = result.items.filter((item) => item.json.error);
		expect(failed).toHaveLength(1);
		expect(failed[0].json).toMatchObject({ httpCode: '500', code: 'INTERNAL_ERROR' });
		expect(
			result.items.filter((item) => item.json.name).map((item) => item.json.name),
		).toHaveLength(4);
		for (const item of result.items) {
			if (!item.json.error)
				expect(item.json.name).toBe(`asset-${(item.pairedItem as { item: number }).item}`);
		}
	});

	it('waits out a 429 in one item while the others go on', async () => {
		emulator().injectFault({
			kind: 'status',
			status: 429,
			retryAfterSeconds: 0,
			method: 'POST',
			skip: 1,
		});

		const result = await createAssets(named(4), 2);

		expect(result.error).toBeUndefined();
		expect(emulator().requests).toHaveLength(5);
		expect(result.items.map((item) => item.json.name)).toEqual([
			'asset-0',
			'asset-1',
			'asset-2',
			'asset-3',
		]);
	});

	it('without Concurrency set runs reads one item at a time too', async () => {
		emulator().setLatency(20);

		await runActionNode({
			credentials: viaProxy(),
			parameters: {
				resource: 'integration',
				operation: 'get',
				integrationId: SEED.integrations.ordersToSnowflake,
				options: { concurrencyMode: 'fixed' },
			},
			items: [{}, {}, {}],
		});

		expect(proxy.maxInFlight).toBe(1);
	});
});
