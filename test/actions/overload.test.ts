/**
 * Services without a rate limit but with finite capacity (the emulator's capacity model), through
 * n8n-core: Concurrency Auto slows down for 503s and for a queue that grows, and holds few
 * requests open; a 503 is sent again in either mode; nothing else is, and a write's error then
 * says the change may have been made.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { MAY_HAVE_ACTED } from '../../nodes/DataIntegrationManagement/transport/failures';
import { SEED } from '../emulator';
import { useEmulator } from '../helpers/emulator';
import { runActionNode } from '../helpers/n8n';
import { rl } from './support';

const { emulator, credentials } = useEmulator();

const WORKERS = 4;
const names = (count: number) => Array.from({ length: count }, (_, i) => ({ name: `tag-${i}` }));

/** Tag → Create of `items` with these Options, each failed item kept as an error item. */
const createTags = async (items: IDataObject[], options: INodeParameters = {}) =>
	await runActionNode({
		credentials: credentials(),
		continueOnFail: true,
		parameters: {
			resource: 'tag',
			operation: 'create',
			name: '={{ $json.name }}',
			owner: rl('list', SEED.users.maya),
			options,
		},
		items,
	});

/** The names of the tags the service holds that these runs created, sorted. */
const created = () =>
	[...emulator().store.tags.values()]
		.map((tag) => tag.name)
		.filter((name) => name.startsWith('tag-'))
		.sort();

describe('Concurrency Auto against a service of finite capacity', () => {
	it('sheds load with 503: every item is created once, nothing fails, at most its places held', async () => {
		emulator().capacity.set({ workers: WORKERS, serviceMs: 20, queue: WORKERS });

		const result = await createTags(names(120));

		expect(result.error).toBeUndefined();
		expect(result.items.filter((item) => item.json.error)).toEqual([]);
		expect(created()).toEqual(
			names(120)
				.map(({ name }) => name)
				.sort(),
		);
		expect(emulator().capacity.maxOpen).toBeLessThanOrEqual(2 * WORKERS);
	});

	it('against a queue without bound, holds well under its most open (64)', async () => {
		// The benchmark's service (8 workers, 20 ms each), after a warm-up under Fixed (which leaves
		// the pace alone), as the benchmark runs it: a cold process's first answers come slower (new
		// connections, code not yet optimised), and Auto's baseline is the median of its first ones.
		// Slow start's overshoot alone reaches 28 to 32 open here (4x the workers, held on the fake
		// clock in test/pacing/capacity.simulation.test.ts); a busy machine's own delays add to it
		// (49 once in a full local run), so real time holds it to 7x, which a window left to grow to 64
		// breaks.
		await createTags(
			names(40).map(({ name }) => ({ name: `warm-${name}` })),
			{ concurrencyMode: 'fixed', concurrency: 8 },
		);
		emulator().capacity.set({ workers: 2 * WORKERS, serviceMs: 20 });

		const result = await createTags(names(200));

		expect(result.items.filter((item) => item.json.error)).toEqual([]);
		expect(created()).toHaveLength(200);
		expect(emulator().capacity.maxOpen).toBeLessThanOrEqual(7 * 2 * WORKERS);
	});

	it('sends a request the service turned away with 503 and Retry-After again, after it', async () => {
		emulator().capacity.set({ workers: 1, serviceMs: 50, queue: 0, retryAfterSeconds: 1 });

		const result = await createTags(names(3));

		expect(result.items.filter((item) => item.json.error)).toEqual([]);
		expect(created()).toHaveLength(3);
		expect(emulator().capacity.shed).toBeGreaterThan(0);
	});
});

describe('Concurrency Fixed sends a 503 again too', () => {
	it('4 at once, the first 5 creates turned away: every item created once, none failed', async () => {
		emulator().injectFault({ kind: 'status', status: 503, method: 'POST', count: 5 });

		const result = await createTags(names(8), { concurrencyMode: 'fixed', concurrency: 4 });

		expect(result.items.filter((item) => item.json.error)).toEqual([]);
		expect(created()).toHaveLength(8);
		expect(emulator().requests.filter(({ method }) => method === 'POST')).toHaveLength(8 + 5);
	});
});

describe('what is not sent again', () => {
	it.each([
		['a 502', { kind: 'status', status: 502 }, '502'],
		['a 500', { kind: 'status', status: 500 }, '500'],
		['a dropped connection', { kind: 'drop' }, undefined],
	] as const)(
		'a write after %s: sent once, its error says the change may have been made',
		async (_title, fault, httpCode) => {
			emulator().injectFault({ ...fault, method: 'POST', count: 1 });

			const result = await createTags(names(1), { concurrencyMode: 'fixed' });

			expect(emulator().requests.filter(({ method }) => method === 'POST')).toHaveLength(1);
			expect(result.items[0].json).toMatchObject({
				...(httpCode ? { httpCode } : {}),
				description: expect.stringContaining(MAY_HAVE_ACTED),
			});
		},
	);

	it('a read after a 502: sent once, its error says nothing of a change', async () => {
		emulator().injectFault({ kind: 'status', status: 502, method: 'GET', count: 1 });

		const result = await runActionNode({
			credentials: credentials(),
			continueOnFail: true,
			parameters: { resource: 'user', operation: 'getAll', returnAll: true },
		});

		expect(emulator().requests).toHaveLength(1);
		expect(result.items[0].json).toMatchObject({ httpCode: '502' });
		expect(String(result.items[0].json.description)).not.toContain(MAY_HAVE_ACTED);
	});

	it('a write the service turned away with 503: sent again, created once', async () => {
		emulator().injectFault({
			kind: 'status',
			status: 503,
			retryAfterSeconds: 0,
			method: 'POST',
			count: 1,
		});

		const result = await createTags(names(1), { concurrencyMode: 'fixed' });

		expect(emulator().requests.filter(({ method }) => method === 'POST')).toHaveLength(2);
		expect(result.items[0].json).toEqual({
			id: expect.any(String),
			name: 'tag-0',
			owner: expect.any(String),
		});
		expect(created()).toEqual(['tag-0']);
	});
});
