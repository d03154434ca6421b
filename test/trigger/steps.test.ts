/**
 * The trigger's decisions, rule by rule: what the oldest-first read does after each page and at
 * its end (trigger/steps.ts), and how the cursor remembers an entry and moves (trigger/cursor.ts).
 * Each row is a state and what came next, and the decision it must give; nothing here does I/O.
 */
import { cursorAfter, rememberedUntil } from '../../nodes/DataIntegrationManagement/trigger/cursor';
import {
	afterPage,
	afterRead,
	NOTHING_HELD,
	type OldestFirstRead,
	type PageSeen,
} from '../../nodes/DataIntegrationManagement/trigger/steps';

const T = Date.parse('2026-11-01T00:00:00.000Z');
const SECOND = 1000;

/** A page as the reader hands it over: its entries' instants, and what it showed. */
function page(instants: number[], shown: Partial<Omit<PageSeen, 'entries'>> = {}): PageSeen {
	return {
		entries: instants.map((instant) => ({ instant })),
		boundsIgnored: false,
		repeatsHeldBack: false,
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
			{ ...descending, repeatsHeldBack: true },
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
			{ ...tiedB, repeatsHeldBack: true },
			{ next: 'keepCursor' },
		],
		[
			'the order shown before: the pages taken in stand',
			NOTHING_HELD,
			{ ...ascending, repeatsHeldBack: true },
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
			answeredAt,
			T,
			false,
			answeredAt,
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
