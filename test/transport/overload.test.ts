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
	TEST_SPAN,
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
/** Delays: the answer's, the quickest recent one's and their median's (the quickest's unless given). */
const delays = (answer: number, standing: number, typical = standing): Delays => ({
	answer,
	standing,
	typical,
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
	])('%s', (_title, state, sentAt, expected) => {
		expect(afterOverload(state, 100, sentAt)).toEqual(expected);
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
			'a standing queue just at QUEUE_TOLERANCE: no sign',
			avoiding(10, 0),
			answer(delays(QUEUE_TOLERANCE, QUEUE_TOLERANCE)),
			avoiding(10, 0, 100),
		],
		[
			'a standing queue over QUEUE_TOLERANCE: a first sign cuts to TEST_SPAN, in slow start too, and suspects a queue',
			{ ...slowStart(40), answeredSince: 99 },
			answer(queue),
			{
				...avoiding(40 * TEST_SPAN, 100, 0),
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
			'a standing queue over QUEUE_TOLERANCE after slow start: cut to TEST_SPAN, to be tested',
			avoiding(40, 0),
			answer(queue),
			{
				...avoiding(40 * TEST_SPAN, 100, 0),
				suspect: { limit: 40, slowStart: false, standing: queue.standing },
			},
		],
		[
			'a standing queue while suspected: cut again, the suspect kept',
			{ ...avoiding(36, 0), suspect },
			answer(queue),
			{ ...avoiding(36 * OVERLOAD_DECREASE, 100, 0), suspect },
		],
		[
			'suspected, cut to TEST_SPAN, the standing delay fell in proportion: a queue, still cut',
			{ ...avoiding(30, 0), suspect },
			answer(delays(3, 3 * TEST_SPAN)),
			{ ...avoiding(27, 100, 0), suspect },
		],
		[
			'suspected, cut only to 80%: not tested yet',
			{ ...avoiding(32, 0), suspect },
			answer(delays(3, 3)),
			{ ...avoiding(32 * OVERLOAD_DECREASE, 100, 0), suspect },
		],
	])('%s', (_title, state, event, expected) => {
		expect(afterAnswered(state, event)).toEqual({ state: expected });
	});

	it.each<[string, Delays, number]>([
		['a queue that drained: the cut stays', delays(1, 1), 36],
		[
			'all answers slow but the quickest: the sign came from too low a baseline, the limit comes back',
			delays(1, 1, suspect.standing / QUEUE_TOLERANCE),
			40,
		],
	])(
		'suspected, the quickest recent answer back within GROWTH_TOLERANCE, %s; the baseline taken again',
		(_title, event, limit) => {
			expect(afterAnswered({ ...avoiding(36, 0), suspect }, answer(event))).toEqual({
				state: { ...avoiding(limit, 0, 100), suspect: undefined },
				rebase: true,
			});
		},
	);

	it.each<[string, number, number]>([
		['as slow as before: the limit comes back', 1, 40],
		["slower than the baseline: more in flight for the same throughput (Little's law)", 1.5, 60],
		['much slower: up to AUTO_MAX_CONCURRENCY', 3, AUTO_MAX_CONCURRENCY],
	])(
		'suspected, cut to TEST_SPAN, the standing delay did not fall, the answers %s; the delay is the baseline now',
		(_title, typical, limit) => {
			const event = answer(delays(3, 3, typical));
			expect(afterAnswered({ ...avoiding(30, 0), suspect }, event)).toEqual({
				state: { ...avoiding(limit, 0, 100), suspect: undefined },
				rebase: true,
			});
		},
	);
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
		expect(after([...window(40), ...window(100)]).delays).toEqual(delays(2.5, 2.5));
	});

	it('keeps the baseline while answers slow down (a queue, or the service: afterAnswered tells)', () => {
		expect(after([...window(40), ...window(79)]).trips.baselineMs).toBe(40);
	});

	it(`takes the baseline again when the recent median is under it by QUEUE_TOLERANCE (the service got faster)`, () => {
		expect(after([...window(100), ...window(50)]).trips.baselineMs).toBe(100);
		expect(after([...window(100), ...window(49)]).trips.baselineMs).toBe(49);
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
