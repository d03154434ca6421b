/**
 * Services drawn at random, for Concurrency Auto on the fake clock (./simulation.ts): shapes the
 * benchmark's named services were not tuned to. A seed draws the network (round trip, jitter
 * range, a heavy tail), what bounds the service (nothing, workers with a queue or without bound,
 * 503s with or without Retry-After, a rate limit), the items (300 to 3,000), and whether a first
 * run met the service at another speed. Each is run under Auto and under Fixed 8, 16, 32 and 64
 * on the same seed, and gives the figures docs/pacer.md holds Auto to.
 */
import { seededRandom } from '../helpers/fake-clock';
import { simulate, Processes, type Outcome, type Scenario } from './simulation';
import type { CapacitySpec, ServiceSpec } from './simulated-service';

export const FIXED = [8, 16, 32, 64];
const FIRST_ITEMS = 100;

export interface DrawnService {
	seed: number;
	/** The service from the measured run on, and the run's items. */
	service: Omit<ServiceSpec, 'capacity'> & { capacity?: CapacitySpec };
	items: number;
	/** The round trip a first run of FIRST_ITEMS under Auto met, in the same process. */
	beforeMs?: number;
	/** The rate limit, requests a second; none when unset. */
	rate?: number;
}

const between = (random: () => number, low: number, high: number) => low + random() * (high - low);
/** Drawn so that each factor of two between `low` and `high` is as likely. */
const logBetween = (random: () => number, low: number, high: number) =>
	low * (high / low) ** random();
const whole = (value: number) => Math.max(1, Math.round(value));

/** The network a seed draws: a round trip of 2 to 150 ms, maybe a jitter range and a tail. */
function drawNetwork(random: () => number): Omit<ServiceSpec, 'limits' | 'burst'> {
	const roundTripMs = logBetween(random, 2, 150);
	const range = random() < 0.35 ? roundTripMs * between(random, 1.5, 10) : undefined;
	const tail = random() < 0.3;
	return {
		roundTripMs,
		...(range && { roundTripMaxMs: range }),
		...(tail && {
			tailOneIn: whole(between(random, 5, 50)),
			tailMs: roundTripMs * between(random, 3, 20),
		}),
		jitterMs: between(random, 0, 10),
	};
}

/** Workers of 2 to 100 ms, with a queue of up to 4 times them or none, maybe a tail of their own. */
function drawCapacity(random: () => number): CapacitySpec {
	const workers = whole(logBetween(random, 2, 32));
	const serviceMs = logBetween(random, 2, 100);
	const unbounded = random() < 0.25;
	const queue = Math.floor(between(random, 0, 4 * workers + 1));
	const retryAfter = random() < 0.3;
	const tail = random() < 0.3;
	return {
		workers,
		serviceMs,
		...(!unbounded && { queue }),
		...(retryAfter && { retryAfterSeconds: 1 }),
		...(tail && {
			tailOneIn: whole(between(random, 5, 30)),
			tailMs: serviceMs * between(random, 3, 15),
		}),
	};
}

/** The service, items and history seed `seed` draws. */
export function drawService(seed: number): DrawnService {
	const random = seededRandom(0x5eed + seed * 7919);
	const network = drawNetwork(random);
	const kind = random();
	const items = whole(logBetween(random, 300, 3000));
	const capacity = kind >= 0.25 && kind < 0.7 ? drawCapacity(random) : undefined;
	const rate = kind >= 0.7 ? logBetween(random, 10, 1000) : undefined;
	const burst = whole(between(random, 1, 20));
	const omitRetryAfter = random() < 0.2;
	const change = random() < 0.25;
	const factor = logBetween(random, 2, 30) ** (random() < 0.5 ? -1 : 1);
	return {
		seed,
		service: {
			...network,
			limits: [{ requestsPerSecond: rate ?? 1e9 }],
			burst: rate ? burst : 1e9,
			...(rate && omitRetryAfter && { omitRetryAfter }),
			...(capacity && { capacity }),
		},
		items,
		...(change && { beforeMs: Math.max(1, network.roundTripMs * factor) }),
		...(rate && { rate }),
	};
}

/** A short description of a drawn service, for the report's worst cases. */
export function describe({ seed, service, items, beforeMs, rate }: DrawnService): string {
	const { roundTripMs: ms, roundTripMaxMs: max, tailMs, tailOneIn, capacity } = service;
	const parts = [
		`seed ${seed}: ${items} items, ${ms.toFixed(0)}${max ? `-${max.toFixed(0)}` : ''} ms`,
	];
	if (tailOneIn) parts.push(`1 in ${tailOneIn} ${tailMs!.toFixed(0)} ms`);
	if (capacity) {
		const { workers, serviceMs, queue, retryAfterSeconds, tailOneIn: one, tailMs: tail } = capacity;
		parts.push(
			`${workers} workers x ${serviceMs.toFixed(0)} ms${one ? ` (1 in ${one} ${tail!.toFixed(0)} ms)` : ''}, queue ${queue ?? 'unbounded'}${retryAfterSeconds ? ', Retry-After' : ''}`,
		);
	}
	if (rate)
		parts.push(
			`${rate.toFixed(0)}/s, burst ${service.burst}${service.omitRetryAfter ? ', no Retry-After' : ''}`,
		);
	if (beforeMs) parts.push(`after a run at ${beforeMs.toFixed(0)} ms`);
	return parts.join(', ');
}

/** What Auto came to on one drawn service, against Fixed on the same seed. */
export interface DrawnFigures {
	drawn: DrawnService;
	auto: Outcome;
	fixed: Outcome[];
	/** The fastest fixed setting's time over Auto's, of those that failed no item. */
	ofBestFixed?: number;
	/** Items Auto failed where some fixed setting failed none. */
	failed?: number;
	/** The most the service held at once, over its workers. */
	openPerWorker?: number;
	/** Requests answered 429, of all sent; share of the rate limit. */
	refused?: number;
	ofLimit?: number;
	/** Auto's time after the first run over a fresh process's. */
	afterChange?: number;
}

const scenarioOf = (drawn: DrawnService, items: number, fixed?: number): Scenario => ({
	...drawn.service,
	seed: drawn.seed,
	runs: [{ items, fixed }],
});

/** Whether the rate limit binds: some fixed setting reaches 90% of it (else the round trips do). */
const reachable = (fixed: Outcome[]) => fixed.some((outcome) => outcome.shareOfLimit >= 0.9);

/** Auto (after the first run, where there is one) and each fixed setting on `drawn`. */
export async function measure(drawn: DrawnService): Promise<DrawnFigures> {
	const processes = new Processes();
	if (drawn.beforeMs !== undefined) {
		const before = { ...drawn.service, roundTripMs: drawn.beforeMs, roundTripMaxMs: undefined };
		await simulate({ ...scenarioOf(drawn, FIRST_ITEMS), ...before }, processes);
	}
	const auto = await simulate(scenarioOf(drawn, drawn.items), processes);
	const fresh =
		drawn.beforeMs === undefined ? undefined : await simulate(scenarioOf(drawn, drawn.items));
	const fixed: Outcome[] = [];
	for (const limit of FIXED) fixed.push(await simulate(scenarioOf(drawn, drawn.items, limit)));
	const clean = fixed.filter((outcome) => outcome.failed === 0).map((outcome) => outcome.ms);
	const workers = drawn.service.capacity?.workers;
	return {
		drawn,
		auto,
		fixed,
		...(clean.length && { ofBestFixed: Math.min(...clean) / auto.ms, failed: auto.failed }),
		...(workers && { openPerWorker: auto.maxOpen / workers }),
		...(drawn.rate && { refused: auto.refused / auto.sent }),
		...(drawn.rate && reachable(fixed) && { ofLimit: auto.shareOfLimit }),
		...(fresh && { afterChange: auto.ms / fresh.ms }),
	};
}

/** Each figure's target: `worse` says a value misses it. */
export const TARGETS = {
	ofBestFixed: { name: 'share of the best fixed', worse: (v: number) => v < 0.9, low: true },
	failed: { name: 'failed items', worse: (v: number) => v > 0, low: false },
	openPerWorker: { name: 'open per worker', worse: (v: number) => v > 4, low: false },
	refused: { name: '429s of requests', worse: (v: number) => v > 0.1, low: false },
	ofLimit: { name: 'share of the rate limit', worse: (v: number) => v < 0.9, low: true },
	afterChange: { name: 'after a change / fresh', worse: (v: number) => v > 1.25, low: false },
} as const;

export type Figure = keyof typeof TARGETS;

/** Per figure over `all`: how many have it, the worst and the median, and how many miss. */
export function distribution(all: DrawnFigures[]) {
	return (Object.keys(TARGETS) as Figure[]).map((figure) => {
		const { name, worse, low } = TARGETS[figure];
		const values = all
			.filter((one) => one[figure] !== undefined)
			.map((one) => ({ value: one[figure]!, drawn: one.drawn }))
			.sort((a, b) => (low ? a.value - b.value : b.value - a.value));
		const median = values[values.length >> 1]?.value;
		const missed = values.filter(({ value }) => worse(value));
		return { figure, name, count: values.length, worst: values[0], median, missed };
	});
}

/** Seeds from a list such as `1-100` or `1001-1200,7`. */
export function seedsOf(text: string): number[] {
	return text.split(',').flatMap((part) => {
		const [from, to = from] = part.split('-').map(Number);
		return Array.from({ length: to - from + 1 }, (_, index) => from + index);
	});
}
