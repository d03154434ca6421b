/**
 * Concurrency Auto's controller, pure: one window on what is in flight, paced over the round trip;
 * slow start from 10 (RFC 5681, 6928, 9406), a 429 or 503 takes it down once a round trip (TCP
 * Westwood), a queue read from delay (Vegas) and tested by halving (Little's law). docs/pacer.md.
 */

/** Items in flight at first (TCP's initial window, RFC 6928). */
export const INITIAL_WINDOW = 10;
/** The most in flight unless Options → Max Concurrency says otherwise. */
export const AUTO_MAX_CONCURRENCY = 64;
/** Slow start multiplies the window by this each round trip (RFC 5681). */
export const STARTUP_GAIN = 2;
/** After slow start's first refusal, its growth over this (HyStart++'s CSS_GROWTH_DIVISOR). */
export const CAUTIOUS_DIVISOR = 4;
const CAUTIOUS_GAIN = 1 + (STARTUP_GAIN - 1) / CAUTIOUS_DIVISOR;
/** A 429 or 503 past slow start sets the window to this share of itself. */
export const DECREASE = 0.9;
/** Past slow start, each answer adds 1 / GROWTH_ANSWERS of the window. */
export const GROWTH_ANSWERS = 300;
/** This long past slow start without a decrease, ms, slow start comes back at CAUTIOUS_GAIN. */
export const PROBE_AFTER_MS = 3000;
/** A standing queue: the quickest of ROUND_TRIP_SAMPLES answers over this times the baseline. */
export const QUEUE_TOLERANCE = 2;
/** It grows only while the quickest of RECENT_ANSWERS is within this of the baseline. */
export const GROWTH_TOLERANCE = 1.1;
/** The answers of a kind read together; the baseline is the lowest of their medians. */
export const ROUND_TRIP_SAMPLES = 16;
/** The answers from which a kind has a baseline. */
export const RECENT_ANSWERS = 4;
/** Round trips count from here up (the clock counts whole ms). */
export const ROUND_TRIP_FLOOR_MS = 5;
/** The longest between two starts: one every 5 s. */
export const MAX_INTERVAL_MS = 5000;

export interface Window {
	size: number;
	/** Slow start below it (TCP's ssthresh). */
	threshold: number;
	/** What slow start multiplies it by a round trip. */
	gain: number;
	/** When it last went down; the answers to requests sent since. */
	decreasedAt: number;
	answeredSince: number;
	/** What was in flight at the last refusal, less its round's refusals. */
	through: number;
	/** A suspected queue: what was before the halving that tests it. */
	probe?: { size: number; threshold: number; standing: number };
}

export const initialWindow = (now: number, size = INITIAL_WINDOW): Window => ({
	size,
	threshold: Infinity,
	gain: STARTUP_GAIN,
	decreasedAt: now,
	answeredSince: 0,
	through: Infinity,
});

export const inFlightLimit = (window: Window) => Math.max(1, Math.ceil(window.size));

/**
 * Starts a pace found empty lets go at once (Linux fq's initial quantum): up to INITIAL_WINDOW of
 * its window, none once a refusal taught a limit (a token bucket's burst) or under one a round trip.
 */
export const burstAfterEmpty = (window: Window): number =>
	Number.isFinite(window.threshold) ? 0 : Math.min(INITIAL_WINDOW, Math.floor(window.size));

/** ms between two starts: the round trip over the window (twice slow start's gain in it). */
export function startInterval(window: Window, roundTripMs: number): number {
	const gain = window.size < window.threshold ? 2 * window.gain : 1;
	return Math.min(MAX_INTERVAL_MS, roundTripMs / (gain * window.size));
}

/**
 * A 429 or 503 to a request sent at `sentAt`, `inFlight` in flight. Once a round trip the window
 * goes down by its slow start gain, or DECREASE; no more than got through of that round, each of
 * its refusals off (Westwood). Slow start's first refusal leaves it at CAUTIOUS_GAIN (RFC 9406).
 */
export function afterRefusal(
	window: Window,
	now: number,
	sentAt: number,
	inFlight: number,
): Window {
	const round = sentAt < window.decreasedAt;
	const slowStart = window.size < window.threshold;
	// In slow start its whole last round may be over: this refusal counts too.
	const through = round ? window.through - 1 : inFlight - (slowStart ? 1 : 0);
	const factor = round ? 1 : slowStart ? 1 / window.gain : DECREASE;
	const size = Math.min(factor * window.size, Math.max(1, through));
	const kept = Number.isFinite(window.threshold) ? size : Infinity;
	if (round) return { ...window, size, through, threshold: kept };
	const first = slowStart && window.gain === STARTUP_GAIN;
	const gain = first ? CAUTIOUS_GAIN : window.gain;
	const threshold = first ? Infinity : size;
	return { ...cut(window, now, size), threshold, gain, through, probe: undefined };
}

/** The window set to `size` at `now`, out of slow start. */
const cut = (window: Window, now: number, size: number): Window => ({
	...window,
	size,
	threshold: size,
	decreasedAt: now,
	answeredSince: 0,
});

/** The quickest of ROUND_TRIP_SAMPLES and of RECENT_ANSWERS over the baseline; median over quickest. */
export interface Delays {
	standing: number;
	recent: number;
	spread: number;
}

/**
 * An answer to a request sent at `sentAt`; `inUse`: the window was full since; `ending`: the items
 * yet to start fit in a second. `rebase`: the recent median is the baseline now.
 */
export function afterAnswer(
	window: Window,
	answer: { now: number; sentAt: number; delays?: Delays; inUse: boolean; ending: boolean },
): { window: Window; rebase?: true } {
	const { now, delays } = answer;
	const counted = answer.sentAt >= window.decreasedAt ? 1 : 0;
	const next = { ...window, answeredSince: window.answeredSince + counted };
	// Once all of the recent answers left since the last decrease, they tell of the window now.
	if (delays && next.answeredSince >= ROUND_TRIP_SAMPLES) {
		const resolved = next.probe && verdict(next, delays, next.probe);
		if (resolved) return { window: resolved, rebase: true };
		if (delays.standing > QUEUE_TOLERANCE) {
			const { size, threshold, probe } = next;
			// w in flight delay an answer w service times at most: over that, the service slowed.
			if (!probe && delays.standing > size)
				return { window: { ...next, threshold: Infinity }, rebase: true };
			// A first sign halves the window, so the next answers test it; then DECREASE a round.
			const tested = probe ?? { size, threshold, standing: delays.standing };
			return { window: { ...cut(next, now, size * (probe ? DECREASE : 0.5)), probe: tested } };
		}
	}
	// A refusal in a run's last second would hold it a second (Retry-After's unit).
	const queued = delays !== undefined && delays.recent > GROWTH_TOLERANCE;
	if (!answer.inUse || queued || (answer.ending && next.size >= next.threshold))
		return { window: next };
	// Long without a sign, the limit may have moved (others left).
	if (now - next.decreasedAt > PROBE_AFTER_MS && next.size >= next.threshold)
		Object.assign(next, { threshold: Infinity, gain: CAUTIOUS_GAIN });
	const slowStart = next.size < next.threshold;
	// Slow start adds gain - 1 an answer (a window under one, that share of itself).
	const grown = slowStart
		? next.size + (next.gain - 1) * Math.min(1, next.size)
		: next.size * (1 + 1 / GROWTH_ANSWERS);
	return { window: { ...next, size: Math.min(AUTO_MAX_CONCURRENCY, grown) } };
}

/**
 * A suspected queue tested (Little's law: a queue's delay falls with what is in flight): not one
 * when the quickest fell less than the square root of the cut (the window back, in slow start);
 * one that drained back within the band (the cut stays, unless the spread says the baseline was low).
 */
function verdict(window: Window, delays: Delays, probe: NonNullable<Window['probe']>) {
	const share = window.size / probe.size;
	const notQueue = share <= 0.5 && delays.standing >= probe.standing * Math.sqrt(share);
	const drained = delays.standing <= GROWTH_TOLERANCE;
	if (!notQueue && !drained) return undefined;
	if (notQueue) return { ...window, size: probe.size, threshold: Infinity, probe: undefined };
	const back = delays.spread > QUEUE_TOLERANCE ? probe : window;
	return { ...window, size: back.size, threshold: back.threshold, probe: undefined };
}

/** One kind of request's baseline (the lowest recent median) and last round trips, ms. */
export interface RoundTrips {
	baselineMs?: number;
	recentMs: number[];
}

const floored = (ms: number) => Math.max(ROUND_TRIP_FLOOR_MS, ms);
const median = (ms: number[]) => floored([...ms].sort((a, b) => a - b)[ms.length >> 1]);
const quickest = (ms: number[]) => floored(Math.min(...ms));

export const rebased = (trips: RoundTrips): RoundTrips => ({
	...trips,
	baselineMs: median(trips.recentMs),
});

/** `trips` with an answer after `ms`, and its delays once RECENT_ANSWERS came. */
export function withRoundTrip(
	trips: RoundTrips | undefined,
	ms: number,
): { trips: RoundTrips; delays?: Delays } {
	const recentMs = [...(trips?.recentMs ?? []), ms].slice(-ROUND_TRIP_SAMPLES);
	if (recentMs.length < RECENT_ANSWERS) return { trips: { recentMs } };
	const typicalMs = median(recentMs);
	const baselineMs = Math.min(trips?.baselineMs ?? Infinity, typicalMs);
	return {
		trips: { baselineMs, recentMs },
		delays: {
			standing: quickest(recentMs) / baselineMs,
			recent: quickest(recentMs.slice(-RECENT_ANSWERS)) / baselineMs,
			spread: typicalMs / quickest(recentMs),
		},
	};
}

/** What a round trip is compared with: method and resource, ids as `*` (a read is no write). */
export function requestKind(method: string, path: string): string {
	const [resource, ...rest] = path.split('?')[0].split('/').filter(Boolean);
	return [method, resource, ...rest.map(() => '*')].join(' ');
}
