import type { SortOrder } from '../client/types';

/**
 * What the poll's oldest-first read does after each page and at its end: pure decisions from
 * what the read has seen (the pages held so far) to the next step. No I/O; poll.ts sends the
 * requests and carries the steps out.
 */

/** What the steps read of a page, as the audit-log reader hands it over. */
export interface PageSeen {
	/** The page's entries inside the bounds, each at the instant it is placed. */
	entries: ReadonlyArray<{ instant: number }>;
	/** The order the service answers in, once an answer showed it. */
	order?: SortOrder;
	/** The service returned entries outside the bounds asked. */
	boundsIgnored: boolean;
	/** The page repeats an entry held back from the page before: entries logged meanwhile pushed it on. */
	repeatsHeldBack: boolean;
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

/**
 * After a page of the oldest-first read:
 * - the service answers newest first or ignores the bounds: read newest first instead;
 * - the page repeats a held-back entry: the read is cut short here (see `afterRead`);
 * - no order shown yet (every instant so far ties): hold the page;
 * - oldest first shown: take the held pages and this one in.
 */
export function afterPage<Page extends PageSeen>(
	read: OldestFirstRead<Page>,
	page: Page,
): ReadOn<Page> | ReadDone<Page> {
	if (page.boundsIgnored || page.order === 'desc') return { next: 'readNewestFirst' };
	if (page.repeatsHeldBack) return afterRead(read, { reachedEnd: false });
	const held = [...read.held, page];
	if (page.order === undefined) return { next: 'hold', read: { held } };
	return { next: 'takeIn', pages: held, read: NOTHING_HELD };
}

/**
 * When the oldest-first read ends (the log's end, the scan full, the deadline, or a page cut short):
 * - nothing held: store the cursor;
 * - pages held, the log's end not reached: they may be the newest entries of a service answering
 *   newest first, and taking them for the oldest would skip every entry between: keep the cursor;
 * - pages held up to the log's end, at more than one instant: their order cannot be trusted, so
 *   read newest first;
 * - pages held up to the log's end, all at one instant: take them in and store the cursor.
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
