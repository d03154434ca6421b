/**
 * Concurrency Auto's pace from 429s, as pure functions: AIMD with slow start, TCP's congestion
 * control (Chiu and Jain, 1989; RFC 5681) counted in starts a second once a 429 came, since a
 * service's limit is a rate. docs/pacer.md gives each rule and why.
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
	/** 'slowStart' and 'holding': up to `window` in flight. 'paced': by `rate`. */
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

/** Whether answers may add to the pace: a start waits, and more are queued than a second holds. */
export const mayGrow = (state: PaceState, startWaits: boolean, queued: number): boolean =>
	startWaits && queued > (state.rate * RETRY_AFTER_UNIT_MS) / 1000;

/** ms between two starts: by the pace; holding, the window over the last round trip; else none. */
export function startInterval(state: PaceState, roundTripMs = 0): number {
	if (state.phase === 'paced') return 1000 / state.rate;
	return state.phase === 'holding' ? roundTripMs / state.window : 0;
}

/** Whether one more item may start with `inFlight` items in flight. */
export const mayStart = (state: PaceState, inFlight: number): boolean =>
	state.phase === 'paced' || inFlight < Math.floor(state.window);

/** A request was answered without an error status at `now`: the window grows, or the pace when `grow`. */
export function afterAnswer(state: PaceState, now: number, grow: boolean): PaceState {
	if (state.phase === 'slowStart') return { ...state, window: state.window + 1 };
	if (state.phase === 'holding') return { ...state, window: state.window + 1 / state.window };
	if (!grow) return state;
	if (now - state.decreasedAt >= PROBE_AFTER_MS) return { ...state, rate: state.rate + 1 };
	// At `rate` answers a second, this adds GROWTH_PER_SECOND x base each second.
	return { ...state, rate: state.rate + (GROWTH_PER_SECOND * state.base) / state.rate };
}

/**
 * A request sent at `sentAt` was answered 429 at `now`, `delivered` a second getting through: the
 * window or the pace goes down, unless it already did since that request left.
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
 * Answers a second (not 429) over the last DELIVERY_WINDOW_MS, from `since` on: the end of slow
 * start (its answers came slower than allowed), or the start of a busy spell.
 */
export function deliveredRate(answeredAt: number[], now: number, since: number): number {
	const from = Math.max(since, now - DELIVERY_WINDOW_MS);
	const count = answeredAt.filter((at) => at > from).length;
	return count && (count * 1000) / Math.max(1, now - from);
}
