/**
 * The trigger's decisions, rule by rule: what the oldest-first read does after each page and at
 * its end (trigger/steps.ts), and how the cursor remembers an entry and moves (trigger/cursor.ts).
 * Each row is a state and what came next, and the decision it must give; nothing here does I/O.
 */
import type { SortOrder } from '../../nodes/DataIntegrationManagement/client/types';
import { cursorAfter, rememberedUntil } from '../../nodes/DataIntegrationManagement/trigger/cursor';
import {
	afterNewestPage,
	afterPage,
	afterRead,
	afterSearchPage,
	MANUAL_SEARCH_PAGES,
	NOTHING_FOUND,
	NOTHING_HELD,
	NOTHING_SEEN,
	startOfNow,
	type NewestSeen,
	type OldestFirstRead,
	type PageSeen,
	type Search,
} from '../../nodes/DataIntegrationManagement/trigger/steps';

const T = Date.parse('2026-11-01T00:00:00.000Z');
const SECOND = 1000;

/** A page as the reader hands it over: its entries' instants, and what it showed. */
function page(instants: number[], shown: Partial<Omit<PageSeen, 'entries'>> = {}): PageSeen {
	return {
		entries: instants.map((instant) => ({ instant })),
		boundsIgnored: false,
		shifted: false,
		...shown,
	};
}

const holding = (...held: PageSeen[]): OldestFirstRead<PageSeen> => ({ held });

/** Pages that show no order: every entry at T. */
const tiedA = page([T, T]);
const tiedB = page([T, T, T]);
/** A tied page one second later: tied within itself, not with `tiedA`. */
const tiedLater = page([T + SECOND, T + SECOND]);
const empty = page([]);
const ascending = page([T, T + SECOND], { order: 'asc' });
const descending = page([T + SECOND, T], { order: 'desc' });

describe('afterPage: what the oldest-first read does with the page that came', () => {
	test.each([
		['a page showing newest first', NOTHING_HELD, descending],
		['a page showing newest first, with tied pages held', holding(tiedA), descending],
		[
			'a page whose entries left the bounds asked',
			NOTHING_HELD,
			{ ...ascending, boundsIgnored: true },
		],
		[
			'a tied page whose entries left the bounds asked',
			holding(tiedA),
			{ ...tiedB, boundsIgnored: true },
		],
		[
			'a page showing newest first that also repeats a held-back entry',
			holding(tiedA),
			{ ...descending, shifted: true },
		],
	])('reads newest first after %s', (_rule, read, next) => {
		expect(afterPage(read, next)).toEqual({ next: 'readNewestFirst' });
	});

	test.each([
		['the first page', NOTHING_HELD, tiedA, [tiedA]],
		['a page after one held', holding(tiedA), tiedB, [tiedA, tiedB]],
		['an empty page', holding(tiedA), empty, [tiedA, empty]],
	])('holds a page that shows no order: %s', (_rule, read, next, held) => {
		expect(afterPage(read, next)).toEqual({ next: 'hold', read: { held } });
	});

	test.each([
		['with nothing held, this page alone', NOTHING_HELD, ascending, [ascending]],
		[
			'the held pages first, then this one',
			holding(tiedA, tiedB),
			ascending,
			[tiedA, tiedB, ascending],
		],
	])('takes pages in once one shows oldest first: %s', (_rule, read, next, pages) => {
		expect(afterPage(read, next)).toEqual({ next: 'takeIn', pages, read: NOTHING_HELD });
	});

	test.each([
		[
			'tied pages held: the cursor stays',
			holding(tiedA),
			{ ...tiedB, shifted: true },
			{ next: 'keepCursor' },
		],
		[
			'the order shown before: the pages taken in stand',
			NOTHING_HELD,
			{ ...ascending, shifted: true },
			{ next: 'store', pages: [] },
		],
	])(
		'stops at a page repeating a held-back entry, not taking it in, %s',
		(_rule, read, next, step) => {
			expect(afterPage(read, next)).toEqual(step);
		},
	);

	it('leaves the read it was given as it was', () => {
		const read = holding(tiedA);
		afterPage(read, tiedB);
		afterPage(read, ascending);
		expect(read).toEqual({ held: [tiedA] });
	});
});

describe('afterRead: what the oldest-first read does when it ends', () => {
	test.each([
		['at the log’s end', true],
		['cut short (deadline, scan full, or a page repeating what it read)', false],
	])('stores the cursor when nothing is held, %s', (_rule, reachedEnd) => {
		expect(afterRead(NOTHING_HELD, { reachedEnd })).toEqual({ next: 'store', pages: [] });
	});

	test.each([
		['pages that all share one instant', holding(tiedA, tiedB)],
		['one page', holding(tiedA)],
		['pages at different instants', holding(tiedA, tiedLater)],
	])(
		'keeps the cursor when a read cut short before any page showed the order held %s: they may be the newest entries of a service answering newest first',
		(_rule, read) => {
			expect(afterRead(read, { reachedEnd: false })).toEqual({ next: 'keepCursor' });
		},
	);

	test.each([
		['one tied page', holding(tiedA), [tiedA]],
		['tied pages at one instant', holding(tiedA, tiedB), [tiedA, tiedB]],
		['tied pages and the empty page at the end', holding(tiedA, empty), [tiedA, empty]],
		['only the empty page at the end', holding(empty), [empty]],
	])(
		'takes held pages in at the log’s end when they all share one instant: %s',
		(_rule, read, pages) => {
			expect(afterRead(read, { reachedEnd: true })).toEqual({ next: 'store', pages });
		},
	);

	test.each([
		['two tied pages a second apart', holding(tiedA, tiedLater)],
		['a page whose instants differ', holding(page([T, T + 1]))],
		['a later page at an earlier instant', holding(tiedLater, empty, tiedA)],
	])(
		'reads newest first when held pages at more than one instant reach the log’s end: %s',
		(_rule, read) => {
			expect(afterRead(read, { reachedEnd: true })).toEqual({ next: 'readNewestFirst' });
		},
	);
});

describe('rememberedUntil: until when an entry taken in stays remembered', () => {
	const answeredAt = T + 10 * SECOND;
	test.each([
		['a new entry with a readable timestamp, at its own instant', undefined, T, true, T],
		[
			'a new entry stamped past the answer, at its own instant',
			undefined,
			T + 60 * SECOND,
			true,
			T + 60 * SECOND,
		],
		['a remembered readable entry, where it was remembered', T - SECOND, T, true, T - SECOND],
		[
			'a new unreadable entry placed before the answer, at the answer',
			undefined,
			T,
			false,
			answeredAt,
		],
		[
			'a new unreadable entry placed after the answer, where placed',
			undefined,
			answeredAt + SECOND,
			false,
			answeredAt + SECOND,
		],
		[
			'a remembered unreadable entry placed earlier now, where it was remembered',
			answeredAt + 3600 * SECOND,
			answeredAt,
			false,
			answeredAt + 3600 * SECOND,
		],
		[
			'a remembered unreadable entry read again by a later answer, where it was remembered',
			T,
			T,
			false,
			T,
		],
		[
			'a remembered unreadable entry placed where it was, there',
			answeredAt,
			answeredAt,
			false,
			answeredAt,
		],
		[
			'a remembered unreadable entry its neighbours now place later, at that later place',
			answeredAt,
			answeredAt + 365 * 86400 * SECOND,
			false,
			answeredAt + 365 * 86400 * SECOND,
		],
	])('remembers %s', (_rule, remembered, instant, readable, until) => {
		expect(rememberedUntil(remembered, { instant, readable }, answeredAt)).toBe(until);
	});
});

describe('cursorAfter: the newest timestamp processed, after a new entry', () => {
	const newest = T;
	const answeredAt = T + 10 * SECOND;
	test.each([
		['moves to a newer readable timestamp', T + SECOND, true, T + SECOND],
		['moves to a readable timestamp at the answer', answeredAt, true, answeredAt],
		['stops at the answer for a timestamp past it', answeredAt + SECOND, true, answeredAt],
		['stays for an older readable timestamp', T - SECOND, true, T],
		['stays for an unreadable timestamp placed later', T + SECOND, false, T],
	])('%s', (_rule, instant, readable, next) => {
		expect(cursorAfter(newest, { instant, readable }, answeredAt)).toBe(next);
	});
});

/** An entry as the reader places it, named for the rows. */
interface Placed {
	name: string;
	instant: number;
}
const at = (name: string, instant: number): Placed => ({ name, instant });
const names = (entries: readonly Placed[]) => entries.map(({ name }) => name);

describe('afterNewestPage: where a start from "now" begins, read newest first', () => {
	const answeredAt = T + 60 * SECOND;
	const answeredAfter = answeredAt - SECOND;
	const newestAt = (newest: number, ...atNewest: Placed[]): NewestSeen<Placed> => ({
		newest,
		atNewest,
	});
	test.each<
		[
			string,
			NewestSeen<Placed>,
			Placed[],
			SortOrder | undefined,
			number | undefined,
			string[],
			boolean,
		]
	>([
		['an empty log: nothing, read on', NOTHING_SEEN, [], undefined, undefined, [], true],
		[
			'newest first, down to an older entry: the newest and its ties, then stop',
			NOTHING_SEEN,
			[at('a', T + 2), at('b', T + 2), at('c', T + 1)],
			'desc',
			T + 2,
			['a', 'b'],
			false,
		],
		[
			'newest first, all tied: every entry, read on',
			NOTHING_SEEN,
			[at('a', T), at('b', T)],
			'desc',
			T,
			['a', 'b'],
			true,
		],
		[
			'a tied page older than the newest, order not shown: read on',
			newestAt(T + 5, at('a', T + 5)),
			[at('b', T), at('c', T)],
			undefined,
			T + 5,
			['a'],
			true,
		],
		[
			'newest first, a page of older entries: the newest kept, stop',
			newestAt(T + 5, at('a', T + 5)),
			[at('b', T)],
			'desc',
			T + 5,
			['a'],
			false,
		],
		[
			'newest first, a page continuing the tie: added, read on',
			newestAt(T + 5, at('a', T + 5)),
			[at('b', T + 5)],
			'desc',
			T + 5,
			['a', 'b'],
			true,
		],
		[
			'oldest first, a newer entry: it replaces the newest, read on to the end',
			newestAt(T, at('a', T)),
			[at('b', T + 1), at('c', T + 2)],
			'asc',
			T + 2,
			['c'],
			true,
		],
		[
			'an entry stamped past the answer: the newest is the answer, the entry among the newest',
			NOTHING_SEEN,
			[at('future', answeredAt + 3600 * SECOND), at('b', T)],
			'desc',
			answeredAt,
			['future'],
			false,
		],
		[
			'an entry at the answer, after one stamped past it: both among the newest',
			newestAt(answeredAt, at('future', answeredAt + SECOND)),
			[at('b', answeredAt)],
			'desc',
			answeredAt,
			['future', 'b'],
			true,
		],
		[
			'a later answer reaching an entry stamped past the earlier one: the entry stays among the newest',
			newestAt(answeredAt - SECOND, at('future', answeredAt)),
			[at('b', answeredAt)],
			'desc',
			answeredAt,
			['future', 'b'],
			true,
		],
		[
			'a newer entry drops the newest before it, not one stamped later still',
			newestAt(
				answeredAt - 2 * SECOND,
				at('a', answeredAt - 2 * SECOND),
				at('future', answeredAt + SECOND),
			),
			[at('b', answeredAt - SECOND)],
			'desc',
			answeredAt - SECOND,
			['future', 'b'],
			true,
		],
	])('%s', (_rule, seen, entries, order, newest, atNewest, readOn) => {
		const step = afterNewestPage(seen, { entries, order, answeredAt, answeredAfter });
		expect(step.seen.newest).toBe(newest);
		expect(names(step.seen.atNewest)).toEqual(atNewest);
		expect(step.readOn).toBe(readOn);
	});

	it('leaves what it had seen as it was', () => {
		const seen = newestAt(T, at('a', T));
		const page = { entries: [at('b', T), at('c', T + 1)], order: 'asc' as const };
		afterNewestPage(seen, { ...page, answeredAt, answeredAfter });
		expect(seen).toEqual(newestAt(T, at('a', T)));
	});

	it('keeps when the service answered the first page, whenever the later ones came', () => {
		const first = afterNewestPage(NOTHING_SEEN, {
			entries: [at('a', T)],
			answeredAt,
			answeredAfter,
		});
		const second = afterNewestPage(first.seen, {
			entries: [at('b', T + 1)],
			order: 'asc',
			answeredAt: answeredAt + SECOND,
			answeredAfter: answeredAfter + SECOND,
		});
		expect(first.seen).toMatchObject({
			firstAnsweredAt: answeredAt,
			firstAnsweredAfter: answeredAfter,
		});
		expect(second.seen).toMatchObject({
			firstAnsweredAt: answeredAt,
			firstAnsweredAfter: answeredAfter,
		});
	});
});

describe('startOfNow: where a start from "now" starts once its read ended', () => {
	/** The service's present when it first answered, by its clock: within the second before this. */
	const firstAnsweredAt = T + 60 * SECOND;
	const firstAnsweredAfter = firstAnsweredAt - SECOND;
	/** n8n's clock, an hour ahead of the service's: used only for an empty log. */
	const now = firstAnsweredAt + 3600 * SECOND;
	const seenUpTo = (newest: number | undefined, ...atNewest: Placed[]): NewestSeen<Placed> => ({
		newest,
		atNewest,
		firstAnsweredAt,
		firstAnsweredAfter,
	});
	test.each<[string, NewestSeen<Placed>, boolean, number, string[]]>([
		[
			'found the newest entry (newest first, or to the log end): at it, its ties remembered',
			seenUpTo(T, at('a', T), at('b', T)),
			false,
			T,
			['a', 'b'],
		],
		[
			"an empty log, read to its end: at the start of the service's present second (an entry logged after its answer is no earlier)",
			seenUpTo(undefined),
			false,
			firstAnsweredAfter,
			[],
		],
		["no page answered: at n8n's present", NOTHING_SEEN, false, now, []],
		[
			'cut short oldest first, far behind the present: at the first answer, nothing remembered',
			seenUpTo(T, at('a', T)),
			true,
			firstAnsweredAt,
			[],
		],
		[
			'cut short with every entry read at one instant (no order shown): at the first answer, the tie forgotten',
			seenUpTo(firstAnsweredAt - 1, at('a', firstAnsweredAt - 1), at('b', firstAnsweredAt - 1)),
			true,
			firstAnsweredAt,
			[],
		],
		[
			"cut short, entries read at the first answer's instant: there, they are remembered",
			seenUpTo(firstAnsweredAt, at('a', firstAnsweredAt), at('b', firstAnsweredAt)),
			true,
			firstAnsweredAt,
			['a', 'b'],
		],
		[
			'cut short, the newest read later than the first answer: at it, its ties remembered',
			seenUpTo(firstAnsweredAt + 5, at('a', firstAnsweredAt + 5), at('future', now)),
			true,
			firstAnsweredAt + 5,
			['a', 'future'],
		],
		[
			'cut short before any entry was placed: at the first answer',
			seenUpTo(undefined),
			true,
			firstAnsweredAt,
			[],
		],
		["cut short before any answer: at n8n's present", NOTHING_SEEN, true, now, []],
	])('%s', (_rule, seen, cutShort, start, atStart) => {
		const decided = startOfNow(seen, { cutShort, now });
		expect(decided.start).toBe(start);
		expect(names(decided.atStart)).toEqual(atStart);
	});
});

describe('afterSearchPage: Fetch Test Event, the newest matching entry', () => {
	const matching = (read: Placed) => read.name.startsWith('match');
	const searched = (pagesWithoutMatch: number, looked = 0, found?: Placed): Search<Placed> => ({
		found,
		looked,
		pagesWithoutMatch,
	});
	test.each<
		[string, Search<Placed>, Placed[], SortOrder | undefined, string | undefined, number, boolean]
	>([
		[
			'newest first, no match on the first page: read on',
			NOTHING_FOUND,
			[at('x', T)],
			'desc',
			undefined,
			1,
			true,
		],
		[
			'newest first, no match on the last page but one: read on',
			searched(MANUAL_SEARCH_PAGES - 2),
			[at('x', T)],
			'desc',
			undefined,
			MANUAL_SEARCH_PAGES - 1,
			true,
		],
		[
			'newest first, no match on the last page: stop',
			searched(MANUAL_SEARCH_PAGES - 1),
			[at('x', T)],
			'desc',
			undefined,
			MANUAL_SEARCH_PAGES,
			false,
		],
		[
			'order not shown, no match: counted as newest first',
			searched(3),
			[at('x', T)],
			undefined,
			undefined,
			4,
			true,
		],
		[
			'newest first, a match: found, stop',
			searched(3),
			[at('x', T + 2), at('match-1', T + 1)],
			'desc',
			'match-1',
			3,
			false,
		],
		[
			'the newest of several matches, wherever it is in the page',
			NOTHING_FOUND,
			[at('match-old', T), at('match-new', T + 1), at('match-mid', T + 1)],
			'desc',
			'match-new',
			0,
			false,
		],
		[
			'oldest first, a match: found, read on (the newest match comes last)',
			NOTHING_FOUND,
			[at('match-1', T)],
			'asc',
			'match-1',
			0,
			true,
		],
		[
			'oldest first, no match: read on, not counted',
			searched(2),
			[at('x', T)],
			'asc',
			undefined,
			2,
			true,
		],
		[
			'oldest first, a newer match replaces the one found',
			searched(0, 1, at('match-1', T)),
			[at('match-2', T + 1)],
			'asc',
			'match-2',
			0,
			true,
		],
		[
			'oldest first, an older match keeps the one found',
			searched(0, 1, at('match-1', T)),
			[at('match-0', T - 1)],
			'asc',
			'match-1',
			0,
			true,
		],
		[
			'oldest first, a match at the same instant keeps the one found',
			searched(0, 1, at('match-1', T)),
			[at('match-2', T)],
			'asc',
			'match-1',
			0,
			true,
		],
	])('%s', (_rule, search, entries, order, found, pagesWithoutMatch, readOn) => {
		const step = afterSearchPage(search, { entries, order }, matching);
		expect(step.search.found?.name).toBe(found);
		expect(step.search.pagesWithoutMatch).toBe(pagesWithoutMatch);
		expect(step.readOn).toBe(readOn);
	});

	test.each([
		['a first page', NOTHING_FOUND, 3, 'desc', 3],
		['a page after 5 entries', searched(1, 5), 2, 'desc', 7],
		['an oldest-first page after 5 entries', searched(0, 5), 2, 'asc', 7],
		['a page with a match', searched(0, 5), 2, 'match', 7],
		['an empty page', searched(1, 5), 0, 'desc', 5],
	] as const)('counts the entries it looked at: %s', (_rule, search, count, kind, looked) => {
		const entries = Array.from({ length: count }, (_, i) =>
			at(kind === 'match' ? `match-${i}` : `x${i}`, T + i),
		);
		const order = kind === 'match' ? 'desc' : kind;
		expect(afterSearchPage(search, { entries, order }, matching).search.looked).toBe(looked);
	});
});
