/**
 * Concurrency Auto's limit on what is in flight, from the service's signs of overload, as pure
 * functions: AIMD on delay and load shedding, as Netflix's concurrency-limits (its AIMD limit
 * with a round-trip tolerance) and Google's Swift (Kumar et al., SIGCOMM 2020) do it, with TCP's
 * slow start (RFC 5681). ./aimd.ts paces by rate from 429s; an item starts when both allow it.
 * docs/pacer.md says why each rule is there.
 *
 * 1. Signs of overload: a 503 (the service turned the request away), or a standing queue: the
 *    shortest of the last ROUND_TRIP_SAMPLES round trips of a kind of request over
 *    QUEUE_TOLERANCE times the shortest ever seen for it (as HyStart++, RFC 9406, compares a
 *    round's shortest): a queue lengthens every answer, the network's jitter only some.
 * 2. Slow start: one more in flight per answer while the limit is in use (as many were in flight
 *    as it allows at some time since the request left: Linux's cwnd-limited test), until the
 *    first sign, which halves the limit (its last round trip doubled it). Then one more a round
 *    trip while in use, and OVERLOAD_DECREASE of itself at each sign, at most once a round trip:
 *    a sign from a request sent before the last decrease says nothing of the limit now.
 * 3. An answer whose own round trip is over GROWTH_TOLERANCE times the shortest adds nothing: the
 *    service keeps requests waiting already, so more in flight would only wait longer (TCP
 *    Vegas's band between its two thresholds, Brakmo and Peterson, 1995).
 * 4. Never below one, and never more in flight than a run's cap (Options → Max Concurrency, by
 *    default AUTO_MAX_CONCURRENCY), whatever the signs say.
 */

/** The most items in flight under Auto unless Options → Max Concurrency says otherwise. */
export const AUTO_MAX_CONCURRENCY = 64;
/** A standing queue: round trips over this many times the shortest seen for their kind. */
export const QUEUE_TOLERANCE = 2;
/** An answer whose round trip is over this many times the shortest seen adds nothing. */
export const GROWTH_TOLERANCE = 1.25;
/** How many answers' round trips show a standing queue (HyStart++'s N_RTT_SAMPLE). */
export const ROUND_TRIP_SAMPLES = 8;
/**
 * Round trips are compared from this floor up: below it, the clock's whole milliseconds and the
 * event loop's own delays are most of what is measured, not the service.
 */
export const ROUND_TRIP_FLOOR_MS = 5;
/** A sign of overload sets the limit to this share of itself (as DECREASE does the rate). */
export const OVERLOAD_DECREASE = 0.9;

export interface LimitState {
	/** Items in flight at most. */
	limit: number;
	slowStart: boolean;
	/** When the limit last went down (ms); -Infinity before. */
	decreasedAt: number;
}

export const initialLimit = (start: number): LimitState => ({
	limit: start,
	slowStart: true,
	decreasedAt: -Infinity,
});

/**
 * A sign of overload at `now` for a request sent at `sentAt`: the limit goes down, halved in
 * slow start, unless it already did since that request left.
 */
export function afterOverload(state: LimitState, now: number, sentAt: number): LimitState {
	if (sentAt < state.decreasedAt) return state;
	const factor = state.slowStart ? 0.5 : OVERLOAD_DECREASE;
	return { limit: Math.max(1, state.limit * factor), slowStart: false, decreasedAt: now };
}

/** What an answer's round trip says, as ratios to the shortest seen for its kind (see 1, 3). */
export interface Delays {
	/** This answer's round trip. */
	answer: number;
	/** The shortest of the last ROUND_TRIP_SAMPLES. */
	standing: number;
}

/**
 * A request sent at `sentAt` was answered at `now` with these `delays`, `inUse` when as many
 * were in flight as the limit allows at some time since `sentAt`: a standing queue is a sign of
 * overload; else the limit grows (2) when in use and the answer came back quick (3).
 */
export function afterAnswered(
	state: LimitState,
	answer: { now: number; sentAt: number; delays: Delays; inUse: boolean },
): LimitState {
	const { delays, inUse } = answer;
	if (delays.standing > QUEUE_TOLERANCE) return afterOverload(state, answer.now, answer.sentAt);
	if (delays.answer > GROWTH_TOLERANCE || !inUse) return state;
	return { ...state, limit: state.limit + (state.slowStart ? 1 : 1 / state.limit) };
}

/** The round trips of one kind of request: the shortest ever, and the last few, ms. */
export interface RoundTrips {
	shortestMs: number;
	recentMs: number[];
}

/** `trips` with an answer after `ms` added (the last ROUND_TRIP_SAMPLES kept), and its delays. */
export function withRoundTrip(
	trips: RoundTrips | undefined,
	ms: number,
): { trips: RoundTrips; delays: Delays } {
	const recentMs = [...(trips?.recentMs ?? []), ms].slice(-ROUND_TRIP_SAMPLES);
	const shortestMs = Math.min(ms, trips?.shortestMs ?? Infinity);
	const ratio = (value: number) =>
		Math.max(ROUND_TRIP_FLOOR_MS, value) / Math.max(ROUND_TRIP_FLOOR_MS, shortestMs);
	return {
		trips: { shortestMs, recentMs },
		delays: { answer: ratio(ms), standing: ratio(Math.min(...recentMs)) },
	};
}

/**
 * What a request's round trip is compared with: its method and the path's first segment, the
 * other segments (ids) as `*`, so a quick read does not make a slow write look queued.
 */
export function requestKind(method: string, path: string): string {
	const [resource, ...rest] = path.split('?')[0].split('/').filter(Boolean);
	return [method, resource, ...rest.map(() => '*')].join(' ');
}
