/**
 * Concurrency Auto's decisions, one state change at a time: each row a state, an event on the
 * fake clock's time line (ms), and the state that must follow.
 */
import {
	afterAnswer,
	afterRateLimit,
	AUTO_START,
	DECREASE,
	deliveredRate,
	DELIVERY_WINDOW_MS,
	GROWTH_PER_SECOND,
	initialPace,
	mayGrow,
	mayStart,
	MIN_RATE,
	PROBE_AFTER_MS,
	startInterval,
	type PaceState,
} from '../../nodes/DataIntegrationManagement/transport/aimd';

const slowStart = (window: number): PaceState => ({ ...initialPace(), window });
const holding = (window: number, decreasedAt: number): PaceState => ({
	...initialPace(),
	phase: 'holding',
	window,
	decreasedAt,
});
const paced = (rate: number, base: number, decreasedAt: number): PaceState => ({
	...initialPace(),
	phase: 'paced',
	rate,
	base,
	decreasedAt,
});

describe('the pace before any answer', () => {
	it('starts AUTO_START items at once, unpaced', () => {
		const state = initialPace();
		expect(state.phase).toBe('slowStart');
		expect(startInterval(state)).toBe(0);
		expect(mayStart(state, AUTO_START - 1)).toBe(true);
		expect(mayStart(state, AUTO_START)).toBe(false);
	});
});

describe('an answer (not 429)', () => {
	it.each<[string, PaceState, number, boolean, Partial<PaceState>]>([
		['slow start: one more in flight', slowStart(4), 100, true, { window: 5 }],
		[
			'slow start, the window not full: one more all the same',
			slowStart(4),
			100,
			false,
			{ window: 5 },
		],
		['holding: one more a round trip', holding(10, 50), 100, true, { window: 10.1 }],
		[
			'paced: GROWTH_PER_SECOND of the base a second (at `rate` answers a second)',
			paced(100, 100, 0),
			1000,
			true,
			{ rate: 100 + GROWTH_PER_SECOND },
		],
		[
			'paced, no 429 for PROBE_AFTER_MS: one start a second more per answer',
			paced(100, 100, 0),
			PROBE_AFTER_MS,
			true,
			{ rate: 101 },
		],
		[
			'paced, just under PROBE_AFTER_MS: still additive',
			paced(100, 100, 1),
			PROBE_AFTER_MS,
			true,
			{ rate: 100 + GROWTH_PER_SECOND },
		],
		[
			'paced, no start waiting for the pace: it stays (RFC 7661)',
			paced(100, 100, 0),
			5000,
			false,
			{},
		],
	])('%s', (_name, state, now, grow, expected) => {
		expect(afterAnswer(state, now, grow)).toEqual({ ...state, ...expected });
	});
});

describe('whether answers may add to the pace', () => {
	it.each<[string, boolean, number, boolean]>([
		['a start waits for the pace, over a second of items yet to start', true, 101, true],
		[
			'a start waits, a second of items yet to start: a 429 would end the run later',
			true,
			100,
			false,
		],
		['a start waits, fewer items yet to start', true, 3, false],
		['no start waits for it (RFC 7661)', false, 1000, false],
	])('paced at 100/s: %s', (_name, startWaits, queued, expected) => {
		expect(mayGrow(paced(100, 100, 0), startWaits, queued)).toBe(expected);
	});

	it('counts a second at the pace: 400 items yet to start at 400/s do not let it grow, 401 do', () => {
		expect(mayGrow(paced(400, 400, 0), true, 400)).toBe(false);
		expect(mayGrow(paced(400, 400, 0), true, 401)).toBe(true);
	});
});

describe('a 429', () => {
	it.each<[string, PaceState, { now: number; sentAt: number; delivered: number }, PaceState]>([
		[
			'paced, to a request sent before the last decrease: nothing changes',
			paced(100, 100, 500),
			{ now: 520, sentAt: 499, delivered: 50 },
			paced(100, 100, 500),
		],
		[
			'in slow start: one off the window, which holds',
			slowStart(12),
			{ now: 80, sentAt: 60, delivered: 300 },
			holding(11, 80),
		],
		[
			'holding, to a request of the round that ended slow start: one more off the window',
			holding(11, 80),
			{ now: 82, sentAt: 61, delivered: 300 },
			holding(10, 80),
		],
		[
			'holding, the window at one: it stays one',
			holding(1, 80),
			{ now: 82, sentAt: 61, delivered: 0 },
			holding(1, 80),
		],
		[
			'holding, with answers since: paced at what got through',
			holding(12, 80),
			{ now: 110, sentAt: 90, delivered: 200 },
			{ ...paced(200, 200, 110), window: 12 },
		],
		[
			'holding, with nothing through: the window halves',
			holding(12, 80),
			{ now: 110, sentAt: 90, delivered: 0 },
			holding(6, 110),
		],
		[
			'paced: DECREASE times the pace, whatever got through',
			paced(90, 90, 0),
			{ now: 2000, sentAt: 1980, delivered: 30 },
			paced(DECREASE * 90, DECREASE * 90, 2000),
		],
		[
			'paced, to a request sent in the very millisecond of the last decrease: down again',
			paced(90, 90, 2000),
			{ now: 2100, sentAt: 2000, delivered: 30 },
			paced(DECREASE * 90, DECREASE * 90, 2100),
		],
		[
			'paced, to a request sent before the last decrease: the pace stays',
			paced(90, 90, 2000),
			{ now: 2100, sentAt: 1999, delivered: 30 },
			paced(90, 90, 2000),
		],
		[
			'never below MIN_RATE',
			paced(MIN_RATE, MIN_RATE, 0),
			{ now: 9000, sentAt: 8000, delivered: 0 },
			paced(MIN_RATE, MIN_RATE, 9000),
		],
	])('%s', (_name, state, { now, sentAt, delivered }, expected) => {
		expect(afterRateLimit(state, now, sentAt, delivered)).toEqual(expected);
	});
});

describe('once paced', () => {
	it('starts are 1000 / rate ms apart, whatever is in flight or the round trip', () => {
		expect(startInterval(paced(50, 50, 0), 999)).toBe(20);
		expect(mayStart(paced(50, 50, 0), 1000)).toBe(true);
	});
});

describe('how far apart starts go before the pace is set', () => {
	it.each<[string, PaceState, number, number]>([
		['holding: the window spread over the last round trip', holding(10, 0), 50, 5],
		['holding, no answer yet (no round trip): at once', holding(10, 0), 0, 0],
		['slow start: at once, whatever the round trip', slowStart(10), 50, 0],
	])('%s', (_name, state, roundTripMs, interval) => {
		expect(startInterval(state, roundTripMs)).toBe(interval);
	});
});

describe('what the service let through', () => {
	it.each<[string, number[], number, number, number]>([
		['answers a second since `since`', [100, 150, 200, 250], 300, 100, 15],
		['over DELIVERY_WINDOW_MS at most', [0, 500, 1500, 1600], 1000 + DELIVERY_WINDOW_MS, 0, 2],
		['nothing: 0', [10, 20], 100, 50, 0],
	])('%s', (_name, answeredAt, now, since, expected) => {
		expect(deliveredRate(answeredAt, now, since)).toBeCloseTo(expected, 5);
	});
});
