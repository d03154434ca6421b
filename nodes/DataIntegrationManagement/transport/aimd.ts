/**
 * Concurrency Auto's decisions, as pure functions of a small state: AIMD with slow start, the
 * congestion control of TCP (Chiu and Jain, "Analysis of the Increase and Decrease Algorithms for
 * Congestion Avoidance in Computer Networks", 1989; RFC 5681), counted in starts a second rather
 * than packets in flight, since a service's limit is a rate.
 *
 * - Slow start: AUTO_START items in flight, one more for each answer (twice as many each round
 *   trip), unpaced, until the first 429.
 * - Multiplicative decrease: a 429 sets the pace to DECREASE times what the service let through
 *   since the last decrease (over DELIVERY_WINDOW_MS at most), at most once per round trip: a 429 to a request sent
 *   before the last decrease says nothing about the new pace.
 * - Additive increase: each answer adds to the pace, so that it grows by GROWTH_PER_SECOND of
 *   the pace set at the last decrease each second it is in use (none while idle).
 */

/** Items in flight at first. */
export const AUTO_START = 4;
/** The share of the rate delivered that a 429 sets the pace to (TCP's β, CUBIC's 0.7). */
export const DECREASE = 0.9;
/** What the pace gains each second, as a share of the pace set at the last decrease. */
export const GROWTH_PER_SECOND = 0.1;
/**
 * Without a 429 for this long, the pace grows by one start a second for each answer (doubling
 * about every 0.7 s) rather than additively: the service has room, as when other runs ended.
 */
export const PROBE_AFTER_MS = 3000;
/** What the service lets through is counted over this span at most. */
export const DELIVERY_WINDOW_MS = 1000;
/** The slowest pace: one start every 5 seconds. */
export const MIN_RATE = 0.2;

export interface PaceState {
	/**
	 * 'slowStart': up to `window` in flight, one more per answer. 'holding': after the first 429,
	 * the window grows by one a round trip (TCP's congestion avoidance) until a 429 to a request
	 * sent since, whose round trip shows what the service lets through. 'paced': by `rate`.
	 */
	phase: 'slowStart' | 'holding' | 'paced';
	window: number;
	/** Starts a second, once paced. */
	rate: number;
	/** The rate the last decrease set: what the additive increase is counted in. */
	base: number;
	/** When the pace last went down (epoch ms); -Infinity before. */
	decreasedAt: number;
}

export const initialPace = (): PaceState => ({
	phase: 'slowStart',
	window: AUTO_START,
	rate: Infinity,
	base: Infinity,
	decreasedAt: -Infinity,
});

/** ms between two starts: none before the pace is set. */
export const startInterval = (state: PaceState): number =>
	state.phase === 'paced' ? 1000 / state.rate : 0;

/** Whether one more item may start with `inFlight` items in flight. */
export const mayStart = (state: PaceState, inFlight: number): boolean =>
	state.phase === 'paced' || inFlight < Math.floor(state.window);

/** A request was answered (not 429) at `now`: the window or the pace grows. */
export function afterAnswer(state: PaceState, now: number): PaceState {
	if (state.phase === 'slowStart') return { ...state, window: state.window + 1 };
	if (state.phase === 'holding') return { ...state, window: state.window + 1 / state.window };
	if (now - state.decreasedAt >= PROBE_AFTER_MS) return { ...state, rate: state.rate + 1 };
	// At `rate` answers a second, this adds GROWTH_PER_SECOND x base each second.
	return { ...state, rate: state.rate + (GROWTH_PER_SECOND * state.base) / state.rate };
}

/**
 * A request sent at `sentAt` was answered 429 at `now`, while the service let `delivered`
 * requests a second through: the pace goes down, unless it already did since that request left.
 * Paced by what got through rather than by the pace, repeated 429s while the service's burst
 * refills do not compound. With nothing through, the window halves, or the pace (RFC 5681).
 */
export function afterRateLimit(
	state: PaceState,
	now: number,
	sentAt: number,
	delivered: number,
): PaceState {
	if (sentAt < state.decreasedAt) return state;
	if (state.phase === 'slowStart') return { ...state, phase: 'holding', decreasedAt: now };
	if (state.phase === 'holding' && delivered === 0)
		return { ...state, window: Math.max(1, state.window / 2), decreasedAt: now };
	const rate = Math.max(MIN_RATE, DECREASE * (delivered || state.rate));
	return { ...state, phase: 'paced', rate, base: rate, decreasedAt: now };
}

/**
 * Requests a second answered (not 429) since the last decrease (`state.decreasedAt`), over the
 * last DELIVERY_WINDOW_MS at most: `answeredAt` holds when answers came.
 */
export function deliveredRate(state: PaceState, answeredAt: number[], now: number): number {
	const from = Math.max(state.decreasedAt, now - DELIVERY_WINDOW_MS);
	const count = answeredAt.filter((at) => at > from).length;
	return count && (count * 1000) / Math.max(1, now - from);
}
