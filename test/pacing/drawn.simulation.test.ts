/* eslint-disable no-console, @n8n/community-nodes/no-restricted-globals -- test tooling: prints the simulated figures; never part of the published package */
/**
 * Concurrency Auto on services drawn at random (./drawn-services.ts), on the fake clock. In
 * `npm test`, a few seeds (seconds); in `npm run test:full`, which CI runs, 300 seeds the design
 * was not tuned on (1001 to 1300); `SIMULATION_SEEDS=<from>-<to>` runs those asked, and
 * `npm run simulate` prints the distribution of each figure (docs/pacer.md).
 */
import { atScale } from '../helpers/scale';
import { distribution, drawService, measure, seedsOf, type DrawnFigures } from './drawn-services';

// On a fake clock, so the time allowed only catches a hang: a busy machine runs them slower.
jest.setTimeout(600_000);

const SEEDS = seedsOf(process.env.SIMULATION_SEEDS ?? `1001-${atScale(1004, 1300)}`);

describe('the services drawn', () => {
	it('are the same for a seed, and span each kind of service', () => {
		expect(drawService(7)).toEqual(drawService(7));
		const drawn = seedsOf('1-200').map(drawService);
		const share = (has: (one: (typeof drawn)[number]) => boolean) =>
			drawn.filter(has).length / drawn.length;
		expect(share((one) => one.rate !== undefined)).toBeGreaterThan(0.2);
		expect(share((one) => one.service.capacity !== undefined)).toBeGreaterThan(0.35);
		expect(
			share((one) => one.service.capacity?.queue === undefined && one.rate === undefined),
		).toBeGreaterThan(0.3);
		expect(share((one) => one.beforeMs !== undefined)).toBeGreaterThan(0.15);
		for (const one of drawn) {
			expect(one.items).toBeGreaterThanOrEqual(300);
			expect(one.items).toBeLessThanOrEqual(3000);
		}
	});
});

describe(`Concurrency Auto on ${SEEDS.length} drawn services`, () => {
	const all: DrawnFigures[] = [];
	beforeAll(async () => {
		for (const seed of SEEDS) all.push(await measure(drawService(seed)));
	});

	it('fails no item where a fixed setting fails none', () => {
		const failed = all.filter((one) => (one.failed ?? 0) > 0).map((one) => one.drawn.seed);
		expect(failed).toEqual([]);
	});

	it('prints the worst and the median of each figure', () => {
		for (const { name, count, worst, median, missed } of distribution(all))
			console.log(
				`${name}: ${count}, worst ${worst?.value}, median ${median}, ${missed.length} miss`,
			);
		expect(distribution(all).map(({ figure }) => figure)).toContain('ofBestFixed');
	});
});
