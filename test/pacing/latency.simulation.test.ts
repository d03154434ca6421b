/* eslint-disable no-console -- test tooling: prints the simulated figures; never part of the published package */
/**
 * Concurrency Auto against services whose answers vary in time, 600 creates as in the issue's own
 * runs, on a fake clock (./simulation.ts: the router's and the transport's own loops, real shared
 * paces), as section 9 of `npm run bench` measures them in real time: round trips drawn between
 * 10 and 100 ms; a heavy tail (one in ten ten times slower); 16 workers whose service time has
 * that tail, 32 waiting, then 503; and a service that slows down (2 -> 100 ms, after a first run
 * that reached 64 in flight, or one its client bound to a few) or speeds up (100 -> 2 ms) between
 * a first run and the measured one, in the same process (the same registry of paces). Seed by
 * seed, Auto fails no item where a fixed setting fails none and holds at most 4 times the workers
 * open; over the seeds, a run after another takes at most 1.25 times a fresh process's time, and
 * its median is within the fastest fixed setting's / 0.9 where capacity is finite. Without a
 * limit, it is held to 1.5 times that setting: this simulated client costs nothing, so slow
 * start's round trips (4 to 64 in flight), which every run that finds no other on its pace pays,
 * lose a fifth to a quarter of the run to Fixed 64 here (docs/performance.md has them in real time).
 */
import { simulate, Processes, type Outcome, type Scenario } from './simulation';
import type { ServiceSpec } from './simulated-service';

// On a fake clock, so the time allowed only catches a hang: a busy machine runs them slower.
jest.setTimeout(120_000);

type Network = Omit<ServiceSpec, 'limits' | 'burst'>;

interface Service {
	/** What the service is from the measured run on. */
	network: Network;
	/** The service a first run of FIRST_ITEMS met, in the same process, before it changed. */
	before?: Network;
}

const noRateLimit = { limits: [{ requestsPerSecond: 1e9 }], burst: 1e9 };
const FIXED = [8, 16, 32, 64];
const SEEDS = Array.from({ length: 10 }, (_, index) => index + 1);
const ITEMS = 600;
const FIRST_ITEMS = 100;
// Up to 5 ms each way, as elsewhere: at 2 ms it stands for the client's own time in real runs.
const fast: Network = { roundTripMs: 2, jitterMs: 5 };
const slow: Network = { roundTripMs: 100, jitterMs: 5 };
// A first run its client's processor bound, as in real time: round trips grow with what is in flight.
const clientBound: Network = {
	roundTripMs: 1,
	jitterMs: 1,
	capacity: { workers: 2, serviceMs: 1 },
};

/** A service without a limit, measured after a first run against it in the same process. */
const warmedUp = (network: Network): Service => ({ network, before: network });

const SERVICES: Array<[string, Service]> = [
	[
		'(e) round trips of 10 to 100 ms, uniform',
		warmedUp({ roundTripMs: 10, roundTripMaxMs: 100, jitterMs: 0 }),
	],
	[
		'(f) a heavy tail: 20 ms, one in ten 200 ms',
		warmedUp({ roundTripMs: 20, tailMs: 200, tailOneIn: 10, jitterMs: 5 }),
	],
	[
		'(g) 16 workers x 10 ms, one in ten 150 ms, 32 waiting, then 503',
		{
			network: {
				roundTripMs: 20,
				jitterMs: 5,
				capacity: { workers: 16, serviceMs: 10, tailMs: 150, tailOneIn: 10, queue: 32 },
			},
		},
	],
	['(h) slows down between runs: 2 ms, then 100 ms', { network: slow, before: fast }],
	[
		'(h) likewise, after a first run its client bound to a few in flight',
		{ network: slow, before: clientBound },
	],
	['(i) speeds up between runs: 100 ms, then 2 ms', { network: fast, before: slow }],
];

/**
 * Where the design misses a target here, the figure it is held to instead, so that it gets no
 * worse (docs/performance.md gives each miss and why): (g)'s tail holds its window below Fixed
 * 32's.
 */
const MISSED: Record<string, { share?: number; afterFresh?: number }> = {
	'(g) 16 workers x 10 ms, one in ten 150 ms, 32 waiting, then 503': { share: 0.85 },
};

interface Measured {
	seed: number;
	/** Auto's measured run: after the first run where there is one, in the same process. */
	auto: Outcome;
	/** Auto in a fresh process, where a first run came before the measured one. */
	fresh?: Outcome;
	fixed: Outcome[];
	/** The fastest fixed setting that failed no item, ms; undefined when every one failed some. */
	best?: number;
}

const scenario = (network: Network, seed: number, items: number, fixed?: number): Scenario => ({
	...network,
	...noRateLimit,
	seed,
	runs: [{ items, fixed }],
});

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
/** A run's time and failed items, and against finite capacity its 503s and the most held open. */
const figures = (outcome: Outcome, finite: boolean) =>
	`${seconds(outcome.ms)}, ${outcome.failed} failed${finite ? `, ${outcome.shed} 503s, ${outcome.maxOpen} open` : ''}`;

async function measureSeed(name: string, service: Service, seed: number): Promise<Measured> {
	const processes = new Processes();
	if (service.before) await simulate(scenario(service.before, seed, FIRST_ITEMS), processes);
	const auto = await simulate(scenario(service.network, seed, ITEMS), processes);
	const fresh = service.before && (await simulate(scenario(service.network, seed, ITEMS)));
	const fixed: Outcome[] = [];
	for (const limit of FIXED)
		fixed.push(await simulate(scenario(service.network, seed, ITEMS, limit)));
	const clean = fixed.filter((outcome) => outcome.failed === 0).map((outcome) => outcome.ms);
	const best = clean.length ? Math.min(...clean) : undefined;
	const finite = service.network.capacity !== undefined;
	const share =
		best === undefined ? '' : ` (${((best / auto.ms) * 100).toFixed(0)}% of the best fixed)`;
	const afresh = fresh
		? `; Auto in a fresh process ${figures(fresh, finite)} (after: ${(auto.ms / fresh.ms).toFixed(2)}x)`
		: '';
	console.log(
		`${name}, seed ${seed}: Auto ${figures(auto, finite)}${share}${afresh}; ${fixed.map((o, i) => `Fixed ${FIXED[i]} ${figures(o, finite)}`).join('; ')}`,
	);
	return { seed, auto, fresh, fixed, best };
}

/** Each service's figures, seed by seed, measured once for the cases that read them. */
const measured = new Map<string, Promise<Measured[]>>();
async function overSeeds(name: string, service: Service): Promise<Measured[]> {
	if (!measured.has(name))
		measured.set(
			name,
			(async () => {
				const all: Measured[] = [];
				for (const seed of SEEDS) all.push(await measureSeed(name, service, seed));
				return all;
			})(),
		);
	return await measured.get(name)!;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1];

/** The targets Auto missed, a line each: none when it met them all. */
function misses(name: string, service: Service, all: Measured[]): string[] {
	const workers = service.network.capacity?.workers;
	const missed: Array<string | false> = all.flatMap(({ seed, auto, best }) => [
		best !== undefined &&
			auto.failed > 0 &&
			`seed ${seed}: ${auto.failed} failed items where a fixed setting failed none`,
		workers !== undefined &&
			auto.maxOpen > 4 * workers &&
			`seed ${seed}: ${auto.maxOpen} open, over 4 x ${workers} workers`,
	]);
	const share = median(all.map(({ auto, best }) => (best ?? 0) / auto.ms));
	const least = MISSED[name]?.share ?? (workers === undefined ? 1 / 1.5 : 0.9);
	if (share < least)
		missed.push(`median ${(share * 100).toFixed(0)}% of the fastest fixed setting`);
	return missed.filter((miss) => miss !== false);
}

describe(`Concurrency Auto against services whose answers vary in time, ${ITEMS} items, over ${SEEDS.length} seeds`, () => {
	it.each(SERVICES)(
		'%s: no failed item where a fixed setting fails none, at most 4x the workers open, a median 90%% of the fastest such setting (without a limit, within slow start of it: 1.5x)',
		async (name, service) => {
			expect(misses(name, service, await overSeeds(name, service))).toEqual([]);
		},
	);

	it.each(SERVICES.filter(([, service]) => service.before))(
		'%s: after a first run, the same process takes at most 1.25x a fresh process (median)',
		async (name, service) => {
			const all = await overSeeds(name, service);
			const most = MISSED[name]?.afterFresh ?? 1.25;
			expect(median(all.map(({ auto, fresh }) => auto.ms / fresh!.ms))).toBeLessThanOrEqual(most);
		},
	);

	it('a run after another on the same processes is the same every time', async () => {
		const twice = async () => {
			const processes = new Processes();
			await simulate(scenario(fast, 9, FIRST_ITEMS), processes);
			return await simulate(scenario({ ...slow, tailMs: 300, tailOneIn: 10 }, 9, 50), processes);
		};
		expect(await twice()).toEqual(await twice());
	});
});
