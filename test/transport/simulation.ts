/**
 * Concurrency Auto on a fake clock: runs of the router's own loop (`runEachItem`) whose items go
 * through the transport's own loop (`sendWithRetries`), paced by real shared paces, against a
 * simulated service behind a network with latency and jitter: a token bucket whose limit may
 * change mid-run, and a service of finite capacity (workers, a queue, 503 beyond it). Only the
 * service and the clock are simulated. Runs may share one process (one registry of paces) or
 * each have their own (queue-mode workers), and a run may use Concurrency Fixed instead.
 */
import { runEachItem } from '../../nodes/DataIntegrationManagement/actions/router';
import {
	FixedConcurrency,
	RETRY_AFTER_WAITS,
	type Pacer,
} from '../../nodes/DataIntegrationManagement/transport/pacer';
import { sendWithRetries } from '../../nodes/DataIntegrationManagement/transport';
import {
	failureOfAnswer,
	type FullResponse,
} from '../../nodes/DataIntegrationManagement/transport/failures';
import { PaceRegistry } from '../../nodes/DataIntegrationManagement/transport/shared-pace';
import { FakeClock, seededRandom } from './fake-clock';

/** A stretch of the run during which the service allows `requestsPerSecond`. */
export interface LimitPhase {
	requestsPerSecond: number;
	/** ms from the start the phase lasts until; the last phase lasts to the end. */
	untilMs?: number;
}

/**
 * One execution of the node: `items` items, started `startAtMs` in, in process `process`, under
 * Concurrency Auto (capped at `max`, else its default), or Fixed at `fixed`.
 */
export interface RunSpec {
	items: number;
	startAtMs?: number;
	process?: number;
	max?: number;
	fixed?: number;
}

/**
 * A service of finite capacity: it acts on `workers` requests at once, each for `serviceMs`; up
 * to `queue` more wait their turn (no bound when unset); the rest are answered 503, with
 * Retry-After when `retryAfterSeconds` is set.
 */
export interface CapacitySpec {
	workers: number;
	serviceMs: number;
	queue?: number;
	retryAfterSeconds?: number;
}

export interface Scenario {
	runs: RunSpec[];
	limits: LimitPhase[];
	/** Most tokens the bucket holds. */
	burst: number;
	/** The fastest round trip, ms (the service's own time included) ... */
	roundTripMs: number;
	/** ... and the most each way may add at random. */
	jitterMs: number;
	/** The service answers 429 without Retry-After. */
	omitRetryAfter?: boolean;
	/** Behind the token bucket, a service of finite capacity; none when unset. */
	capacity?: CapacitySpec;
	seed: number;
}

export interface RunOutcome {
	failed: number;
	startedAt: number;
	endedAt: number;
	/** Items that succeeded a second, start to end. */
	rate: number;
}

export interface Outcome {
	runs: RunOutcome[];
	failed: number;
	sent: number;
	refused: number;
	/** Requests answered 503, and the most the service held at once (acting or queued). */
	shed: number;
	maxOpen: number;
	ms: number;
	/** Items that succeeded as a share of what the limit allowed from the first start to the end. */
	shareOfLimit: number;
	/** Jain's fairness index of the runs' rates: 1 when equal, 1/n when one run took all. */
	fairness: number;
	/** Answers that were not 429, and 429s, in each second of the run. */
	perSecond: Array<{ answered: number; refused: number }>;
}

/** The rate the service allows at `ms`. */
const limitAt = (limits: LimitPhase[], ms: number) =>
	(limits.find((phase) => phase.untilMs === undefined || ms < phase.untilMs) ?? limits[0])
		.requestsPerSecond;

/** Requests the limit allowed from `start` to `end` ms (the integral of the rate). */
export function allowedBetween(limits: LimitPhase[], start: number, end: number): number {
	let allowed = 0;
	let from = 0;
	for (const phase of limits) {
		const to = Math.min(end, phase.untilMs ?? Infinity);
		const span = to - Math.max(from, start);
		if (span > 0) allowed += (span / 1000) * phase.requestsPerSecond;
		from = Math.max(from, to);
	}
	return allowed;
}

/** Jain's fairness index: (Σx)² / (n Σx²). */
export const jainIndex = (rates: number[]) =>
	rates.reduce((a, b) => a + b, 0) ** 2 / (rates.length * rates.reduce((a, b) => a + b * b, 0));

/** The service: a token bucket, full at the start, refilled at the rate of the moment. */
function tokenBucket(scenario: Scenario, clock: FakeClock) {
	let tokens = scenario.burst;
	let refilledAt = 0;
	/** Undefined when admitted; else the 429's Retry-After (seconds), when it says one. */
	return (): { retryAfterSeconds?: number } | undefined => {
		const now = clock.now();
		const rate = limitAt(scenario.limits, now);
		tokens = Math.min(scenario.burst, tokens + ((now - refilledAt) / 1000) * rate);
		refilledAt = now;
		if (tokens >= 1) {
			tokens--;
			return undefined;
		}
		if (scenario.omitRetryAfter) return {};
		return { retryAfterSeconds: Math.max(1, Math.ceil((1 - tokens) / rate)) };
	};
}

/**
 * The service's capacity: resolves 'served' once a worker has acted on the request, or 'shed'
 * at once when the queue is full. `held` tells how many it holds now and at most.
 */
function finiteCapacity(spec: CapacitySpec | undefined, clock: FakeClock) {
	const held = { now: 0, most: 0, shed: 0 };
	const waiting: Array<() => void> = [];
	let acting = 0;
	const serve = async (): Promise<'served' | 'shed'> => {
		if (!spec) return 'served';
		if (acting >= spec.workers) {
			if (waiting.length >= (spec.queue ?? Infinity)) return (held.shed++, 'shed');
			held.most = Math.max(held.most, ++held.now);
			await new Promise<void>((resolve) => waiting.push(resolve));
		} else held.most = Math.max(held.most, ++held.now);
		acting++;
		await clock.sleep(spec.serviceMs);
		acting--;
		held.now--;
		waiting.shift()?.();
		return 'served';
	};
	return { serve, held };
}

/** Runs every run of `scenario` to its end on a fake clock. */
export async function simulate(scenario: Scenario): Promise<Outcome> {
	const clock = new FakeClock();
	const random = seededRandom(scenario.seed);
	const admit = tokenBucket(scenario, clock);
	const capacity = finiteCapacity(scenario.capacity, clock);
	const oneWay = () => scenario.roundTripMs / 2 + random() * scenario.jitterMs;
	const registries = new Map<number, PaceRegistry>();
	const counts = { sent: 0, refused: 0 };
	const perSecond: Outcome['perSecond'] = [];
	const second = () => (perSecond[Math.floor(clock.now() / 1000)] ??= { answered: 0, refused: 0 });

	/** One request to the service, answered as n8n's HTTP helper returns an answer in full. */
	const send = async (): Promise<FullResponse> => {
		counts.sent++;
		await clock.sleep(oneWay());
		const refusal = admit();
		const served = refusal ? undefined : await capacity.serve();
		await clock.sleep(oneWay());
		if (served === 'served') {
			second().answered++;
			return { statusCode: 200 };
		}
		if (served === 'shed') return withRetryAfter(503, scenario.capacity!.retryAfterSeconds);
		counts.refused++;
		second().refused++;
		return withRetryAfter(429, refusal!.retryAfterSeconds);
	};

	const run = async (spec: RunSpec): Promise<RunOutcome> => {
		await clock.sleep(spec.startAtMs ?? 0);
		const process = spec.process ?? 0;
		if (!registries.has(process)) registries.set(process, new PaceRegistry(clock));
		const pace = registries.get(process)!.pace('one service, one key').join(spec.max);
		const [concurrency, pacer] = spec.fixed === undefined ? [pace, pace] : fixed(spec.fixed, clock);
		const startedAt = clock.now();
		let failed = 0;
		const runItem = async () => {
			const options = { pacer, kind: 'POST tags', clock, random, failureOf: failureOfAnswer };
			await sendWithRetries(send, options, () => new Error('failed')).catch(() => failed++);
		};
		try {
			await runEachItem(spec.items, concurrency, runItem, undefined, clock);
		} finally {
			pace.leave();
		}
		const endedAt = clock.now();
		return {
			failed,
			startedAt,
			endedAt,
			rate: (spec.items - failed) / ((endedAt - startedAt) / 1000),
		};
	};

	const runs = await clock.run(Promise.all(scenario.runs.map(run)));
	const { shed, most: maxOpen } = capacity.held;
	return { ...summary(scenario, runs), ...counts, shed, maxOpen, perSecond };
}

/** An error answer, with Retry-After when the service says one. */
const withRetryAfter = (statusCode: number, seconds: number | undefined): FullResponse => ({
	statusCode,
	headers: seconds === undefined ? {} : { 'retry-after': String(seconds) },
});

/** Concurrency Fixed at `limit`, and its pacer (plainPacer), on the simulation's clock. */
const fixed = (limit: number, clock: FakeClock): [FixedConcurrency, Pacer] => [
	new FixedConcurrency(limit, clock),
	{
		retryAfterWaits: RETRY_AFTER_WAITS,
		answered: () => {},
		rateLimited: async (waitMs) => await clock.sleep(waitMs),
		overloaded: async (waitMs) => await clock.sleep(waitMs),
	},
];

/** What the runs of `scenario` came to together. */
function summary(scenario: Scenario, runs: RunOutcome[]) {
	const start = Math.min(...runs.map((outcome) => outcome.startedAt));
	const ms = Math.max(...runs.map((outcome) => outcome.endedAt));
	const items = scenario.runs.reduce((sum, spec) => sum + spec.items, 0);
	const failed = runs.reduce((sum, outcome) => sum + outcome.failed, 0);
	return {
		runs,
		failed,
		ms,
		shareOfLimit: (items - failed) / allowedBetween(scenario.limits, start, ms),
		fairness: jainIndex(runs.map((outcome) => outcome.rate)),
	};
}
