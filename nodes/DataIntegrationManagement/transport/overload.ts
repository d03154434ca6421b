/**
 * Concurrency Auto's limit on what is in flight, as pure functions: AIMD on 503s and on a queue
 * (delay that grows with what is in flight), with TCP's slow start. docs/pacer.md says why.
 */

/** The most items in flight under Auto unless Options → Max Concurrency says otherwise. */
export const AUTO_MAX_CONCURRENCY = 64;
/** A queue: the quickest recent answer over this many times the baseline. */
export const QUEUE_TOLERANCE = 2;
/** An answer over this many times the baseline adds nothing (TCP Vegas's band). */
export const GROWTH_TOLERANCE = 1.1;
/** The recent answers of a kind of request; the baseline is the lowest of their medians. */
export const ROUND_TRIP_SAMPLES = 16;
/** Round trips count from here up: below it, the clock's whole ms are most of what is seen. */
export const ROUND_TRIP_FLOOR_MS = 5;
/** A 503, or a queue already suspected, sets the limit to this share of itself. */
export const OVERLOAD_DECREASE = 0.9;

export interface LimitState {
	limit: number;
	slowStart: boolean;
	/** When the limit last went down (ms). */
	decreasedAt: number;
	/** Answers to requests sent since then. */
	answeredSince: number;
	/** A queue suspected, not yet tested: the limit, slow start and standing delay before it. */
	suspect?: { limit: number; slowStart: boolean; standing: number };
}

export const initialLimit = (start: number): LimitState => ({
	limit: start,
	slowStart: true,
	decreasedAt: -Infinity,
	answeredSince: 0,
});

/**
 * A sign of overload at `now` for a request sent at `sentAt`: the limit goes down, by half in slow
 * start (or by `factor`), unless it already did since that request left. A 503 ends a suspect's
 * test (overload is shown: the limit before it does not come back); afterAnswered's cut keeps it.
 */
export function afterOverload(
	state: LimitState,
	now: number,
	sentAt: number,
	factor = state.slowStart ? 0.5 : OVERLOAD_DECREASE,
): LimitState {
	if (sentAt < state.decreasedAt) return { ...state, suspect: undefined };
	const limit = Math.max(1, state.limit * factor);
	return {
		...state,
		limit,
		slowStart: false,
		decreasedAt: now,
		answeredSince: 0,
		suspect: undefined,
	};
}

/** An answer's round trip and the quickest recent one against their kind's own; the recent spread. */
export interface Delays {
	answer: number;
	standing: number;
	/** The median of the recent round trips over their quickest. */
	spread: number;
}

/**
 * An answer to a request sent at `sentAt`, with its `delays` (none before a baseline), `inUse`
 * when the limit was full since then. `rebase`: the recent median is the baseline now.
 */
export function afterAnswered(
	state: LimitState,
	answer: { now: number; sentAt: number; delays?: Delays; inUse: boolean },
): { state: LimitState; rebase?: true } {
	const { delays = { answer: 1, standing: 1, spread: 1 }, inUse } = answer;
	const counted = answer.sentAt >= state.decreasedAt ? 1 : 0;
	const next = { ...state, answeredSince: state.answeredSince + counted };
	// The recent answers tell of the limit now once all of them left since it last went down.
	if (answer.delays && next.answeredSince >= ROUND_TRIP_SAMPLES) {
		const { suspect } = next;
		const resolved = suspect && resolve(next, delays, suspect);
		if (resolved) return { state: resolved, rebase: true };
		if (delays.standing > QUEUE_TOLERANCE) {
			// A first sign halves the limit, so the next answers test it.
			const cut = afterOverload(next, answer.now, answer.sentAt, suspect ? undefined : 0.5);
			const before = { limit: state.limit, slowStart: state.slowStart, standing: delays.standing };
			return { state: { ...cut, suspect: suspect ?? before } };
		}
	}
	if (delays.answer > GROWTH_TOLERANCE || !inUse) return { state: next };
	const grown = next.limit + (next.slowStart ? 1 : 1 / next.limit);
	return { state: { ...next, limit: Math.min(AUTO_MAX_CONCURRENCY, grown) } };
}

/**
 * A suspected queue, tested by the answers since its cut (Little's law: a queue's delay falls with
 * what is in flight; a slower service's or the network's does not): not a queue when the quickest
 * fell less than the square root of the cut (the limit comes back); a queue that drained when
 * it is back within the band (the cut stays, unless the median is over twice the quickest: the
 * spread of the service, from a baseline taken too low). Both take the baseline again.
 */
function resolve(state: LimitState, delays: Delays, suspect: NonNullable<LimitState['suspect']>) {
	const share = state.limit / suspect.limit;
	const notQueue = share <= 0.5 && delays.standing >= suspect.standing * Math.sqrt(share);
	const drained = delays.standing <= GROWTH_TOLERANCE;
	if (!notQueue && !drained) return undefined;
	const noSign = notQueue || delays.spread > QUEUE_TOLERANCE;
	const { limit, slowStart } = noSign ? suspect : state;
	return { ...state, limit, slowStart, suspect: undefined };
}

/** The round trips of one kind of request: the baseline (the lowest recent median), the last few, ms. */
export interface RoundTrips {
	baselineMs?: number;
	recentMs: number[];
}

const floored = (ms: number) => Math.max(ROUND_TRIP_FLOOR_MS, ms);
const median = (ms: number[]) => floored([...ms].sort((a, b) => a - b)[ms.length >> 1]);

/** `trips` with the median of its recent round trips as the baseline. */
export const rebased = (trips: RoundTrips): RoundTrips => ({
	...trips,
	baselineMs: median(trips.recentMs),
});

/** `trips` with an answer after `ms`, and its delays once ROUND_TRIP_SAMPLES came. */
export function withRoundTrip(
	trips: RoundTrips | undefined,
	ms: number,
): { trips: RoundTrips; delays?: Delays } {
	const recentMs = [...(trips?.recentMs ?? []), ms].slice(-ROUND_TRIP_SAMPLES);
	if (recentMs.length < ROUND_TRIP_SAMPLES) return { trips: { recentMs } };
	const typicalMs = median(recentMs);
	const quickestMs = floored(Math.min(...recentMs));
	const baselineMs = Math.min(trips?.baselineMs ?? Infinity, typicalMs);
	return {
		trips: { baselineMs, recentMs },
		delays: {
			answer: floored(ms) / baselineMs,
			standing: quickestMs / baselineMs,
			spread: typicalMs / quickestMs,
		},
	};
}

/**
 * What a round trip is compared with: its method and the path's first segment, the other
 * segments (ids) as `*`, so a quick read does not make a slow write look queued.
 */
export function requestKind(method: string, path: string): string {
	const [resource, ...rest] = path.split('?')[0].split('/').filter(Boolean);
	return [method, resource, ...rest.map(() => '*')].join(' ');
}
