/**
 * Concurrency Auto's decisions, as pure functions of a small state: AIMD with slow start, TCP's
 * congestion control (Chiu and Jain, "Analysis of the Increase and Decrease Algorithms for
 * Congestion Avoidance in Computer Networks", 1989; RFC 5681), counted in starts a second once
 * a 429 came, since a service's limit is a rate. docs/pacer.md says why each rule is there and
 * what the simulation gives without it.
 *
 * 1. Slow start: AUTO_START items in flight, one more per answer (twice as many each round trip).
 * 2. The first 429 ends it: each 429 of that round takes one off the window (what the service let
 *    through is what stays, as TCP Westwood sets its window from what got through), which then
 *    holds, one more a round trip, until a 429 to a request sent since: the answers in between
 *    came at the rate the service allows. Its starts are spread over the last answer's round trip
 *    (paced TCP: Aggarwal, Savage and Anderson, INFOCOM 2000; RFC 9002, 7.7), or answers a busy
 *    event loop hands over together would start their items together, a bunch a bucket refuses.
 * 3. Paced at that rate. Each later 429 sets the pace to DECREASE times itself, once per round
 *    trip: a 429 to a request sent before the last decrease says nothing about the new pace.
 * 4. Each answer adds to the pace while a start waits for it (RFC 7661: a pace nothing holds to
 *    says nothing of the limit): GROWTH_PER_SECOND of the pace the last decrease set, each second
 *    (additive increase); with no 429 for PROBE_AFTER_MS, one start a second per answer (doubling
 *    in about 0.7 s), so room left by runs that ended is taken within seconds. It stops growing
 *    when the items yet to start fit in a second at the pace: a 429 then (Retry-After counts whole
 *    seconds) would end the run later than a faster pace could end it sooner.
 */

/** Items in flight at first. */
export const AUTO_START = 4;
/** The share of what got through a 429 sets the pace to (TCP's β is 0.5, CUBIC's 0.7). */
export const DECREASE = 0.9;
/** What the pace gains each second, as a share of the pace the last decrease set. */
export const GROWTH_PER_SECOND = 0.1;
/** Without a 429 for this long, the pace grows by one start a second per answer. */
export const PROBE_AFTER_MS = 1500;
/** What got through while holding is counted over this span at most. */
export const DELIVERY_WINDOW_MS = 1000;
/** The slowest pace: one start every 5 seconds. */
export const MIN_RATE = 0.2;

export interface PaceState {
	/** 'slowStart' and 'holding' (1 and 2 above): up to `window` in flight. 'paced': by `rate`. */
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

/** Retry-After counts whole seconds: a 429 holds its request at least this long. */
export const RETRY_AFTER_UNIT_MS = 1000;

/**
 * Whether answers may add to the pace (4 above): a start waits for it, and more items are yet to
 * start (`queued`) than the pace sends in RETRY_AFTER_UNIT_MS.
 */
export const mayGrow = (state: PaceState, startWaits: boolean, queued: number): boolean =>
	startWaits && queued > (state.rate * RETRY_AFTER_UNIT_MS) / 1000;

/**
 * ms between two starts: by the pace once set; holding, the window over `roundTripMs` (the last
 * answer's, 0 before any); none in slow start.
 */
export function startInterval(state: PaceState, roundTripMs = 0): number {
	if (state.phase === 'paced') return 1000 / state.rate;
	return state.phase === 'holding' ? roundTripMs / state.window : 0;
}

/** Whether one more item may start with `inFlight` items in flight. */
export const mayStart = (state: PaceState, inFlight: number): boolean =>
	state.phase === 'paced' || inFlight < Math.floor(state.window);

/**
 * A request was answered (not 429) at `now`: the window or the pace grows, the pace only when
 * `grow` (see `mayGrow`).
 */
export function afterAnswer(state: PaceState, now: number, grow: boolean): PaceState {
	if (state.phase === 'slowStart') return { ...state, window: state.window + 1 };
	if (state.phase === 'holding') return { ...state, window: state.window + 1 / state.window };
	if (!grow) return state;
	if (now - state.decreasedAt >= PROBE_AFTER_MS) return { ...state, rate: state.rate + 1 };
	// At `rate` answers a second, this adds GROWTH_PER_SECOND x base each second.
	return { ...state, rate: state.rate + (GROWTH_PER_SECOND * state.base) / state.rate };
}

/**
 * A request sent at `sentAt` was answered 429 at `now`, while the service let `delivered`
 * requests a second through (while holding): the window or the pace goes down, unless it already
 * did since that request left. Holding with nothing through, the window halves.
 */
export function afterRateLimit(
	state: PaceState,
	now: number,
	sentAt: number,
	delivered: number,
): PaceState {
	// Holding, each 429 of the round that ended slow start comes off the window (Westwood).
	if (sentAt < state.decreasedAt)
		return state.phase === 'holding' ? { ...state, window: Math.max(1, state.window - 1) } : state;
	if (state.phase === 'slowStart')
		return { ...state, phase: 'holding', window: Math.max(1, state.window - 1), decreasedAt: now };
	if (state.phase === 'holding' && delivered === 0)
		return { ...state, window: Math.max(1, state.window / 2), decreasedAt: now };
	// Leaving the hold, what got through while holding is the service's rate: pace by it.
	const rate = Math.max(MIN_RATE, state.phase === 'holding' ? delivered : DECREASE * state.rate);
	return { ...state, phase: 'paced', rate, base: rate, decreasedAt: now };
}

/**
 * Requests a second answered (not 429) over the last DELIVERY_WINDOW_MS, but not before `since`:
 * the end of slow start (whose answers came slower than the service allows, after a burst it
 * allowed), or the start of a busy spell. `answeredAt` holds when answers came.
 */
export function deliveredRate(answeredAt: number[], now: number, since: number): number {
	const from = Math.max(since, now - DELIVERY_WINDOW_MS);
	const count = answeredAt.filter((at) => at > from).length;
	return count && (count * 1000) / Math.max(1, now - from);
}
