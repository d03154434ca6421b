/* eslint-disable no-console -- test tooling: prints the simulated figures; never part of the published package */
/**
 * Concurrency Auto against services without a rate limit but with finite capacity, on a fake
 * clock (./simulation.ts: the router's and the transport's own loops, real shared paces): one
 * that sheds load with 503 (without and with Retry-After), one that lets requests queue without
 * bound, and one without any limit. Auto is held against Concurrency Fixed on the same service
 * and seed: it fails no item where some fixed setting fails none, reaches 90% of the fastest such
 * setting, and holds at most 4 times the service's workers open. Runs in a row in one process do
 * not creep up to fill the service, and what processes learned while the service was quick
 * brings no more 503s than fresh processes meet.
 */
import { simulate, Processes, type CapacitySpec, type Outcome } from './simulation';

// On a fake clock, so the time allowed only catches a hang: a busy machine runs them slower.
jest.setTimeout(120_000);

const network = { roundTripMs: 20, jitterMs: 5 };
const noRateLimit = { limits: [{ requestsPerSecond: 1e9 }], burst: 1e9 };
const FIXED = [8, 16, 32, 64];
const SEEDS = [1, 2, 3, 4];
const ITEMS = 500;
const WORKERS = 8;

const services: Array<[string, CapacitySpec | undefined]> = [
	['sheds load with 503, no Retry-After', { workers: WORKERS, serviceMs: 20, queue: 8 }],
	[
		'sheds load with 503 and Retry-After: 1',
		{ workers: WORKERS, serviceMs: 20, queue: 8, retryAfterSeconds: 1 },
	],
	['queues without bound', { workers: WORKERS, serviceMs: 20 }],
];

const run = async (
	capacity: CapacitySpec | undefined,
	seed: number,
	fixed?: number,
	processes?: Processes,
) =>
	await simulate(
		{ ...network, ...noRateLimit, capacity, seed, runs: [{ items: ITEMS, fixed }] },
		processes,
	);

const figures = (outcome: Outcome) =>
	`${(outcome.ms / 1000).toFixed(2)} s, ${outcome.failed} failed, ${outcome.shed} 503s, ${outcome.maxOpen} open`;

describe('Concurrency Auto against services without a rate limit, over 4 seeds', () => {
	it.each(services)(
		'%s: no failed item, 90%% of the fastest fixed setting that fails none, at most 4x the workers open',
		async (name, capacity) => {
			for (const seed of SEEDS) {
				const auto = await run(capacity, seed);
				const fixed: Outcome[] = [];
				for (const limit of FIXED) fixed.push(await run(capacity, seed, limit));
				const best = Math.min(...fixed.filter((o) => o.failed === 0).map((o) => o.ms));
				console.log(
					`${name}, seed ${seed}: Auto ${figures(auto)}; ${fixed.map((o, i) => `Fixed ${FIXED[i]} ${figures(o)}`).join('; ')}`,
				);
				expect(auto.failed).toBe(0);
				expect(auto.ms).toBeLessThanOrEqual(best / 0.9);
				expect(auto.maxOpen).toBeLessThanOrEqual(4 * capacity!.workers);
			}
		},
	);

	it('runs in a row in one process, against 8 workers with 56 waiting: none fills the service (a limit that crept to 64 would), none fails, at most 6x the workers open', async () => {
		const capacity = { workers: WORKERS, serviceMs: 20, queue: 64 - WORKERS };
		for (const seed of SEEDS) {
			const processes = new Processes();
			const runs: Outcome[] = [];
			for (let count = 0; count < 7; count++)
				runs.push(await run(capacity, 10 * seed + count, undefined, processes));
			console.log(`runs in a row, seed ${seed}: ${runs.map(figures).join('; ')}`);
			expect(runs.map(({ failed, shed }) => failed + shed)).toEqual(Array(7).fill(0));
			// QUEUE_TOLERANCE's band settles near 2x here (14 to 18 open); a second run back to back
			// on a first that ended in slow start reached 42 once (docs/performance.md).
			expect(Math.max(...runs.map(({ maxOpen }) => maxOpen))).toBeLessThanOrEqual(6 * WORKERS);
		}
	});

	it('4 processes whose first runs met the service quick (2 ms), then a second later a run each at once against 8 workers with 24 waiting: no more than twice the 503s 4 fresh processes draw', async () => {
		const capacity = { workers: WORKERS, serviceMs: 20, queue: 24 };
		const atOnce = async (seed: number, processes = new Processes()) =>
			await simulate(
				{
					...network,
					...noRateLimit,
					capacity,
					seed,
					// A second after the first runs: longer idle than a round trip, each starts afresh.
					runs: [0, 1, 2, 3].map((index) => ({ items: 300, process: index, startAtMs: 1000 })),
				},
				processes,
			);
		for (const seed of SEEDS) {
			const processes = new Processes();
			const quick = { roundTripMs: 2, jitterMs: 5, ...noRateLimit, seed };
			for (const index of [0, 1, 2, 3])
				await simulate({ ...quick, runs: [{ items: 100, process: index }] }, processes);
			const [learned, fresh] = [await atOnce(seed, processes), await atOnce(seed)];
			console.log(`4 processes, seed ${seed}: ${figures(learned)}; fresh: ${figures(fresh)}`);
			expect(learned.failed).toBe(0);
			expect(learned.shed).toBeLessThanOrEqual(2 * fresh.shed);
		}
	});

	it('a 503 is sent again under Fixed too: 64 at once against 16 places, no failed item', async () => {
		const outcome = await run(services[0][1], 1, 64);
		expect(outcome.shed).toBeGreaterThan(0);
		expect(outcome.failed).toBe(0);
	});

	it('no limit at all: within 1.5x of a fixed 64 (slow start, from 10 in flight)', async () => {
		const auto = await run(undefined, 1);
		const fixed = await run(undefined, 1, 64);
		expect(auto.failed).toBe(0);
		expect(auto.ms).toBeLessThanOrEqual(1.5 * fixed.ms);
	});
});
