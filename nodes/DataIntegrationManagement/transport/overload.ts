/**
 * Concurrency Auto's limit on what is in flight, as pure functions: AIMD on 503s and on a queue
 * (delay that grows with what is in flight), with TCP's slow start. docs/pacer.md says why.
 */

/** The most items in flight under Auto unless Options → Max Concurrency says otherwise. */
export const AUTO_MAX_CONCURRENCY = 64;
/** A queue: the quickest recent answer over this many times the baseline. */
export const QUEUE_TOLERANCE = 2;
/** An answer over this many times the baseline adds nothing (TCP Vegas's band). */
export const GROWTH_TOLERANCE = 1.25;
/** The recent answers of a kind of request: a baseline is their median. */
export const ROUND_TRIP_SAMPLES = 16;
/** Round trips count from here up: below it, the clock's whole ms are most of what is seen. */
export const ROUND_TRIP_FLOOR_MS = 5;
/** A sign of overload sets the limit to this share of itself. */
export const OVERLOAD_DECREASE = 0.9;
/** A suspected queue is tested once cuts took the limit to this share of where it was. */
export const TEST_SPAN = 0.75;

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
 * A sign of overload at `now` for a request sent at `sentAt`: the limit goes down, halved in slow
 * start, unless it already did since that request left.
 */
export function afterOverload(
	state: LimitState,
	now: number,
	sentAt: number,
	factor?: number,
): LimitState {
	if (sentAt < state.decreasedAt) return state;
	const limit = Math.max(1, state.limit * (factor ?? (state.slowStart ? 0.5 : OVERLOAD_DECREASE)));
	return { ...state, limit, slowStart: false, decreasedAt: now, answeredSince: 0 };
}

/** An answer's round trip, the quickest recent one and their median, over their kind's baseline. */
export interface Delays {
	answer: number;
	standing: number;
	typical: number;
}

/**
 * An answer to a request sent at `sentAt`, with its `delays` (none before a baseline), `inUse`
 * when the limit was full since then. `rebase`: a suspected queue proved to be the service's
 * own speed, which becomes the baseline.
 */
export function afterAnswered(
	state: LimitState,
	answer: { now: number; sentAt: number; delays?: Delays; inUse: boolean },
): { state: LimitState; rebase?: true } {
	const { delays = { answer: 1, standing: 1, typical: 1 }, inUse } = answer;
	let next = {
		...state,
		answeredSince: state.answeredSince + (answer.sentAt >= state.decreasedAt ? 1 : 0),
	};
	// The recent answers tell of the limit now once all of them left since it last went down.
	if (answer.delays && next.answeredSince >= ROUND_TRIP_SAMPLES) {
		const { suspect } = next;
		if (suspect && notQueue(next.limit, delays.standing, suspect)) {
			// The service is slower: the same throughput needs as many more in flight (Little's law).
			const limit = Math.min(AUTO_MAX_CONCURRENCY, suspect.limit * Math.max(1, delays.typical));
			return {
				state: { ...next, limit, slowStart: suspect.slowStart, suspect: undefined },
				rebase: true,
			};
		}
		// Drained: the answers at the lower limit are the baseline now. Against it, a suspect that
		// was no sign (the baseline was too low) gets its limit back.
		if (suspect && delays.standing <= GROWTH_TOLERANCE) {
			const wasSign = suspect.standing / delays.typical > QUEUE_TOLERANCE;
			const { limit, slowStart } = wasSign ? next : suspect;
			return { state: { ...next, limit, slowStart, suspect: undefined }, rebase: true };
		}
		if (delays.standing > QUEUE_TOLERANCE) {
			const before = { limit: state.limit, slowStart: state.slowStart, standing: delays.standing };
			// A first sign cuts to TEST_SPAN at once, so the next answers test it.
			const cut = afterOverload(next, answer.now, answer.sentAt, suspect ? undefined : TEST_SPAN);
			return { state: { ...cut, suspect: suspect ?? before } };
		}
	}
	if (delays.answer > GROWTH_TOLERANCE || !inUse) return { state: next };
	const grown = next.limit + (next.slowStart ? 1 : 1 / next.limit);
	return { state: { ...next, limit: Math.min(AUTO_MAX_CONCURRENCY, grown) } };
}

/**
 * Whether the cuts took the limit to TEST_SPAN of the suspect's and the standing delay fell by
 * less than the square root of that: a queue's delay falls in proportion (Little's law), a slower
 * service's or the network's does not fall at all.
 */
function notQueue(limit: number, standing: number, suspect: LimitState['suspect'] & object) {
	const share = limit / suspect.limit;
	return share <= TEST_SPAN && standing >= suspect.standing * Math.sqrt(share);
}

/** The round trips of one kind of request: the baseline, and the last few, ms. */
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

/**
 * `trips` with an answer after `ms`, and its delays. The first ROUND_TRIP_SAMPLES answers set the
 * baseline; a recent median under it by QUEUE_TOLERANCE (the service got faster) sets it again.
 */
export function withRoundTrip(
	trips: RoundTrips | undefined,
	ms: number,
): { trips: RoundTrips; delays?: Delays } {
	const recentMs = [...(trips?.recentMs ?? []), ms].slice(-ROUND_TRIP_SAMPLES);
	if (recentMs.length < ROUND_TRIP_SAMPLES) return { trips: { recentMs } };
	const typicalMs = median(recentMs);
	const base = trips?.baselineMs ?? Infinity;
	const baselineMs = typicalMs * QUEUE_TOLERANCE < base ? typicalMs : base;
	const ratio = (value: number) => floored(value) / baselineMs;
	return {
		trips: { baselineMs, recentMs },
		delays: {
			answer: ratio(ms),
			standing: ratio(Math.min(...recentMs)),
			typical: ratio(typicalMs),
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
