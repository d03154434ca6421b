/**
 * Paging by time (client/auditLogByTime.ts), rule by rule: a service that ignores the offset but
 * honours startTime and the order is read from the newest instant read on, the entries at that
 * instant told apart by their keys. Each row is what the scan had seen and the page that came, and
 * the decision it must give. Pure: no HTTP.
 */
import {
	afterProbe,
	afterTimePage,
	isRefusal,
	probeShowsAll,
	startByTime,
	type ByTime,
	type PageRead,
	type Refusal,
	type SeenSoFar,
} from '../../nodes/DataIntegrationManagement/client/auditLogByTime';
import type { SortOrder } from '../../nodes/DataIntegrationManagement/client/types';

const T0 = Date.parse('2026-11-01T00:00:00.000Z');
/** The instant `seconds` after T0. */
const at = (seconds: number) => T0 + seconds * 1000;
const ANSWERED_AT = at(1000);
const u = undefined;

/** A page of entries, each `key@seconds` (`key@?` unreadable), in the service's order. */
function pageOf(
	entries: string[],
	shown: { order?: SortOrder; totalItems?: number; answeredAt?: number } = {},
): PageRead {
	const split = entries.map((entry) => entry.split('@'));
	return {
		keys: split.map(([key]) => key),
		instants: split.map(([, seconds]) => (seconds === '?' ? u : at(Number(seconds)))),
		answeredAt: ANSWERED_AT,
		...shown,
	};
}
const seen = (overrides: Partial<SeenSoFar> = {}): SeenSoFar => ({
	boundsIgnored: false,
	...overrides,
});
const probed = (top: string[], from?: number, settledUntil = at(500)): ByTime => ({
	top: new Set(top),
	from,
	settledUntil,
});
const refusal = (why: 'offsetIgnored' | 'notByTime'): Refusal => ({ why });

describe('startByTime: a later page repeated only what was received', () => {
	test.each<[string, { sortOrder: SortOrder; pageByTime?: boolean }, SeenSoFar, ByTime | Refusal]>([
		[
			'Audit Log → Get Many (no paging by time): refused, as before',
			{ sortOrder: 'asc' },
			seen(),
			refusal('offsetIgnored'),
		],
		[
			'the trigger, oldest first: the probe next; the cursor no further than what was read',
			{ sortOrder: 'asc', pageByTime: true },
			seen({ order: 'asc', newestReceived: at(99) }),
			{ settledUntil: at(99) },
		],
		[
			'the order not shown yet: the probe next',
			{ sortOrder: 'asc', pageByTime: true },
			seen(),
			{ settledUntil: -Infinity },
		],
		[
			'the trigger reading newest first: no paging by time',
			{ sortOrder: 'desc', pageByTime: true },
			seen({ order: 'desc' }),
			refusal('notByTime'),
		],
		[
			'asked oldest first, answered newest first',
			{ sortOrder: 'asc', pageByTime: true },
			seen({ order: 'desc' }),
			refusal('notByTime'),
		],
		[
			'the time bounds ignored',
			{ sortOrder: 'asc', pageByTime: true },
			seen({ order: 'asc', boundsIgnored: true }),
			refusal('notByTime'),
		],
	])('%s', (_, scan, before, expected) => {
		expect(startByTime(scan, before)).toStrictEqual(expected);
	});
});

describe('afterProbe: the newest entries when paging by time began', () => {
	const probing: ByTime = { settledUntil: at(99) };
	test.each<[string, PageRead, { startTime?: number }, ByTime | Refusal]>([
		[
			'newest first: the cursor may move up to its newest entry',
			pageOf(['z@150', 'y@149', 'x@149'], { order: 'desc' }),
			{ startTime: at(0) },
			{ top: new Set(['z', 'y', 'x']), settledUntil: at(150) },
		],
		[
			'no further than the service answered',
			pageOf(['future@5000', 'y@149'], { order: 'desc' }),
			{},
			{ top: new Set(['future', 'y']), settledUntil: ANSWERED_AT },
		],
		[
			'unreadable entries: the newest readable one, or what was read before',
			pageOf(['z@?', 'y@?'], { order: u }),
			{},
			{ top: new Set(['z', 'y']), settledUntil: at(99) },
		],
		[
			'all tied (no order shown): taken as newest',
			pageOf(['b@120', 'a@120'], { order: u }),
			{},
			{ top: new Set(['b', 'a']), settledUntil: at(120) },
		],
		[
			'oldest first: the service ignores the order too',
			pageOf(['a@1', 'b@2'], { order: 'asc' }),
			{},
			refusal('notByTime'),
		],
		[
			'before the startTime asked: it ignores the time bounds too',
			pageOf(['b@20', 'a@5'], { order: 'desc' }),
			{ startTime: at(10) },
			refusal('notByTime'),
		],
	])('%s', (_, probe, bounds, expected) => {
		expect(afterProbe(probing, bounds, probe)).toStrictEqual(expected);
	});

	test.each<[string, string[], string[], boolean]>([
		// title, the probe's keys, received, nothing more to read
		['the probe is what was received', ['b', 'a'], ['a', 'b'], true],
		['the probe holds an entry not received', ['c', 'b'], ['a', 'b'], false],
		[
			'more was received than the probe holds: the rest not shown',
			['c', 'b'],
			['a', 'b', 'c'],
			false,
		],
	])('whether the probe shows all: %s', (_, top, received, expected) => {
		expect(probeShowsAll(probed(top), new Set(received))).toBe(expected);
	});
});

describe('afterTimePage: a page asked from the instant reached', () => {
	const scan = { startTime: at(0) };
	test.each<
		[
			string,
			ByTime,
			string[],
			SeenSoFar,
			PageRead,
			{ fresh: boolean[]; from?: number; last: boolean; shifted: boolean } | Refusal,
		]
	>([
		[
			'the first page again, nothing new: the next from its newest instant',
			probed(['z']),
			['a', 'b'],
			seen({ newestReceived: at(2) }),
			pageOf(['a@1', 'b@2'], { order: 'asc' }),
			{ fresh: [false, false], from: at(2), last: false, shifted: false },
		],
		[
			'entries at the boundary told apart by their keys',
			probed(['z'], at(2)),
			['a', 'b', 'c'],
			seen({ newestReceived: at(2) }),
			pageOf(['b@2', 'c@2', 'd@2', 'e@3'], { order: 'asc' }),
			{ fresh: [false, false, true, true], from: at(3), last: false, shifted: false },
		],
		[
			'the same entry twice in a page: new once',
			probed(['z'], at(2)),
			['b'],
			seen({ newestReceived: at(2) }),
			pageOf(['b@2', 'd@3', 'd@3'], { order: 'asc' }),
			{ fresh: [false, true, false], from: at(3), last: false, shifted: false },
		],
		[
			'every entry the probe saw has come: the last page',
			probed(['e', 'd'], at(2)),
			['b', 'd'],
			seen({ newestReceived: at(2) }),
			pageOf(['b@2', 'e@3'], { order: 'asc' }),
			{ fresh: [false, true], from: at(3), last: true, shifted: false },
		],
		[
			'totalItems reached: the last page',
			probed(['z'], at(2)),
			['b'],
			seen({ newestReceived: at(2) }),
			pageOf(['b@2', 'e@3'], { order: 'asc', totalItems: 2 }),
			{ fresh: [false, true], from: at(3), last: true, shifted: false },
		],
		[
			'more entries than totalItems (a count capped): not the last',
			probed(['z'], at(2)),
			['b'],
			seen({ newestReceived: at(2) }),
			pageOf(['b@2', 'e@3', 'f@4'], { order: 'asc', totalItems: 2 }),
			{ fresh: [false, true, true], from: at(4), last: false, shifted: false },
		],
		[
			'an empty page: the last',
			probed(['z'], at(2)),
			['b'],
			seen({ newestReceived: at(2) }),
			pageOf([], { order: u }),
			{ fresh: [], from: at(2), last: true, shifted: false },
		],
		[
			'only entries read, at the boundary, the probe not all come: more at one instant than a page holds',
			probed(['z'], at(2)),
			['a', 'b', 'c'],
			seen({ newestReceived: at(2) }),
			pageOf(['a@2', 'b@2', 'c@2'], { order: u }),
			{ why: 'pageFullAt', at: at(2), pageSize: 3 },
		],
		[
			'only entries read: one at the boundary, then unreadable ones, the probe not all come',
			probed(['z'], at(2)),
			['a', 'b', 'c'],
			seen({ newestReceived: at(2) }),
			pageOf(['a@2', 'b@?', 'c@?'], { order: u }),
			{ why: 'pageFullAt', at: at(2), pageSize: 3 },
		],
		[
			'only entries read, at the boundary, and the probe all come: the last, no refusal',
			probed(['c', 'b'], at(2)),
			['a', 'b', 'c'],
			seen({ newestReceived: at(2) }),
			pageOf(['a@2', 'b@2', 'c@2'], { order: u }),
			{ fresh: [false, false, false], from: at(2), last: true, shifted: false },
		],
		[
			'new entries without a readable timestamp only: read on from the same instant',
			probed(['z'], at(2)),
			['b'],
			seen({ newestReceived: at(2) }),
			pageOf(['b@2', 'x@?'], { order: u }),
			{ fresh: [false, true], from: at(2), last: false, shifted: false },
		],
		[
			'an entry logged meanwhile behind what was read (the first page again): shifted',
			probed(['z']),
			['a', 'b'],
			seen({ newestReceived: at(2) }),
			pageOf(['a@1', 'late@1', 'b@2'], { order: 'asc' }),
			{ fresh: [false, true, false], from: at(2), last: false, shifted: true },
		],
		[
			'an entry before the startTime asked: the time bounds ignored',
			probed(['z'], at(2)),
			['b'],
			seen({ newestReceived: at(2) }),
			pageOf(['a@1', 'b@2'], { order: 'asc' }),
			refusal('notByTime'),
		],
		[
			'newest first: the order ignored',
			probed(['z'], at(2)),
			['b'],
			seen({ newestReceived: at(2) }),
			pageOf(['e@4', 'd@3'], { order: 'desc' }),
			refusal('notByTime'),
		],
	])('%s', (_, byTime, received, before, page, expected) => {
		const next = afterTimePage(byTime, scan, new Set(received), before, page);
		if (isRefusal(next)) expect(next).toStrictEqual(expected);
		else
			expect({
				fresh: next.fresh,
				from: next.byTime.from,
				last: next.last,
				shifted: next.shifted,
			}).toStrictEqual(expected);
	});

	test.each<[string, number | undefined, number, boolean]>([
		// title, the scan's end (exclusive), the page's newest entry, last
		['no end', u, 50, false],
		['before the end', 60, 50, false],
		['at the end (exclusive)', 50, 50, true],
	])('the scan ends: %s', (_, endTime, newest, expected) => {
		const next = afterTimePage(
			probed(['z'], at(2)),
			{ startTime: at(0), endTime: endTime === u ? u : at(endTime) },
			new Set(['b']),
			seen({ newestReceived: at(2) }),
			pageOf(['b@2', `n@${newest}`], { order: 'asc' }),
		);
		expect(!isRefusal(next) && next.last).toBe(expected);
	});

	it('keeps what it was given, and the probe with it', () => {
		const byTime = probed(['z'], at(2));
		const next = afterTimePage(byTime, scan, new Set(['b']), seen(), pageOf(['b@2', 'c@3']));
		expect(byTime.from).toBe(at(2));
		expect(!isRefusal(next) && next.byTime).toStrictEqual({ ...byTime, from: at(3) });
	});
});
