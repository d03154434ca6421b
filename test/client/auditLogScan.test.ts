/**
 * The audit-log scan's decisions (client/auditLogScan.ts), rule by rule: what the scan has seen
 * and the page it is given, against what it does next. Pure: no HTTP.
 */
import { auditEntryKey } from '../../nodes/DataIntegrationManagement/client/auditLog';
import {
	SCAN_START,
	afterFailure,
	ignoresOffset,
	isLastPage,
	mayAsk,
	notHandedOver,
	orderOf,
	pageQuery,
	readsOn,
	within,
	type AuditLogScan,
	type PageAnswer,
	type ScanKeys,
	type ScanState,
	type ScanStep,
} from '../../nodes/DataIntegrationManagement/client/auditLogScan';
import { nextStep } from '../../nodes/DataIntegrationManagement/client/auditLogStep';
import type { PlacedEntry } from '../../nodes/DataIntegrationManagement/client/auditLogPlacement';
import type { AuditLogEntry, SortOrder } from '../../nodes/DataIntegrationManagement/client/types';

const T0 = Date.parse('2026-11-01T00:00:00.000Z');
/** The instant `seconds` after T0. */
const at = (seconds: number) => T0 + seconds * 1000;
const ANSWERED_AT = at(1000);

/** An entry stamped `seconds` after T0, or with an unreadable timestamp (`undefined`). */
function entry(id: string, seconds: number | undefined): AuditLogEntry {
	return {
		id,
		timestamp: seconds === undefined ? 'not a time' : new Date(at(seconds)).toISOString(),
		event: 'user.login',
		actor: { type: 'user', email: 'maya.patel@northwind-data.example' },
		context: { ipAddress: '10.0.0.1', userAgent: 'jest' },
	};
}

/** An entry read, with its key. */
const keyed = (item: AuditLogEntry) => ({ entry: item, key: auditEntryKey(item) });
const state = (overrides: Partial<ScanState> = {}): ScanState => ({ ...SCAN_START, ...overrides });
const keys = (received: string[] = [], handedOver: string[] = []): ScanKeys => ({
	received: new Set(received),
	handedOver: new Set(handedOver),
});
const ANSWERED_AFTER = ANSWERED_AT - 1000;
const answer = (items: AuditLogEntry[], overrides: Partial<PageAnswer> = {}): PageAnswer => ({
	items,
	answeredAt: ANSWERED_AT,
	answeredAfter: ANSWERED_AFTER,
	tookMs: 0,
	...overrides,
});
const ASC: AuditLogScan = { sortOrder: 'asc' };
const DESC: AuditLogScan = { sortOrder: 'desc' };

/** The step, which must hand the page over. */
function handOver(step: ScanStep): Extract<ScanStep, { action: 'handOver' }> {
	if (step.action !== 'handOver')
		throw new Error(`expected a page handed over, got ${step.action}`);
	return step;
}
/** Each handed-over entry as id@instant (earliest), readable or not ("?"). */
const shown = (entries: PlacedEntry[]) =>
	entries.map(
		({ entry: { id }, instant, earliest, readable }) =>
			`${id}@${(instant - T0) / 1000}(${(earliest - T0) / 1000})${readable ? '' : '?'}`,
	);

describe('the next page request', () => {
	test.each<[string, AuditLogScan, number, Record<string, unknown>]>([
		[
			'the first page, oldest first, unbounded',
			ASC,
			0,
			{ limit: 100, offset: 0, sortBy: 'timestamp', sortOrder: 'asc' },
		],
		[
			'a later page, newest first, asks from what was received',
			DESC,
			250,
			{ limit: 100, offset: 250, sortBy: 'timestamp', sortOrder: 'desc' },
		],
		[
			'the first page may be smaller',
			{ ...ASC, firstPageSize: 5 },
			0,
			{ limit: 5, offset: 0, sortBy: 'timestamp', sortOrder: 'asc' },
		],
		[
			'later pages are full',
			{ ...ASC, firstPageSize: 5 },
			5,
			{ limit: 100, offset: 5, sortBy: 'timestamp', sortOrder: 'asc' },
		],
		[
			'bounds, as UTC ISO strings',
			{ ...ASC, startTime: at(0), endTime: at(60) },
			0,
			{
				limit: 100,
				offset: 0,
				sortBy: 'timestamp',
				sortOrder: 'asc',
				startTime: '2026-11-01T00:00:00.000Z',
				endTime: '2026-11-01T00:01:00.000Z',
			},
		],
		[
			'a start alone',
			{ ...DESC, startTime: at(1) },
			0,
			{
				limit: 100,
				offset: 0,
				sortBy: 'timestamp',
				sortOrder: 'desc',
				startTime: '2026-11-01T00:00:01.000Z',
			},
		],
	])('%s', (_, scan, offset, query) => {
		expect(pageQuery(scan, state({ offset }))).toStrictEqual(query);
	});
});

describe('asking for another page before the deadline', () => {
	test.each<[string, number | undefined, number, number, number, boolean]>([
		// title, deadline, offset, slowest page (ms), now, may ask
		['no deadline', undefined, 500, 10_000, at(0), true],
		['the first page, even past the deadline', at(0), 0, 5000, at(10), true],
		['its answer can come just in time', at(10), 100, 3000, at(7), true],
		['its answer would come 1 ms late', at(10), 100, 3001, at(7), false],
		['the deadline has passed', at(10), 100, 0, at(10) + 1, false],
		['at the deadline, pages taking no time', at(10), 100, 0, at(10), true],
	])('%s', (_, deadline, offset, slowestPageMs, now, expected) => {
		expect(mayAsk({ ...ASC, deadline }, state({ offset, slowestPageMs }), now)).toBe(expected);
	});
});

describe('a failed request: the deadline ends the scan, what was read may be kept, or the failure is raised', () => {
	type End = ReturnType<typeof afterFailure>;
	const BY_TIME: ScanState['byTime'] = { settledUntil: at(0) } as ScanState['byTime'];
	test.each<[string, number | undefined, number, number, boolean, boolean, End]>([
		// title, deadline, offset, now, the deadline cut it, a 429 not waited, what follows
		['the first page failed: nothing to end with', at(10), 0, at(20), true, false, 'raise'],
		['the first page answered 429: raised, with its wait', at(10), 0, at(5), false, true, 'raise'],
		['the transport says the deadline cut it', undefined, 100, at(0), true, false, 'deadline'],
		['no deadline, another failure at page 2', undefined, 100, at(1e6), false, false, 'raise'],
		['failed at the deadline', at(10), 100, at(10), false, false, 'deadline'],
		['failed after the deadline', at(10), 100, at(11), false, false, 'deadline'],
		['failed 1 ms before the deadline', at(10), 100, at(10) - 1, false, false, 'raise'],
		['cut before its deadline (a 429 not waited out)', at(10), 100, at(5), true, true, 'deadline'],
		// A 429 a poll does not wait for (a long Retry-After): each poll keeps what it read.
		[
			'a later page answered 429, not waited, with a deadline',
			at(10),
			100,
			at(5),
			false,
			true,
			'deadline',
		],
		// Get Many has no deadline: a 429 it does not wait out fails it.
		[
			'a later page answered 429, not waited, no deadline',
			undefined,
			100,
			at(5),
			false,
			true,
			'raise',
		],
	])('%s', (_, deadline, offset, now, deadlineReached, rateLimited, expected) => {
		expect(
			afterFailure({ ...ASC, deadline }, state({ offset }), now, {
				deadlineReached,
				rateLimited,
				pagesRead: 1,
			}),
		).toBe(expected);
	});

	test.each<[string, number, Partial<ScanState>, End]>([
		// title, pages read before the failure, the scan's state, what follows
		['page 2 failed: page 1 may not be what it seems', 1, { offset: 100 }, 'raise'],
		['page 3 failed, read by offset: may be kept', 2, { offset: 200 }, 'mayKeep'],
		['page 9 failed, read by offset: may be kept', 8, { offset: 800 }, 'mayKeep'],
		['page 3 failed, read by time: raised', 2, { offset: 200, byTime: BY_TIME }, 'raise'],
		['the first page failed, however many before', 3, { offset: 0 }, 'raise'],
	])('%s', (_, pagesRead, overrides, expected) => {
		expect(
			afterFailure({ ...ASC, deadline: undefined }, state(overrides), at(5), {
				deadlineReached: false,
				rateLimited: false,
				pagesRead,
			}),
		).toBe(expected);
	});
});

describe('refusing a service that ignores the offset', () => {
	const u = undefined;
	test.each<[string, number, string[], string[], [number?, number?], boolean]>([
		// title, offset, received (the first page's first is first), page's keys, totalItems of the first page and of this one, ignored
		['the first page, even repeating itself', 0, ['a'], ['a', 'a'], [], false],
		['an empty later page', 3, ['a', 'b', 'c'], [], [], false],
		['a later page of nothing new', 3, ['a', 'b', 'c'], ['a', 'b', 'c'], [], true],
		['a later page of one entry already received', 3, ['a', 'b', 'c'], ['b'], [], true],
		['a later page with one new entry', 3, ['a', 'b', 'c'], ['c', 'd'], [], false],
		['a later page of new entries', 3, ['a', 'b', 'c'], ['d', 'e'], [], false],
		[
			'a later page with entries of the first page, but not its first: pages shifted',
			3,
			['a', 'b', 'c'],
			['c', 'd'],
			[],
			false,
		],
		[
			'the first page again after an entry logged meanwhile, no totalItems: not told apart, ignored',
			3,
			['a', 'b', 'c'],
			['new', 'a', 'b'],
			[],
			true,
		],
		[
			'the first page again after one entry logged meanwhile: by offset it would be 3 further',
			3,
			['a', 'b', 'c'],
			['new', 'a', 'b'],
			[10, 11],
			true,
		],
		[
			'the first entry where the offset puts it: four entries logged before it since',
			3,
			['a', 'b', 'c'],
			['n3', 'a', 'b'],
			[10, 14],
			false,
		],
		[
			'the first entry where the offset puts it: more logged since, elsewhere too',
			3,
			['a', 'b', 'c'],
			['a', 'b', 'c'].slice(0, 1).concat(['z']),
			[10, 20],
			false,
		],
		[
			'the first page again, only one total known: not told apart, ignored',
			3,
			['a', 'b', 'c'],
			['new', 'a'],
			[u, 11],
			true,
		],
	])('%s', (_, offset, received, pageKeys, [firstTotal, totalItems], expected) => {
		const before = state({ offset, first: { key: received[0], totalItems: firstTotal } });
		expect(ignoresOffset(before, keys(received), { keys: pageKeys, totalItems })).toBe(expected);
	});

	test('the step refuses the page, unless the scan may page by time, or its first pages suffice', () => {
		const items = [entry('a', 1), entry('b', 2)];
		const received = items.map(auditEntryKey);
		expect(nextStep(ASC, state({ offset: 2 }), keys(received), answer(items))).toStrictEqual({
			action: 'refuse',
			refusal: { why: 'offsetIgnored' },
		});
		const byTime = { ...ASC, pageByTime: true };
		const step = handOver(nextStep(byTime, state({ offset: 2 }), keys(received), answer(items)));
		expect(step.page.entries).toStrictEqual([]);
		expect(step.state.byTime).toStrictEqual({ settledUntil: -Infinity });
		const firstPages = { ...ASC, sortOrder: 'desc', firstPagesSuffice: true } as const;
		expect(nextStep(firstPages, state({ offset: 2 }), keys(received), answer(items))).toStrictEqual(
			{ action: 'end', end: 'offsetIgnored' },
		);
	});
});

describe('the order a page shows', () => {
	const u = undefined;
	test.each<[string, Array<number | undefined>, SortOrder | undefined]>([
		['an empty page', [], u],
		['no readable timestamp', [u, u], u],
		['one entry', [5], u],
		['all tied', [5, 5, 5], u],
		['oldest first', [1, 2], 'asc'],
		['newest first', [2, 1], 'desc'],
		['ties, then older', [5, 5, 4], 'desc'],
		['ties, then newer', [5, 5, 6], 'asc'],
		['unreadable entries skipped', [u, 5, u, 4], 'desc'],
		['an unreadable entry between', [5, u, 6], 'asc'],
		['the first difference decides', [1, 2, 1], 'asc'],
	])('%s', (_, instants, expected) => {
		expect(orderOf(instants)).toBe(expected);
	});

	test.each<[string, SortOrder | undefined, number[], SortOrder | undefined]>([
		// title, order known before, the page's instants, order after
		['unknown, shown by the page', undefined, [1, 2], 'asc'],
		['unknown, the page ties', undefined, [1, 1], undefined],
		['known, kept whatever the page shows', 'asc', [2, 1], 'asc'],
		['known newest first, kept', 'desc', [1, 2], 'desc'],
	])('%s', (_, before, instants, expected) => {
		const items = instants.map((seconds, i) => entry(`e${i}`, seconds));
		const step = handOver(nextStep(ASC, state({ order: before }), keys(), answer(items)));
		expect(step.page.order).toBe(expected);
		expect(step.state.order).toBe(expected);
	});
});

describe('the last page', () => {
	const u = undefined;
	const from10 = { ...ASC, startTime: at(10) };
	const before10 = { ...ASC, endTime: at(10) };
	test.each<
		[
			string,
			AuditLogScan,
			SortOrder | undefined,
			Array<number | undefined>,
			number,
			number | undefined,
			boolean,
		]
	>([
		// title, scan, order, the page's instants, offset after it, totalItems, last
		['an empty page', ASC, u, [], 0, u, true],
		['a page, no total', ASC, u, [1], 1, u, false],
		['the total reached', ASC, u, [1], 5, 5, true],
		['one short of the total', ASC, u, [1], 4, 5, false],
		['past the total: the count is off, read on', ASC, u, [1], 6, 5, false],
		['oldest first, before the end', before10, 'asc', [9], 1, u, false],
		['oldest first, at the end (exclusive)', before10, 'asc', [9, 10], 2, u, true],
		['oldest first, unreadable', before10, 'asc', [u], 1, u, false],
		[
			'newest first, at the start (inclusive)',
			{ ...from10, sortOrder: 'desc' },
			'desc',
			[10],
			1,
			u,
			false,
		],
		['newest first, past the start', { ...from10, sortOrder: 'desc' }, 'desc', [11, 9], 2, u, true],
		['newest first, past the end', { ...before10, sortOrder: 'desc' }, 'desc', [11], 1, u, false],
		['oldest first, before the start', from10, 'asc', [9], 1, u, false],
		['order unknown, after the end', { ...from10, endTime: at(10) }, u, [12, 12], 2, u, false],
		['order unknown, before the start', from10, u, [9, 9], 2, u, false],
		['oldest first, unbounded', ASC, 'asc', [1e9], 1, u, false],
		['newest first, unbounded', DESC, 'desc', [-1e9], 1, u, false],
	])('%s', (_, scan, order, instants, offset, totalItems, expected) => {
		const epoch = instants.map((seconds) => (seconds === undefined ? seconds : at(seconds)));
		expect(isLastPage(scan, order, epoch, { offset, totalItems })).toBe(expected);
	});
});

describe('the bounds applied again', () => {
	test.each<[string, AuditLogScan, number, boolean]>([
		['no bounds', ASC, at(-1e6), true],
		['at the start (inclusive)', { ...ASC, startTime: at(10) }, at(10), true],
		['1 ms before the start', { ...ASC, startTime: at(10) }, at(10) - 1, false],
		['1 ms before the end', { ...ASC, endTime: at(10) }, at(10) - 1, true],
		['at the end (exclusive)', { ...ASC, endTime: at(10) }, at(10), false],
		['between both', { ...ASC, startTime: at(0), endTime: at(10) }, at(5), true],
		['after both', { ...ASC, startTime: at(0), endTime: at(10) }, at(11), false],
	])('%s', (_, scan, instant, expected) => {
		expect(within(scan, instant)).toBe(expected);
	});
});

describe('repeats dropped', () => {
	const a = entry('a', 1);
	const b = entry('b', 2);
	const place = (item: AuditLogEntry): PlacedEntry => ({
		entry: item,
		key: auditEntryKey(item),
		instant: at(1),
		earliest: at(1),
		readable: true,
	});
	test.each<[string, AuditLogEntry[], AuditLogEntry[], string[]]>([
		// title, handed over before, the page, handed over now
		['nothing before', [], [a, b], ['a', 'b']],
		['one handed over before', [a], [a, b], ['b']],
		['twice in the page', [], [a, a, b], ['a', 'b']],
		['all handed over before', [a, b], [b, a], []],
	])('%s', (_, before, page, expected) => {
		const { fresh, keys: added } = notHandedOver(
			page.map(place),
			new Set(before.map(auditEntryKey)),
		);
		expect(fresh.map(({ entry: { id } }) => id)).toStrictEqual(expected);
		expect(added).toStrictEqual(expected.map((id) => auditEntryKey(id === 'a' ? a : b)));
	});
});

describe('a page taken in', () => {
	const u = undefined;
	test.each<
		[
			string,
			AuditLogScan,
			Partial<ScanState>,
			Array<number | undefined>,
			number | undefined,
			string[],
		]
	>([
		// title, scan, state before, the page's instants (ids e0, e1, ...), totalItems, handed over
		['oldest first, as asked', ASC, {}, [1, 2], u, ['e0@1(1)', 'e1@2(2)']],
		['oldest first: the last unreadable entry waits', ASC, {}, [1, u], u, ['e0@1(1)']],
		[
			'oldest first: the log ends, it comes at the present',
			ASC,
			{},
			[1, u],
			2,
			['e0@1(1)', 'e1@1000(1)?'],
		],
		[
			'the order unknown: placed as asked, newest first',
			DESC,
			{},
			[u, 1],
			u,
			['e0@1000(1)?', 'e1@1(1)'],
		],
		[
			'the order unknown: placed as asked, oldest first',
			ASC,
			{},
			[u, 1],
			u,
			['e0@1(1)?', 'e1@1(1)'],
		],
		['asked newest first, shown oldest first', DESC, {}, [1, 2, u], u, ['e0@1(1)', 'e1@2(2)']],
		[
			'asked oldest first, shown newest first',
			ASC,
			{},
			[2, 1, u],
			u,
			['e0@2(2)', 'e1@1(1)', 'e2@1(1)?'],
		],
		[
			'known newest first from an earlier page',
			ASC,
			{ order: 'desc' },
			[1, 1, u],
			u,
			['e0@1(1)', 'e1@1(1)', 'e2@1(1)?'],
		],
		[
			'bounds: only the entries inside',
			{ ...ASC, startTime: at(2), endTime: at(3) },
			{},
			[1, 2, 3],
			u,
			['e1@2(2)'],
		],
		[
			'an empty page ends it: waiting entries at the present',
			ASC,
			{ offset: 1, neighbours: { olderInstant: at(5), waiting: [keyed(entry('w', u))] } },
			[],
			u,
			['w@1000(5)?'],
		],
	])('%s', (_, scan, before, instants, totalItems, expected) => {
		const items = instants.map((seconds, i) => entry(`e${i}`, seconds));
		const step = handOver(nextStep(scan, state(before), keys(), answer(items, { totalItems })));
		expect(shown(step.page.entries)).toStrictEqual(expected);
		expect(step.page.answeredAt).toBe(ANSWERED_AT);
	});

	test.each<[string, number, number | undefined, number, boolean]>([
		// title, offset before, totalItems, entries in the page, last
		['the offset grows by what came back', 0, u, 3, false],
		['a later page', 100, u, 7, false],
		['the total reached', 100, 107, 7, true],
		['an empty page', 100, u, 0, true],
	])('%s', (_, offset, totalItems, count, last) => {
		const items = Array.from({ length: count }, (__, i) => entry(`n${offset + i}`, offset + i));
		const step = handOver(nextStep(ASC, state({ offset }), keys(), answer(items, { totalItems })));
		expect(step.state.offset).toBe(offset + count);
		expect(step.last).toBe(last);
		expect(step.received).toStrictEqual(items.map(auditEntryKey));
	});

	test.each<[string, number, number, number]>([
		// title, slowest before, this page took, slowest after
		['a slower page', 100, 250, 250],
		['a faster page', 300, 250, 300],
	])('the slowest page: %s', (_, slowestPageMs, tookMs, expected) => {
		const step = handOver(nextStep(ASC, state({ slowestPageMs }), keys(), answer([], { tookMs })));
		expect(step.state.slowestPageMs).toBe(expected);
	});

	test.each<[string, boolean, number[], boolean]>([
		// title, ignored before, the page's instants (bounds 10 to 20 s), ignored after
		['all inside', false, [10, 19], false],
		['one outside', false, [9, 10], true],
		['ignored on an earlier page stays so', true, [10, 11], true],
	])('the bounds ignored: %s', (_, boundsIgnored, instants, expected) => {
		const items = instants.map((seconds, i) => entry(`e${i}`, seconds));
		const scan = { ...ASC, startTime: at(10), endTime: at(20) };
		const step = handOver(nextStep(scan, state({ boundsIgnored }), keys(), answer(items)));
		expect(step.page.boundsIgnored).toBe(expected);
		expect(step.state.boundsIgnored).toBe(expected);
	});

	const held = entry('held', u);
	test.each<[string, AuditLogEntry[], AuditLogEntry[], boolean]>([
		// title, waiting, the page, shifted
		['nothing waits', [], [entry('a', 1)], false],
		['the waiting entry is not in the page', [held], [entry('a', 1)], false],
		['the waiting entry comes again', [held], [entry('a', 1), held], true],
	])('a held-back entry repeated: %s', (_, waiting, items, expected) => {
		const before = state({ offset: 5, neighbours: { waiting: waiting.map(keyed) } });
		const step = handOver(nextStep(ASC, before, keys(), answer(items)));
		expect(step.page.shifted).toBe(expected);
	});

	const twin = entry('twin', 5);
	const first = { key: auditEntryKey(entry('first', 1)), totalItems: 150 };
	test.each<[string, number | undefined, number | undefined, boolean]>([
		// title, the first page's totalItems, this page's, shifted
		['totalItems as the first page said: the service serves that entry twice', 150, 150, false],
		['totalItems grew: an entry logged behind what was read', 150, 151, true],
		['no totalItems: nothing tells a twin from a shift', undefined, undefined, true],
		['totalItems left out of this page only', 150, undefined, true],
		['totalItems this page passes (a count capped): it tells nothing', 101, 101, true],
		['totalItems this page reaches exactly: the service serves that entry twice', 102, 102, false],
	])('a later page repeating an entry received: %s', (_, before, now, expected) => {
		const scanState = state({ offset: 100, first: { ...first, totalItems: before } });
		const page = answer([twin, entry('next', 6)], { totalItems: now });
		const step = handOver(nextStep(ASC, scanState, keys([auditEntryKey(twin)]), page));
		expect(step.page.shifted).toBe(expected);
	});

	test.each<[string, number | undefined, boolean]>([
		// title, this page's totalItems (the first page's: 150), shifted
		[
			'fewer than the first page counted: a count may be approximate, so not read as removals',
			149,
			false,
		],
		['as many', 150, false],
		['more: entries logged after what was read', 151, false],
		['left out', undefined, false],
	])('a later page repeating nothing, totalItems %s', (_, now, expected) => {
		const scanState = state({ offset: 100, first });
		const page = answer([entry('next', 6)], { totalItems: now });
		expect(handOver(nextStep(ASC, scanState, keys(), page)).page.shifted).toBe(expected);
	});

	test.each<[string, boolean, string[], number[], string[], string[]]>([
		// title, drop repeats, handed over before (ids), the page (ids e0, e1, ... at seconds), handed over, keys added
		['kept when not asked', false, ['e0'], [1, 2], ['e0@1(1)', 'e1@2(2)'], []],
		['dropped when asked', true, ['e0'], [1, 2], ['e1@2(2)'], ['e1']],
		[
			'dropped before the bounds: no bound counts as ignored',
			true,
			['e0'],
			[30, 2],
			['e1@2(2)'],
			['e1'],
		],
		['outside the bounds, still remembered', true, [], [30, 2], ['e1@2(2)'], ['e0', 'e1']],
	])('repeats: %s', (_, dropRepeats, before, instants, expected, added) => {
		const items = instants.map((seconds, i) => entry(`e${i}`, seconds));
		const keyOf = (id: string) => auditEntryKey(items[Number(id.slice(1))]);
		const scan = { ...DESC, endTime: at(20), dropRepeats };
		const step = handOver(
			nextStep(scan, state({ offset: 5 }), keys([], before.map(keyOf)), answer(items)),
		);
		expect(shown(step.page.entries)).toStrictEqual(expected);
		expect(step.handedOver).toStrictEqual(added.map(keyOf));
		expect(step.page.boundsIgnored).toBe(added.length > expected.length);
	});

	test.each<[string, Array<number | undefined>, number | undefined, string[]]>([
		// title, the page's instants (ids e0, e1, ...), totalItems, waiting for the next page
		['a readable entry last', [1, u, 2], u, []],
		['an unreadable entry last', [1, u], u, ['e1']],
		['the last page', [1, u], 2, []],
	])('what waits for the next page: %s', (_, instants, totalItems, waiting) => {
		const items = instants.map((seconds, i) => entry(`e${i}`, seconds));
		const step = handOver(nextStep(ASC, SCAN_START, keys(), answer(items, { totalItems })));
		expect(step.state.neighbours.waiting.map(({ entry: { id } }) => id)).toStrictEqual(waiting);
	});

	test('a scan starts knowing nothing', () => {
		const scan = { ...ASC, startTime: at(0), deadline: at(10) };
		expect(mayAsk(scan, SCAN_START, at(60))).toBe(true);
		expect(pageQuery(scan, SCAN_START)).toMatchObject({ offset: 0 });
		const step = handOver(nextStep(scan, SCAN_START, keys(), answer([entry('a', 1)])));
		expect(step.page).toStrictEqual({
			entries: [
				{
					entry: entry('a', 1),
					key: auditEntryKey(entry('a', 1)),
					instant: at(1),
					earliest: at(1),
					readable: true,
				},
			],
			order: undefined,
			boundsIgnored: false,
			shifted: false,
			answeredAt: ANSWERED_AT,
			answeredAfter: ANSWERED_AFTER,
			settledUntil: ANSWERED_AT,
		});
		expect(step.state).toStrictEqual({
			offset: 1,
			order: undefined,
			boundsIgnored: false,
			slowestPageMs: 0,
			neighbours: { olderInstant: at(1), waiting: [] },
			newestReceived: at(1),
			first: { key: auditEntryKey(entry('a', 1)), totalItems: undefined },
		});
	});

	test('the state it was given is left as it was', () => {
		const waiting = [keyed(held)];
		const before = state({ offset: 1, neighbours: { olderInstant: at(1), waiting } });
		const copy = { ...before, neighbours: { ...before.neighbours, waiting: [...waiting] } };
		nextStep(ASC, before, keys(), answer([entry('a', 2), entry('b', u)], { totalItems: 3 }));
		expect(before).toStrictEqual(copy);
	});
});

describe('gathering entries in the order asked: reading on', () => {
	test.each<[string, SortOrder | undefined, SortOrder, number, number, boolean]>([
		// title, the order shown, the order wanted, entries gathered, limit, read on
		['the order not shown yet, the limit reached', undefined, 'asc', 10, 5, true],
		['in the wanted order, below the limit', 'asc', 'asc', 4, 5, true],
		['in the wanted order, the limit reached', 'asc', 'asc', 5, 5, false],
		['in the wanted order, past the limit', 'desc', 'desc', 6, 5, false],
		['in the other order, past the limit: to the end', 'desc', 'asc', 10, 5, true],
		['in the other order, newest first wanted', 'asc', 'desc', 10, 5, true],
		['no limit', 'asc', 'asc', 1e6, Infinity, true],
	])('%s', (_, order, wanted, gathered, limit, expected) => {
		expect(readsOn(order, wanted, gathered, limit)).toBe(expected);
	});
});

describe('paging by time, step by step (the rules: ./auditLogByTime.test.ts)', () => {
	const scan: AuditLogScan = { ...ASC, startTime: at(0), pageByTime: true };
	const page1 = [entry('a', 1), entry('b', 2), entry('c', 2)];
	const received = keys(page1.map(auditEntryKey));
	const after1 = state({ offset: 3, order: 'asc', newestReceived: at(2) });

	test.each<[string, ScanState, Record<string, unknown>]>([
		[
			'by offset, before',
			after1,
			{ offset: 3, sortOrder: 'asc', startTime: '2026-11-01T00:00:00.000Z' },
		],
		[
			'the probe: newest first, from the start',
			{ ...after1, byTime: { settledUntil: at(2) } },
			{ offset: 0, sortOrder: 'desc', startTime: '2026-11-01T00:00:00.000Z' },
		],
		[
			'the first page again, oldest first',
			{ ...after1, byTime: { top: new Set(), settledUntil: at(2) } },
			{ offset: 0, sortOrder: 'asc', startTime: '2026-11-01T00:00:00.000Z' },
		],
		[
			'from the newest instant read (inclusive)',
			{ ...after1, byTime: { top: new Set(), from: at(2), settledUntil: at(2) } },
			{ offset: 0, sortOrder: 'asc', startTime: '2026-11-01T00:00:02.000Z' },
		],
	])('the query: %s', (_, before, expected) => {
		expect(pageQuery(scan, before)).toMatchObject({ limit: 100, ...expected });
	});

	it('the page repeating the first: nothing handed over, the probe next', () => {
		const step = handOver(nextStep(scan, after1, received, answer(page1)));
		expect(step).toMatchObject({ page: { entries: [] }, received: [], last: false });
		expect(step.state.byTime).toStrictEqual({ settledUntil: at(2) });
	});

	it("the probe: none of its entries received, the newest bounds the cursor's move", () => {
		const probing = { ...after1, byTime: { settledUntil: at(2) } };
		const probe = [entry('z', 9), entry('y', 8)];
		const step = handOver(nextStep(scan, probing, received, answer(probe)));
		expect(step).toMatchObject({ page: { entries: [] }, received: [], last: false });
		expect(step.state.byTime).toStrictEqual({
			top: new Set(probe.map(auditEntryKey)),
			settledUntil: at(9),
		});
	});

	it('the probe showing only what was received ends the read: entries waiting are placed', () => {
		const waiting = keyed(entry('w', undefined));
		const probing = {
			...after1,
			neighbours: { olderInstant: at(2), waiting: [waiting] },
			byTime: { settledUntil: at(2) },
		};
		const all = keys([...page1.map(auditEntryKey), waiting.key]);
		const probe = [entry('w', undefined), ...page1].reverse();
		const step = handOver(nextStep(scan, probing, all, answer(probe)));
		expect(step.last).toBe(true);
		expect(shown(step.page.entries)).toStrictEqual(['w@1000(2)?']);
	});

	it('a page by time: the entries not received handed over, placed, the cursor no further than the probe', () => {
		const top = new Set([entry('e', 9)].map(auditEntryKey));
		const paging = { ...after1, byTime: { top, from: at(2), settledUntil: at(9) } };
		const page = [
			entry('b', 2),
			entry('c', 2),
			entry('d', 2),
			entry('x', undefined),
			entry('e', 9),
		];
		const step = handOver(nextStep(scan, paging, received, answer(page)));
		expect(shown(step.page.entries)).toStrictEqual(['d@2(2)', 'x@9(2)?', 'e@9(9)']);
		expect(step.page).toMatchObject({ shifted: false, settledUntil: at(9), order: 'asc' });
		expect(step.last).toBe(true);
		expect(step.received).toStrictEqual(page.map(auditEntryKey));
		expect(step.state).toMatchObject({ newestReceived: at(9), offset: 8 });
		expect(step.state.byTime).toMatchObject({ from: at(9) });
	});

	it('a page by time holding only entries received at one instant: refused, naming it', () => {
		const paging = {
			...after1,
			byTime: { top: new Set(['not read']), from: at(2), settledUntil: at(9) },
		};
		const step = nextStep(scan, paging, received, answer([entry('b', 2), entry('c', 2)]));
		expect(step).toStrictEqual({
			action: 'refuse',
			refusal: { why: 'pageFullAt', at: at(2), pageSize: 2 },
		});
	});
});
