/**
 * Concurrency Auto's controller (pacing/controller.ts), rule by rule: a window and what came,
 * the window it must give. docs/pacer.md gives each rule and why.
 */
import {
	afterAnswer,
	afterRefusal,
	burstAfterEmpty,
	AUTO_MAX_CONCURRENCY,
	CAUTIOUS_DIVISOR,
	DECREASE,
	GROWTH_ANSWERS,
	GROWTH_TOLERANCE,
	inFlightLimit,
	initialWindow,
	INITIAL_WINDOW,
	MAX_INTERVAL_MS,
	PROBE_AFTER_MS,
	QUEUE_TOLERANCE,
	rebased,
	requestKind,
	ROUND_TRIP_FLOOR_MS,
	ROUND_TRIP_SAMPLES,
	startInterval,
	STARTUP_GAIN,
	withRoundTrip,
	type Delays,
	type Window,
} from '../../nodes/DataIntegrationManagement/pacing/controller';

const NOW = 10_000;
/** A window past slow start, last cut 100 ms ago, ROUND_TRIP_SAMPLES answers since. */
const avoiding = (size: number, more: Partial<Window> = {}): Window => ({
	...initialWindow(NOW - 100, size),
	threshold: size,
	answeredSince: ROUND_TRIP_SAMPLES,
	...more,
});
const starting = (size: number, more: Partial<Window> = {}): Window => ({
	...initialWindow(1000, size),
	...more,
});
const CAUTIOUS_GAIN = 1 + (STARTUP_GAIN - 1) / CAUTIOUS_DIVISOR;
const quick: Delays = { standing: 1, recent: 1, spread: 1 };

describe('the window at first', () => {
	it(`is INITIAL_WINDOW (${INITIAL_WINDOW}) in slow start, at STARTUP_GAIN, made now`, () => {
		expect(initialWindow(5)).toEqual({
			size: INITIAL_WINDOW,
			threshold: Infinity,
			gain: STARTUP_GAIN,
			decreasedAt: 5,
			answeredSince: 0,
			through: Infinity,
		});
	});

	it.each([
		[0.02, 1],
		[1, 1],
		[2.1, 3],
		[64, 64],
	])('a window of %f lets %i be in flight', (size, limit) => {
		expect(inFlightLimit(avoiding(size))).toBe(limit);
	});
});

describe('starts are paced over the round trip', () => {
	it.each<[string, Window, number, number]>([
		['slow start: twice its gain faster', starting(10), 40, 40 / (2 * STARTUP_GAIN * 10)],
		['past slow start: the round trip over the window', avoiding(8), 40, 5],
		['a window under one: one start in more than a round trip', avoiding(0.5), 40, 80],
		['never more than MAX_INTERVAL_MS apart', avoiding(0.001), 40, MAX_INTERVAL_MS],
		['no round trip yet: at once', starting(10), 0, 0],
	])('%s', (_name, window, roundTripMs, interval) => {
		expect(startInterval(window, roundTripMs)).toBeCloseTo(interval);
	});
});

describe('a pace found empty lets a burst go at once (fq initial quantum)', () => {
	it.each<[string, Window, number]>([
		['its window, at most INITIAL_WINDOW', starting(64), INITIAL_WINDOW],
		['a smaller window whole, in whole starts', starting(4.5), 4],
		['a window under one: none, its starts stay over a round trip apart', starting(0.5), 0],
		['past slow start, at a limit a refusal taught: none', avoiding(64), 0],
		['slow start below such a limit: none', starting(10, { threshold: 40 }), 0],
	])('%s', (_name, window, burst) => {
		expect(burstAfterEmpty(window)).toBe(burst);
	});
});

describe('a refusal (429 or 503)', () => {
	it.each<[string, Window, number, number, Partial<Window>]>([
		[
			'the first in slow start: back by its gain, slow start goes on at a quarter of its gain',
			starting(40),
			NOW - 10,
			64,
			{ size: 20, threshold: Infinity, gain: CAUTIOUS_GAIN, decreasedAt: NOW, through: 63 },
		],
		[
			'a later one in slow start: back by its gain, and slow start ends',
			starting(25, { gain: CAUTIOUS_GAIN }),
			NOW - 10,
			30,
			{ size: 20, threshold: 20, gain: CAUTIOUS_GAIN, decreasedAt: NOW },
		],
		[
			'past slow start: to DECREASE of itself',
			avoiding(20),
			NOW - 10,
			30,
			{ size: 20 * DECREASE, threshold: 20 * DECREASE, decreasedAt: NOW, answeredSince: 0 },
		],
		[
			'past slow start, no more than was in flight (Westwood)',
			avoiding(20),
			NOW - 10,
			6,
			{ size: 6, threshold: 6, through: 6 },
		],
		[
			'in slow start, no more than was in flight less this refusal: its whole round may be over',
			starting(20),
			NOW - 10,
			6,
			{ size: 5, threshold: Infinity, through: 5 },
		],
		[
			'for a request sent at the very instant of the last decrease: one after it',
			avoiding(20, { decreasedAt: NOW - 10 }),
			NOW - 10,
			30,
			{ size: 20 * DECREASE, decreasedAt: NOW },
		],
		[
			'never below one because of what got through',
			avoiding(20),
			NOW - 10,
			1,
			{ size: 1, threshold: 1 },
		],
		[
			'a window under one goes down by DECREASE',
			avoiding(0.5),
			NOW - 10,
			1,
			{ size: 0.5 * DECREASE, threshold: 0.5 * DECREASE },
		],
		[
			'one for a request sent before the last decrease: takes its place off what got through',
			avoiding(18, { decreasedAt: NOW - 5, through: 10 }),
			NOW - 10,
			30,
			{ size: 9, threshold: 9, through: 9, decreasedAt: NOW - 5 },
		],
		[
			'likewise in slow start, which goes on',
			starting(18, { decreasedAt: NOW - 5, through: 10, gain: CAUTIOUS_GAIN }),
			NOW - 10,
			30,
			{ size: 9, threshold: Infinity, through: 9 },
		],
		[
			'likewise, no lower than one by it',
			avoiding(3, { decreasedAt: NOW - 5, through: 1 }),
			NOW - 10,
			30,
			{ size: 1, through: 0 },
		],
		[
			'a suspected queue is over: the refusal decided it',
			avoiding(20, { probe: { size: 40, threshold: 40, standing: 3 } }),
			NOW - 10,
			30,
			{ size: 20 * DECREASE, probe: undefined },
		],
	])('%s', (_name, window, sentAt, inFlight, expected) => {
		expect(afterRefusal(window, NOW, sentAt, inFlight)).toMatchObject(expected);
	});
});

describe('an answer', () => {
	const answer = (more: Partial<Parameters<typeof afterAnswer>[1]> = {}) => ({
		now: NOW,
		sentAt: NOW - 40,
		delays: quick,
		inUse: true,
		ending: false,
		...more,
	});

	it.each<[string, Window, Partial<Parameters<typeof afterAnswer>[1]>, number]>([
		['slow start, in use, quick: one more (the window doubles a round trip)', starting(10), {}, 11],
		[
			'slow start at a quarter gain: a quarter more',
			starting(10, { gain: CAUTIOUS_GAIN }),
			{},
			10 + CAUTIOUS_GAIN - 1,
		],
		['before a baseline: grows', starting(10), { delays: undefined }, 11],
		[
			'the last answers at exactly GROWTH_TOLERANCE of the baseline: grows',
			starting(10),
			{ delays: { ...quick, recent: GROWTH_TOLERANCE } },
			11,
		],
		[
			'not in use (the window was not full since it left): nothing',
			starting(10),
			{ inUse: false },
			10,
		],
		[
			'the last answers slower than GROWTH_TOLERANCE of the baseline: nothing',
			starting(10),
			{ delays: { ...quick, recent: 1.2 } },
			10,
		],
		[
			'past slow start: 1 / GROWTH_ANSWERS of itself',
			avoiding(30),
			{},
			30 * (1 + 1 / GROWTH_ANSWERS),
		],
		['past slow start, in the last second of items: nothing', avoiding(30), { ending: true }, 30],
		[
			'past slow start PROBE_AFTER_MS without a decrease: slow start again, at a quarter of its gain',
			avoiding(30, { decreasedAt: NOW - PROBE_AFTER_MS - 1 }),
			{},
			30 + CAUTIOUS_GAIN - 1,
		],
		[
			'past slow start exactly PROBE_AFTER_MS without a decrease: not yet',
			avoiding(30, { decreasedAt: NOW - PROBE_AFTER_MS }),
			{},
			30 * (1 + 1 / GROWTH_ANSWERS),
		],
		['slow start, a window under one: its gain an answer', starting(0.5), {}, 1],
		['slow start in the last second of items: grows', starting(10), { ending: true }, 11],
		['never past the default ceiling', starting(AUTO_MAX_CONCURRENCY), {}, AUTO_MAX_CONCURRENCY],
	])('%s', (_name, window, more, size) => {
		expect(afterAnswer(window, answer(more)).window.size).toBeCloseTo(size);
	});

	it.each([
		['sent since the last decrease: counted', NOW - 40, 1],
		['sent at its very instant: counted', NOW - 100, 1],
		['sent before it: not', 500, 0],
	])('%s', (_name, sentAt, counted) => {
		expect(
			afterAnswer(avoiding(10, { answeredSince: 0 }), answer({ sentAt })).window.answeredSince,
		).toBe(counted);
	});
});

describe('a standing queue (the quickest of the last ROUND_TRIP_SAMPLES over twice the baseline)', () => {
	const standing = (value: number, more: Partial<Delays> = {}): Delays => ({
		standing: value,
		recent: value,
		spread: 1,
		...more,
	});
	const sign = (window: Window, delays: Delays) =>
		afterAnswer(window, { now: NOW, sentAt: NOW - 40, delays, inUse: true, ending: false });

	it('a first sign halves the window, out of slow start, and keeps what it was to test it', () => {
		expect(sign(starting(40, { answeredSince: ROUND_TRIP_SAMPLES }), standing(3))).toEqual({
			window: {
				...starting(20),
				threshold: 20,
				decreasedAt: NOW,
				answeredSince: 0,
				probe: { size: 40, threshold: Infinity, standing: 3 },
			},
		});
	});

	it('before all of the last ROUND_TRIP_SAMPLES answers left since the last decrease: nothing yet; with the last of them, the sign', () => {
		const window = avoiding(40, { answeredSince: ROUND_TRIP_SAMPLES - 2 });
		expect(sign(window, standing(3)).window.size).toBe(40);
		const last = avoiding(40, { answeredSince: ROUND_TRIP_SAMPLES - 1 });
		expect(sign(last, standing(3)).window.size).toBe(20);
	});

	it('the quickest at exactly QUEUE_TOLERANCE baselines: no sign', () => {
		const window = avoiding(40, { answeredSince: ROUND_TRIP_SAMPLES });
		expect(sign(window, standing(QUEUE_TOLERANCE)).window.size).toBe(40);
	});

	it('a sign while one is tested: DECREASE again, the test goes on', () => {
		const probe = { size: 40, threshold: 40, standing: 3 };
		expect(sign(avoiding(20, { probe }), standing(2.05)).window).toMatchObject({
			size: 20 * DECREASE,
			probe,
		});
	});

	it.each([
		['a window of one, the quickest 2.5 baselines late', 1, 2.5, true],
		[
			'a window of QUEUE_TOLERANCE, 2.1 late: ours alone delay an answer less',
			QUEUE_TOLERANCE,
			2.1,
			true,
		],
		['a window of 8, 10 late: ours alone delay an answer less', 8, 10, true],
		['a window of 10, 10 late: ours may, halved to test it', 10, 10, undefined],
		['a window of 3, 2.5 late: ours may, halved to test it', 3, 2.5, undefined],
	])(
		'with %s: over QUEUE_TOLERANCE, over the window, the service slowed',
		(_name, size, late, rebase) => {
			expect(
				sign(avoiding(size, { answeredSince: ROUND_TRIP_SAMPLES }), standing(late)).rebase,
			).toBe(rebase);
		},
	);

	it('with one in flight, none of ours is ahead of it: the delay is the service own, taken as the baseline, and slow start goes on', () => {
		expect(sign(avoiding(0.4), standing(10))).toEqual({
			window: { ...avoiding(0.4, { answeredSince: ROUND_TRIP_SAMPLES + 1 }), threshold: Infinity },
			rebase: true,
		});
	});

	it.each<[string, Delays, Partial<Window> | undefined]>([
		[
			'the quickest fell less than the square root of the cut: not a queue, the window back in slow start',
			standing(2.5),
			{ size: 40, threshold: Infinity },
		],
		[
			'back within GROWTH_TOLERANCE: a queue that drained, the cut stays',
			standing(1.05),
			{ size: 20, threshold: 20 },
		],
		[
			'drained, but the median over twice the quickest: the spread of the service, the window back',
			standing(1.05, { spread: 2.5 }),
			{ size: 40, threshold: 30 },
		],
		[
			'back at exactly GROWTH_TOLERANCE: drained',
			standing(GROWTH_TOLERANCE),
			{ size: 20, threshold: 20 },
		],
		[
			'drained, the median at exactly twice the quickest: the cut stays',
			standing(1.05, { spread: QUEUE_TOLERANCE }),
			{ size: 20, threshold: 20 },
		],
		['fell, and still a queue: no verdict yet', standing(1.9), undefined],
	])('tested: %s', (_name, delays, expected) => {
		const window = avoiding(20, { probe: { size: 40, threshold: 30, standing: 3 } });
		const after = sign(window, delays);
		if (expected)
			expect(after).toEqual({
				window: { ...window, answeredSince: ROUND_TRIP_SAMPLES + 1, ...expected, probe: undefined },
				rebase: true,
			});
		else expect(after.rebase).toBeUndefined();
	});

	it('tested, the quickest at exactly the square root of the cut over the sign: not a queue', () => {
		const window = avoiding(10, { probe: { size: 40, threshold: 30, standing: 3 } });
		expect(sign(window, standing(3 * Math.sqrt(10 / 40)))).toMatchObject({
			window: { size: 40, threshold: Infinity },
			rebase: true,
		});
	});

	it('tested, the window grown back past half of the sign: no verdict of "not a queue", DECREASE again', () => {
		const window = avoiding(21, { probe: { size: 40, threshold: 30, standing: 3 } });
		const after = sign(window, standing(2.5));
		expect(after.rebase).toBeUndefined();
		expect(after.window.size).toBeCloseTo(21 * DECREASE);
	});
});

describe('the round trips of a kind of request', () => {
	const fed = (values: number[]) =>
		values.reduce<ReturnType<typeof withRoundTrip>>((last, ms) => withRoundTrip(last.trips, ms), {
			trips: { recentMs: [] },
		});

	it('start from the first answer of a kind', () => {
		expect(withRoundTrip(undefined, 20)).toEqual({ trips: { recentMs: [20] } });
	});

	it('give no delays before RECENT_ANSWERS came, then read the quickest against the lowest median', () => {
		expect(fed([20, 20, 20]).delays).toBeUndefined();
		expect(fed([20, 30, 40, 10])).toEqual({
			trips: { baselineMs: 30, recentMs: [20, 30, 40, 10] },
			delays: { standing: 10 / 30, recent: 10 / 30, spread: 3 },
		});
	});

	it('keep the lowest median seen as the baseline, and the last ROUND_TRIP_SAMPLES answers', () => {
		const trips = fed([
			...Array(ROUND_TRIP_SAMPLES).fill(20),
			...Array(ROUND_TRIP_SAMPLES).fill(60),
		]);
		expect(trips.trips.baselineMs).toBe(20);
		expect(trips.trips.recentMs).toEqual(Array(ROUND_TRIP_SAMPLES).fill(60));
		expect(trips.delays).toEqual({ standing: 3, recent: 3, spread: 1 });
	});

	it('read the quickest of the last RECENT_ANSWERS apart from the quickest of all', () => {
		expect(fed([20, 20, 20, 20, 20, 50, 50, 50, 50]).delays).toMatchObject({
			standing: 1,
			recent: 2.5,
		});
	});

	it(`count from ROUND_TRIP_FLOOR_MS (${ROUND_TRIP_FLOOR_MS} ms) up`, () => {
		expect(fed([1, 2, 1, 2]).delays).toEqual({ standing: 1, recent: 1, spread: 1 });
	});

	it('take the median now as the baseline when a test says so', () => {
		expect(rebased({ baselineMs: 5, recentMs: [100, 90, 110] })).toEqual({
			baselineMs: 100,
			recentMs: [100, 90, 110],
		});
	});

	it.each([
		['GET', '/users?search=a', 'GET users'],
		['PUT', '/tags/t-1', 'PUT tags *'],
		['GET', '/integrations/i-1/schemas', 'GET integrations * *'],
	])('are kept by kind: %s %s is %s', (method, path, kind) => {
		expect(requestKind(method, path)).toBe(kind);
	});
});
