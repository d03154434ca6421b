import type { SortOrder } from '../client/types';

/**
 * What the trigger's reads do after each page, decided from what a read has seen; pure (the table
 * is in docs/design.md, "The poll's steps"). newEntries.ts and poll.ts carry the steps out.
 */

/** What the steps read of a page, as the audit-log reader hands it over. */
export interface PageSeen {
	/** The page's entries inside the bounds, each at the instant it is placed. */
	entries: ReadonlyArray<{ instant: number }>;
	/** The order the service answers in, once an answer showed it. */
	order?: SortOrder;
	/** The service returned entries outside the bounds asked. */
	boundsIgnored: boolean;
	/** Entries logged or removed during the read shifted the page (client/auditLogStep.ts). */
	shifted: boolean;
}

/** What the oldest-first read has seen: the pages held while no page has shown the order. */
export interface OldestFirstRead<Page extends PageSeen> {
	readonly held: readonly Page[];
}

export const NOTHING_HELD: OldestFirstRead<never> = { held: [] };

/** A step after which the read goes on. */
export type ReadOn<Page extends PageSeen> =
	/** Keep the page until a later page shows the order; read the next page. */
	| { next: 'hold'; read: OldestFirstRead<Page> }
	/** Take these pages in, oldest first; read on while the scan takes them whole. */
	| { next: 'takeIn'; pages: readonly Page[]; read: OldestFirstRead<Page> };

/** A step that ends the oldest-first read. */
export type ReadDone<Page extends PageSeen> =
	/** Read again newest first, from the stored cursor. */
	| { next: 'readNewestFirst' }
	/** Cut short before any page showed the order: take nothing in, keep the cursor. */
	| { next: 'keepCursor' }
	/** Take these pages in (none, or pages that all share one instant), then store the cursor. */
	| { next: 'store'; pages: readonly Page[] };

/** After a page of the oldest-first read: read newest first, end, hold the page or take it in. */
export function afterPage<Page extends PageSeen>(
	read: OldestFirstRead<Page>,
	page: Page,
): ReadOn<Page> | ReadDone<Page> {
	if (page.boundsIgnored || page.order === 'desc') return { next: 'readNewestFirst' };
	if (page.shifted) return afterRead(read, { reachedEnd: false });
	const held = [...read.held, page];
	if (page.order === undefined) return { next: 'hold', read: { held } };
	return { next: 'takeIn', pages: held, read: NOTHING_HELD };
}

/**
 * When the oldest-first read ends. Pages held short of the log's end may be the newest entries of
 * a service answering newest first: taking them for the oldest would skip every entry between.
 */
export function afterRead<Page extends PageSeen>(
	read: OldestFirstRead<Page>,
	{ reachedEnd }: { reachedEnd: boolean },
): ReadDone<Page> {
	if (read.held.length === 0) return { next: 'store', pages: [] };
	if (!reachedEnd) return { next: 'keepCursor' };
	const instants = new Set(read.held.flatMap((page) => page.entries.map(({ instant }) => instant)));
	if (instants.size > 1) return { next: 'readNewestFirst' };
	return { next: 'store', pages: read.held };
}

/** What the read for a start from "now" has seen, newest first. */
export interface NewestSeen<Entry extends { instant: number }> {
	/** The newest instant, no later than the service's answer. */
	readonly newest?: number;
	/** The entries at it (or later, when stamped past the service's present). */
	readonly atNewest: readonly Entry[];
	/** When the service answered the first page, by its clock: no earlier than the poll's start. */
	readonly firstAnsweredAt?: number;
	/** No later than when the service answered the first page: the start of its Date header's second. */
	readonly firstAnsweredAfter?: number;
}

export const NOTHING_SEEN: NewestSeen<never> = { atNewest: [] };

/**
 * After a page of the read for a start from "now": the newest instant and the entries at it; newest
 * first, a page that reached an older entry ends the read.
 */
export function afterNewestPage<Entry extends { instant: number }>(
	seen: NewestSeen<Entry>,
	page: { entries: readonly Entry[]; order?: SortOrder; answeredAt: number; answeredAfter: number },
): { seen: NewestSeen<Entry>; readOn: boolean } {
	let { newest } = seen;
	let atNewest = [...seen.atNewest];
	for (const read of page.entries) {
		const instant = Math.min(read.instant, page.answeredAt);
		if (newest === undefined || instant > newest) {
			newest = instant;
			atNewest = atNewest.filter((other) => other.instant >= instant);
		}
		if (read.instant >= newest) atNewest.push(read);
	}
	const passed =
		page.order === 'desc' &&
		page.entries.some(({ instant }) => newest !== undefined && instant < newest);
	const firstAnsweredAt = seen.firstAnsweredAt ?? page.answeredAt;
	const firstAnsweredAfter = seen.firstAnsweredAfter ?? page.answeredAfter;
	return { seen: { newest, atNewest, firstAnsweredAt, firstAnsweredAfter }, readOn: !passed };
}

/**
 * Where a start from "now" starts, and the entries already there: at the newest entry; in an empty
 * log, at the service's present when it answered, from the start of that second (an entry logged
 * after it is stamped no earlier); cut short before finding the newest entry, at the end of that
 * second (no entry logged before it is stamped later). `now` only when no page came.
 */
export function startOfNow<Entry extends { instant: number }>(
	seen: NewestSeen<Entry>,
	{ cutShort, now }: { cutShort: boolean; now: number },
): { start: number; atStart: readonly Entry[] } {
	if (!cutShort)
		return { start: seen.newest ?? seen.firstAnsweredAfter ?? now, atStart: seen.atNewest };
	const start = Math.max(seen.newest ?? -Infinity, seen.firstAnsweredAt ?? now);
	return { start, atStart: seen.atNewest.filter(({ instant }) => instant >= start) };
}

/** The newer of two entries; the first one at a tie. */
function newerOf<Entry extends { instant: number }>(one: Entry | undefined, other: Entry) {
	return one === undefined || other.instant > one.instant ? other : one;
}

/** How many pages Fetch Test Event reads newest first while no entry matches. */
export const MANUAL_SEARCH_PAGES = 10;

/** What Fetch Test Event's search has seen. */
export interface Search<Entry extends { instant: number }> {
	/** The newest matching entry. */
	readonly found?: Entry;
	/** How many entries it looked at. */
	readonly looked: number;
	/** How many pages it read newest first without a match. */
	readonly pagesWithoutMatch: number;
}

export const NOTHING_FOUND: Search<never> = { looked: 0, pagesWithoutMatch: 0 };

/**
 * After a page of Fetch Test Event's search: the newest match so far. Oldest first it reads to the
 * end (the newest match comes last), else while nothing matched, up to MANUAL_SEARCH_PAGES pages.
 */
export function afterSearchPage<Entry extends { instant: number }>(
	search: Search<Entry>,
	page: { entries: readonly Entry[]; order?: SortOrder },
	matches: (read: Entry) => boolean,
): { search: Search<Entry>; readOn: boolean } {
	const found = page.entries.filter(matches).reduce(newerOf, search.found);
	const looked = search.looked + page.entries.length;
	if (page.order === 'asc' || found)
		return { search: { ...search, found, looked }, readOn: page.order === 'asc' };
	const pagesWithoutMatch = search.pagesWithoutMatch + 1;
	return { search: { looked, pagesWithoutMatch }, readOn: pagesWithoutMatch < MANUAL_SEARCH_PAGES };
}
