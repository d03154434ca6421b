/**
 * Concurrency Auto's limit from the service's signs of overload (transport/overload.ts), one
 * rule at a time: each row a state, an event on the fake clock's time line (ms), and the state
 * that must follow.
 */
import {
	afterAnswered,
	afterOverload,
	GROWTH_TOLERANCE,
	initialLimit,
	OVERLOAD_DECREASE,
	QUEUE_TOLERANCE,
	requestKind,
	ROUND_TRIP_FLOOR_MS,
	ROUND_TRIP_SAMPLES,
	withRoundTrip,
	type Delays,
	type LimitState,
} from '../../nodes/DataIntegrationManagement/transport/overload';

const slowStart = (limit: number): LimitState => ({ ...initialLimit(4), limit });
const avoiding = (limit: number, decreasedAt: number): LimitState => ({
	limit,
	slowStart: false,
	decreasedAt,
});
const quick: Delays = { answer: 1, standing: 1 };

describe('a sign of overload (a 503, or a standing queue)', () => {
	it.each<[string, LimitState, number, LimitState]>([
		['slow start: halved, and slow start ends', slowStart(32), 90, avoiding(16, 100)],
		[
			'after slow start: OVERLOAD_DECREASE of itself',
			avoiding(20, 0),
			50,
			avoiding(20 * OVERLOAD_DECREASE, 100),
		],
		['never below one', avoiding(1, 0), 50, avoiding(1, 100)],
		['a request sent before the last decrease: nothing', avoiding(20, 60), 59, avoiding(20, 60)],
		['a request sent as the last decrease came: counted', avoiding(20, 60), 60, avoiding(18, 100)],
	])('%s', (_title, state, sentAt, expected) => {
		expect(afterOverload(state, 100, sentAt)).toEqual(expected);
	});
});

describe('an answer', () => {
	const answer = (delays: Delays, inUse = true, sentAt = 80) => ({
		now: 100,
		sentAt,
		delays,
		inUse,
	});
	it.each<[string, LimitState, ReturnType<typeof answer>, LimitState]>([
		['slow start, in use: one more', slowStart(4), answer(quick), slowStart(5)],
		[
			'after slow start, in use: one more a round trip',
			avoiding(10, 0),
			answer(quick),
			avoiding(10.1, 0),
		],
		[
			'not in use: nothing (what is not used says nothing)',
			slowStart(4),
			answer(quick, false),
			slowStart(4),
		],
		[
			'its own round trip just at GROWTH_TOLERANCE: one more',
			slowStart(4),
			answer({ answer: GROWTH_TOLERANCE, standing: 1 }),
			slowStart(5),
		],
		[
			'its own round trip over GROWTH_TOLERANCE: nothing (the service keeps requests waiting)',
			slowStart(4),
			answer({ answer: GROWTH_TOLERANCE + 0.01, standing: 1 }),
			slowStart(4),
		],
		[
			'a standing queue just at QUEUE_TOLERANCE: no sign',
			avoiding(10, 0),
			answer({ answer: QUEUE_TOLERANCE, standing: QUEUE_TOLERANCE }),
			avoiding(10, 0),
		],
		[
			'a standing queue over QUEUE_TOLERANCE: a sign of overload, halving slow start',
			slowStart(40),
			answer({ answer: 3, standing: QUEUE_TOLERANCE + 0.01 }),
			avoiding(20, 100),
		],
		[
			'a standing queue, from a request sent before the last decrease: nothing',
			avoiding(10, 90),
			answer({ answer: 3, standing: 3 }),
			avoiding(10, 90),
		],
	])('%s', (_title, state, event, expected) => {
		expect(afterAnswered(state, event)).toEqual(expected);
	});
});

describe('round trips', () => {
	/** The delays after answers of `ms` in turn. */
	const delaysAfter = (ms: number[]) => {
		let trips;
		let delays: Delays = quick;
		for (const one of ms) ({ trips, delays } = withRoundTrip(trips, one));
		return { trips, delays };
	};

	it('compares each answer with the shortest seen', () => {
		expect(delaysAfter([40, 60]).delays).toEqual({ answer: 1.5, standing: 1 });
	});

	it(`shows a standing queue when each of the last ${ROUND_TRIP_SAMPLES} answers is slow, not one`, () => {
		const slow = Array<number>(ROUND_TRIP_SAMPLES).fill(100);
		expect(delaysAfter([40, ...slow.slice(1), 40]).delays.standing).toBe(1);
		expect(delaysAfter([40, ...slow]).delays).toEqual({ answer: 2.5, standing: 2.5 });
	});

	it(`keeps the last ${ROUND_TRIP_SAMPLES} and the shortest ever`, () => {
		const { trips } = delaysAfter([10, 20, 30, 40, 50, 60, 70, 80, 90]);
		expect(trips).toEqual({ shortestMs: 10, recentMs: [20, 30, 40, 50, 60, 70, 80, 90] });
	});

	it(`compares from ${ROUND_TRIP_FLOOR_MS} ms up: a clock's whole milliseconds are not a queue`, () => {
		expect(delaysAfter([0, 1, 3]).delays).toEqual({ answer: 1, standing: 1 });
		expect(delaysAfter([0, 20]).delays.answer).toBe(20 / ROUND_TRIP_FLOOR_MS);
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
