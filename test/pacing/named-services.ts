/**
 * The services the benchmark names (sections 5, 8, 9 and A of `npm run bench`, and the issue's
 * checks), on the fake clock (./simulation.ts): each measured under Auto and under Fixed 8, 16, 32
 * and 64 on the same seed, as ./drawn-services.ts does for drawn ones. The simulation tests hold
 * Auto to its targets on them; `npm run simulate` prints them.
 */
import { FIXED } from './drawn-services';
import { simulate, Processes, type Outcome, type Scenario } from './simulation';
import type { CapacitySpec, ServiceSpec } from './simulated-service';

type Network = Omit<ServiceSpec, 'limits' | 'burst'>;

export interface NamedService {
	name: string;
	network: Network;
	items: number;
	/** The network a first run of 100 met, in the same process, before the measured one. */
	before?: Network;
	/** Runs one right after the other, each of `items`, all measured together. */
	runs?: number;
}

const noRateLimit = { limits: [{ requestsPerSecond: 1e9 }], burst: 1e9 };
const lan: Network = { roundTripMs: 20, jitterMs: 5 };
const workers = (capacity: CapacitySpec): Network => ({ ...lan, capacity });
const clientBound: Network = {
	roundTripMs: 1,
	jitterMs: 1,
	capacity: { workers: 2, serviceMs: 1 },
};

export const NAMED: NamedService[] = [
	{
		name: '8 (a) 8 workers, queue 8, 503',
		network: workers({ workers: 8, serviceMs: 20, queue: 8 }),
		items: 500,
	},
	{
		name: '8 (b) the same, Retry-After: 1',
		network: workers({ workers: 8, serviceMs: 20, queue: 8, retryAfterSeconds: 1 }),
		items: 500,
	},
	{
		name: '8 (c) 8 workers, unbounded queue',
		network: workers({ workers: 8, serviceMs: 20 }),
		items: 500,
	},
	{ name: '8 (d) no limit', network: lan, items: 500 },
	{
		name: 'issue: 8 workers x 25 ms, queue 16, 503',
		network: workers({ workers: 8, serviceMs: 25, queue: 16 }),
		items: 1000,
	},
	{
		name: 'issue: the same, Retry-After: 1',
		network: workers({ workers: 8, serviceMs: 25, queue: 16, retryAfterSeconds: 1 }),
		items: 1000,
	},
	{
		name: 'issue: 8 workers x 25 ms, unbounded queue',
		network: workers({ workers: 8, serviceMs: 25 }),
		items: 1000,
	},
	{
		name: '9 (e) 10 to 100 ms',
		network: { roundTripMs: 10, roundTripMaxMs: 100, jitterMs: 0 },
		items: 600,
	},
	{
		name: '9 (f) 20 ms, 1 in 10 200 ms',
		network: { ...lan, tailMs: 200, tailOneIn: 10 },
		items: 600,
	},
	{
		name: '9 (g) 16 workers x 10 ms, 1 in 10 150 ms, queue 32',
		network: workers({ workers: 16, serviceMs: 10, tailMs: 150, tailOneIn: 10, queue: 32 }),
		items: 600,
	},
	{
		name: '9 (h) 2 ms, then 100 ms',
		network: { roundTripMs: 100, jitterMs: 5 },
		before: { roundTripMs: 2, jitterMs: 5 },
		items: 600,
	},
	{
		name: '9 (h) after a client-bound run',
		network: { roundTripMs: 100, jitterMs: 5 },
		before: clientBound,
		items: 600,
	},
	{
		name: '9 (i) 100 ms, then 2 ms',
		network: { roundTripMs: 2, jitterMs: 5 },
		before: { roundTripMs: 100, jitterMs: 5 },
		items: 600,
	},
	{
		name: 'back to back: 10 runs of 100, 50 to 100 ms',
		network: { roundTripMs: 50, roundTripMaxMs: 100, jitterMs: 0 },
		items: 100,
		runs: 10,
	},
];

/** Auto's and each fixed setting's outcome on `named` with `seed`, and Auto's fresh after a change. */
export interface NamedFigures {
	auto: Outcome;
	fresh?: Outcome;
	fixed: Outcome[];
	/** The fastest fixed setting's time over Auto's, of those that failed no item. */
	ofBestFixed?: number;
}

const scenario = (network: Network, seed: number, items: number, fixed?: number): Scenario => ({
	...network,
	...noRateLimit,
	seed,
	runs: [{ items, fixed }],
});

/** `runs` runs one after the other in one process: their outcomes, the time from the first start. */
async function inTurn(network: Network, seed: number, named: NamedService, fixed?: number) {
	const processes = new Processes();
	if (named.before) await simulate(scenario(named.before, seed, 100), processes);
	const start = processes.clock.now();
	const all: Outcome[] = [];
	for (let run = 0; run < (named.runs ?? 1); run++)
		all.push(await simulate(scenario(network, seed * 100 + run, named.items, fixed), processes));
	const most = (key: 'failed' | 'shed' | 'maxOpen', sum = true) =>
		all.reduce((a, outcome) => (sum ? a + outcome[key] : Math.max(a, outcome[key])), 0);
	const ms = processes.clock.now() - start;
	return {
		...all[0],
		failed: most('failed'),
		shed: most('shed'),
		maxOpen: most('maxOpen', false),
		ms,
	};
}

export async function measureNamed(named: NamedService, seed: number): Promise<NamedFigures> {
	const auto = await inTurn(named.network, seed, named);
	const fresh =
		named.before && (await inTurn(named.network, seed, { ...named, before: undefined }));
	const fixed: Outcome[] = [];
	for (const limit of FIXED)
		fixed.push(await inTurn(named.network, seed, { ...named, before: undefined }, limit));
	const clean = fixed.filter((outcome) => outcome.failed === 0).map((outcome) => outcome.ms);
	return {
		auto,
		fresh,
		fixed,
		...(clean.length && { ofBestFixed: Math.min(...clean) / auto.ms }),
	};
}

/** Rate limits (sections 5 and A): share of the limit, 429s, fairness of runs at once. */
export const RATE_NAMED: Array<[string, Omit<Scenario, 'seed'>]> = [
	...(
		[
			[50, 10],
			[137, 3],
			[400, 10],
			[1000, 10],
		] as const
	).map(([requestsPerSecond, burst]): [string, Omit<Scenario, 'seed'>] => [
		`one run, ${requestsPerSecond}/s, bursts of ${burst}, 20 s of items`,
		{ ...lan, runs: [{ items: 20 * requestsPerSecond }], limits: [{ requestsPerSecond }], burst },
	]),
	[
		'issue: 600 items at 137/s, bursts of 3',
		{ ...lan, runs: [{ items: 600 }], limits: [{ requestsPerSecond: 137 }], burst: 3 },
	],
	...(
		[
			['4 runs in one process at once', () => ({})],
			['4 runs in one process 2 s apart', (index: number) => ({ startAtMs: 2000 * index })],
			['4 processes at once', (index: number) => ({ process: index })],
			['4 processes 2 s apart', (index: number) => ({ process: index, startAtMs: 2000 * index })],
		] as const
	).map(([name, spec]): [string, Omit<Scenario, 'seed'>] => [
		name,
		{
			...lan,
			runs: [0, 1, 2, 3].map((index) => ({ items: 200, ...spec(index) })),
			limits: [{ requestsPerSecond: 100 }],
			burst: 10,
		},
	]),
];
