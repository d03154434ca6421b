/**
 * Concurrency Auto's limit from the service's signs of overload (transport/overload.ts), one
 * rule at a time: each row a state, an event on the fake clock's time line (ms), and the state
 * that must follow.
 */
import {
	afterAnswered,
	afterOverload,
	AUTO_MAX_CONCURRENCY,
	GROWTH_TOLERANCE,
	initialLimit,
	OVERLOAD_DECREASE,
	QUEUE_TOLERANCE,
	requestKind,
	ROUND_TRIP_FLOOR_MS,
	ROUND_TRIP_SAMPLES,
	rebased,
	withRoundTrip,
	type Delays,
	type LimitState,
	type RoundTrips,
} from '../../nodes/DataIntegrationManagement/transport/overload';

const slowStart = (limit: number): LimitState => ({ ...initialLimit(4), limit });
/** After slow start, last decreased at `decreasedAt`, with `answeredSince` answers since. */
const avoiding = (limit: number, decreasedAt: number, answeredSince = 99): LimitState => ({
	limit,
	slowStart: false,
	decreasedAt,
	answeredSince,
});
/** Delays: the answer's, the quickest recent one's, and the recent median over the quickest. */
const delays = (answer: number, standing: number, spread = 1): Delays => ({
	answer,
	standing,
	spread,
});
const quick = delays(1, 1);

describe('a sign of overload (a 503, or a standing queue)', () => {
	it.each<[string, LimitState, number, LimitState]>([
		['slow start: halved, and slow start ends', slowStart(32), 90, avoiding(16, 100, 0)],
		[
			'after slow start: OVERLOAD_DECREASE of itself',
			avoiding(20, 0),
			50,
			avoiding(20 * OVERLOAD_DECREASE, 100, 0),
		],
		['never below one', avoiding(1, 0), 50, avoiding(1, 100, 0)],
		['a request sent before the last decrease: nothing', avoiding(20, 60), 59, avoiding(20, 60)],
		[
			'a request sent as the last decrease came: counted',
			avoiding(20, 60),
			60,
			avoiding(18, 100, 0),
		],
		[
			'a suspected queue: the test ends, the suspect forgotten, the limit cut',
			{ ...avoiding(20, 60), suspect: { limit: 40, slowStart: true, standing: 3 } },
			70,
			avoiding(18, 100, 0),
		],
		[
			'a suspected queue, from a request sent before its cut: the test ends, the cut stays',
			{ ...avoiding(20, 60), suspect: { limit: 40, slowStart: true, standing: 3 } },
			59,
			avoiding(20, 60),
		],
	])('%s', (_title, state, sentAt, expected) => {
		expect(afterOverload(state, 100, sentAt)).toEqual(expected);
	});

	it('a 503 while a queue is suspected is not undone by a later "not a queue" verdict', () => {
		const answered = (state: LimitState, now: number, standing: number) =>
			afterAnswered(state, {
				now,
				sentAt: now - 10,
				delays: delays(standing, standing),
				inUse: true,
			}).state;
		let state = answered({ ...slowStart(8), answeredSince: 99 }, 100, 3);
		expect(state).toMatchObject({ limit: 4, suspect: { limit: 8, slowStart: true } });
		state = afterOverload(state, 150, 120);
		for (let now = 200; now < 216; now++) state = answered(state, now, 3);
		// Without the 503 these answers (the quickest as slow at half the limit) bring back 8.
		expect(state.limit).toBeLessThan(4);
		expect(state.slowStart).toBe(false);
	});
});

describe('an answer', () => {
	const answer = (delays: Delays | undefined, inUse = true, sentAt = 80) => ({
		now: 100,
		sentAt,
		delays,
		inUse,
	});
	const queue = delays(3, QUEUE_TOLERANCE + 0.01);
	const suspect = { limit: 40, slowStart: false, standing: 3 };
	it.each<[string, LimitState, ReturnType<typeof answer>, LimitState]>([
		[
			'slow start, in use: one more',
			slowStart(4),
			answer(quick),
			{ ...slowStart(5), answeredSince: 1 },
		],
		[
			'before a baseline (no delays): slow start grows',
			slowStart(4),
			answer(undefined),
			{ ...slowStart(5), answeredSince: 1 },
		],
		[
			'after slow start, in use: one more a round trip',
			avoiding(10, 0),
			answer(quick),
			avoiding(10.1, 0, 100),
		],
		[
			'never past AUTO_MAX_CONCURRENCY',
			slowStart(AUTO_MAX_CONCURRENCY),
			answer(quick),
			{ ...slowStart(AUTO_MAX_CONCURRENCY), answeredSince: 1 },
		],
		[
			'not in use: nothing',
			slowStart(4),
			answer(quick, false),
			{ ...slowStart(4), answeredSince: 1 },
		],
		[
			'its own round trip just at GROWTH_TOLERANCE: one more',
			slowStart(4),
			answer(delays(GROWTH_TOLERANCE, 1)),
			{ ...slowStart(5), answeredSince: 1 },
		],
		[
			'its own round trip over GROWTH_TOLERANCE: nothing (the service keeps requests waiting)',
			slowStart(4),
			answer(delays(GROWTH_TOLERANCE + 0.01, 1)),
			{ ...slowStart(4), answeredSince: 1 },
		],
		[
			'a request sent before the last decrease: not counted among those since',
			avoiding(10, 90, 3),
			answer(quick),
			avoiding(10.1, 90, 3),
		],
		[
			'a request sent at the instant of the last decrease: counted among those since',
			avoiding(10, 80, 3),
			answer(quick),
			avoiding(10.1, 80, 4),
		],
		[
			'a standing queue just at QUEUE_TOLERANCE: no sign',
			avoiding(10, 0),
			answer(delays(QUEUE_TOLERANCE, QUEUE_TOLERANCE)),
			avoiding(10, 0, 100),
		],
		[
			'a standing queue over QUEUE_TOLERANCE: a first sign halves the limit and suspects a queue',
			avoiding(40, 0),
			answer(queue),
			{
				...avoiding(20, 100, 0),
				suspect: { limit: 40, slowStart: false, standing: queue.standing },
			},
		],
		[
			'the same in slow start: halved, slow start ends, kept in the suspect',
			{ ...slowStart(40), answeredSince: 99 },
			answer(queue),
			{
				...avoiding(20, 100, 0),
				suspect: { limit: 40, slowStart: true, standing: queue.standing },
			},
		],
		[
			'a standing queue while fewer than ROUND_TRIP_SAMPLES answers came since the last decrease: nothing yet',
			avoiding(10, 0, ROUND_TRIP_SAMPLES - 2),
			answer(queue),
			avoiding(10, 0, ROUND_TRIP_SAMPLES - 1),
		],
		[
			'suspected, not halved yet, still a queue: OVERLOAD_DECREASE once a round trip, the suspect kept',
			{ ...avoiding(36, 0), suspect },
			answer(queue),
			{ ...avoiding(36 * OVERLOAD_DECREASE, 100, 0), suspect },
		],
		[
			'suspected but not halved (the sign came from a request sent before the last decrease), as slow as then: no verdict, cut',
			{ ...avoiding(36, 0), suspect },
			answer(delays(3, 3)),
			{ ...avoiding(36 * OVERLOAD_DECREASE, 100, 0), suspect },
		],
		[
			'suspected, halved, the quickest fell in proportion but is still a queue: cut again',
			{ ...avoiding(20, 0), suspect: { ...suspect, standing: 6 } },
			answer(delays(3, 3)),
			{ ...avoiding(20 * OVERLOAD_DECREASE, 100, 0), suspect: { ...suspect, standing: 6 } },
		],
		[
			'suspected, halved, the quickest fell in proportion and is within the band: not yet (more answers decide)',
			{ ...avoiding(20, 0), suspect: { ...suspect, standing: 4 } },
			answer(delays(1.5, 1.5)),
			{ ...avoiding(20, 0, 100), suspect: { ...suspect, standing: 4 } },
		],
	])('%s', (_title, state, event, expected) => {
		expect(afterAnswered(state, event)).toEqual({ state: expected });
	});

	it.each<[string, LimitState, Delays, number]>([
		[
			'halved, the quickest did not fall (by less than the square root of the cut): no queue, the limit back',
			{ ...avoiding(20, 0), suspect },
			delays(3, 3 * Math.SQRT1_2),
			40,
		],
		[
			'the quickest back within GROWTH_TOLERANCE: a queue that drained, the cut stays',
			{ ...avoiding(20, 0), suspect },
			delays(1, 1),
			20,
		],
		[
			'the quickest back just at GROWTH_TOLERANCE: drained, the cut stays',
			{ ...avoiding(20, 0), suspect },
			delays(1, GROWTH_TOLERANCE),
			20,
		],
		[
			'the same with the median up to twice the quickest (a queue delays all alike; this process adds jitter): the cut stays',
			{ ...avoiding(20, 0), suspect },
			delays(1, 0.8, QUEUE_TOLERANCE),
			20,
		],
		[
			'back within GROWTH_TOLERANCE, the median over twice the quickest: the spread of the service, not a queue (the baseline was too low), the limit back',
			{ ...avoiding(20, 0), suspect },
			delays(1, 0.8, QUEUE_TOLERANCE + 0.01),
			40,
		],
	])('suspected, %s; the baseline taken again', (_title, state, event, limit) => {
		expect(afterAnswered(state, answer(event))).toEqual({
			state: { ...avoiding(limit, 0, 100), suspect: undefined },
			rebase: true,
		});
	});
});

describe('round trips', () => {
	/** The trips and delays after answers of `ms` in turn. */
	const after = (ms: number[], trips?: RoundTrips) => {
		let result: ReturnType<typeof withRoundTrip> = { trips: trips ?? { recentMs: [] } };
		for (const one of ms) result = withRoundTrip(result.trips, one);
		return result;
	};
	const window = (ms: number) => Array<number>(ROUND_TRIP_SAMPLES).fill(ms);

	it(`no delays before ${ROUND_TRIP_SAMPLES} answers; then the baseline is their median`, () => {
		expect(after(window(40).slice(1)).delays).toBeUndefined();
		const ms = Array.from({ length: ROUND_TRIP_SAMPLES }, (_, index) => 10 + 10 * index);
		expect(after(ms).trips.baselineMs).toBe(90);
	});

	it('compares each answer, and the quickest of the last ones, with the baseline', () => {
		expect(after([...window(40), 60]).delays).toEqual(delays(1.5, 1));
		expect(after([...window(40), ...window(20).slice(8), 30]).delays).toEqual(
			delays(1, 20 / 30, 1.5),
		);
		expect(after([...window(40), ...window(100)]).delays).toEqual(delays(2.5, 2.5));
	});

	it('keeps the baseline while answers slow down (a queue, or the service: afterAnswered tells)', () => {
		expect(after([...window(40), ...window(79)]).trips.baselineMs).toBe(40);
	});

	it('rebased: the recent median is the baseline, the recent answers kept', () => {
		expect(rebased({ baselineMs: 10, recentMs: [50, 30, 40] })).toEqual({
			baselineMs: 40,
			recentMs: [50, 30, 40],
		});
	});

	it('lowers the baseline to any lower median of the last answers (the service got faster)', () => {
		expect(after([...window(100), ...window(90)]).trips.baselineMs).toBe(90);
	});

	it(`compares from ${ROUND_TRIP_FLOOR_MS} ms up: a clock's whole milliseconds are not a queue`, () => {
		expect(after([...window(1), 3]).delays).toEqual(delays(1, 1));
		expect(after([...window(0), 20]).delays?.answer).toBe(20 / ROUND_TRIP_FLOOR_MS);
	});
});

describe('requestKind: what a round trip is compared with', () => {
	it.each([
		['POST', '/tags', 'POST tags'],
		['PUT', '/tags/t-1', 'PUT tags *'],
		['GET', '/integrations/i-9/schemas', 'GET integrations * *'],
		['GET', '/audit-logs?limit=100', 'GET audit-logs'],
	])('%s %s: %s', (method, path, kind) => {
		expect(requestKind(method, path)).toBe(kind);
	});
});
