/**
 * The simulated service of ./simulation.ts: the network's round trip (jitter, a heavy tail), a
 * token bucket whose limit may change mid-run, and a service of finite capacity (workers, a
 * queue, 503 beyond it, a service time with a tail). Each draws from the simulation's seeded
 * generator only for what is set, so adding a kind of service left the others' runs as they were.
 */
import { drawMs, type Spread } from '../helpers/random';
import type { FakeClock } from '../helpers/fake-clock';

/** A stretch of the run during which the service allows `requestsPerSecond`. */
export interface LimitPhase {
	requestsPerSecond: number;
	/** ms from the start the phase lasts until; the last phase lasts to the end. */
	untilMs?: number;
}

/**
 * A service of finite capacity: it acts on `workers` requests at once, each for `serviceMs` (one
 * in `tailOneIn`, drawn at random, for `tailMs` instead); up to `queue` more wait their turn (no
 * bound when unset); the rest are answered 503, with Retry-After when `retryAfterSeconds` is set.
 */
export interface CapacitySpec {
	workers: number;
	serviceMs: number;
	queue?: number;
	retryAfterSeconds?: number;
	tailMs?: number;
	tailOneIn?: number;
}

/** The network and the service in front of the runs (see Scenario in ./simulation.ts). */
export interface ServiceSpec {
	limits: LimitPhase[];
	/** Most tokens the bucket holds. */
	burst: number;
	/** The fastest round trip, ms (the service's own time included) ... */
	roundTripMs: number;
	/** ... or, when set, each round trip drawn uniformly between roundTripMs and this (jitter) ... */
	roundTripMaxMs?: number;
	/** ... and one round trip in `tailOneIn`, drawn at random, `tailMs` instead (a heavy tail) ... */
	tailMs?: number;
	tailOneIn?: number;
	/** ... and the most each way may add at random. */
	jitterMs: number;
	/** The service answers 429 without Retry-After. */
	omitRetryAfter?: boolean;
	/** Behind the token bucket, a service of finite capacity; none when unset. */
	capacity?: CapacitySpec;
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

/** The network: a request's two ways, the round trip drawn once for both. */
export function network(spec: ServiceSpec, random: () => number) {
	const spread: Spread = { ...spec, ms: spec.roundTripMs, maxMs: spec.roundTripMaxMs };
	return () => {
		const roundTripMs = drawMs(spread, random);
		return () => roundTripMs / 2 + random() * spec.jitterMs;
	};
}

/**
 * The service's rate limit: a token bucket, full at the start, refilled at the rate of the
 * moment, `now()` ms from the start.
 */
export function tokenBucket(spec: ServiceSpec, now: () => number) {
	let tokens = spec.burst;
	let refilledAt = 0;
	/** Undefined when admitted; else the 429's Retry-After (seconds), when it says one. */
	return (): { retryAfterSeconds?: number } | undefined => {
		const at = now();
		const rate = limitAt(spec.limits, at);
		tokens = Math.min(spec.burst, tokens + ((at - refilledAt) / 1000) * rate);
		refilledAt = at;
		if (tokens >= 1) {
			tokens--;
			return undefined;
		}
		if (spec.omitRetryAfter) return {};
		return { retryAfterSeconds: Math.max(1, Math.ceil((1 - tokens) / rate)) };
	};
}

/**
 * The service's capacity: resolves 'served' once a worker has acted on the request, or 'shed'
 * at once when the queue is full. `held` tells how many it holds now and at most.
 */
export function finiteCapacity(
	spec: CapacitySpec | undefined,
	clock: FakeClock,
	random: () => number,
) {
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
		await clock.sleep(drawMs({ ...spec, ms: spec.serviceMs }, random));
		acting--;
		held.now--;
		waiting.shift()?.();
		return 'served';
	};
	return { serve, held };
}
