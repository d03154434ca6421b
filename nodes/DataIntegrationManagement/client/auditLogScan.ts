import type { IDataObject } from 'n8n-workflow';

import { toUtcIso } from '../shared/timestamps';
import type { Pacer } from '../pacing/pacer';
import { AUDIT_LOG_MAX_PAGE_SIZE, AUDIT_LOG_QUERY, AUDIT_LOG_SORT_FIELD } from './choices';
import { freshIn, type ByTime, type PageRead, type Refusal } from './auditLogByTime';
import type { Neighbours, PlacedEntry } from './auditLogPlacement';
import type { AuditLogEntry, SortOrder } from './types';

export { within } from './auditLogByTime';

/**
 * The audit-log scan's decisions, pure (`scanAuditLog` in ./auditLog.ts sends the pages). Nothing
 * trusts the service to have done what was asked: the order is read from the timestamps, and the
 * bounds are applied again.
 */

/** What a scan asks for. */
export interface AuditLogScan {
	/** The order to ask for. */
	sortOrder: SortOrder;
	/** Epoch ms, inclusive. */
	startTime?: number;
	/** Epoch ms, exclusive. */
	endTime?: number;
	/** Epoch ms: no page is asked for, nor a 429 waited out, past it. */
	deadline?: number;
	/** Drop an entry served as one handed over: entries logged meanwhile push pages on. */
	dropRepeats?: boolean;
	/** Called as each page arrives, before it is taken in (the trigger renews its lease). */
	onAnswer?: () => void;
	/** Entries to ask for in the first page (at most AUDIT_LOG_MAX_PAGE_SIZE, the default). */
	firstPageSize?: number;
	/** The run's pacer, told of each page's answer (Audit Log → Get Many; the trigger has none). */
	pacer?: Pacer;
	/** Oldest first, where the service ignores the offset: page by time (./auditLogByTime.ts). */
	pageByTime?: boolean;
	/** Newest first, its first pages suffice: where the offset is ignored, it ends ('offsetIgnored'). */
	firstPagesSuffice?: boolean;
	/** Whether a failure past the second page ends the scan with what it has ('failed'). */
	keepsWhatItRead?: (error: unknown) => boolean;
}

/** A page as the scan hands it to its caller. */
export interface ScannedPage {
	/** The page's entries inside the bounds, in the order the service gave them. */
	entries: PlacedEntry[];
	/** The order the service answers in, once a page showed it (unknown while all instants tie). */
	order?: SortOrder;
	/** The service returned entries outside the bounds asked, in this page or an earlier one. */
	boundsIgnored: boolean;
	/**
	 * Entries logged during the read shifted the page (see shiftedByOffset); paged by
	 * time, it brings one older than those read.
	 */
	shifted: boolean;
	/** Epoch ms: no earlier than when the service answered. */
	answeredAt: number;
	/** Epoch ms: no later than when the service answered (the start of its Date header's second). */
	answeredAfter: number;
	/**
	 * Epoch ms: how far these entries may move the trigger's cursor: `answeredAt`, or, paged by
	 * time, no further than the newest entry the service had when that began.
	 */
	settledUntil: number;
}

/**
 * How a scan ended: the log's end, the caller said stop, the deadline came first, (where its
 * first pages suffice) a page repeated what the service answered before, the offset ignored, or
 * a request past the second page failed and `keepsWhatItRead` kept what it had.
 */
export type ScanEnd = 'end' | 'stopped' | 'deadline' | 'offsetIgnored' | 'failed';

/** What a scan has seen so far, apart from the entries' keys. */
export interface ScanState {
	/** Entries received: the next page's offset. */
	readonly offset: number;
	/** The order the service answers in, once a page showed it. */
	readonly order?: SortOrder;
	readonly boundsIgnored: boolean;
	/** The longest a page took to come back, in ms. */
	readonly slowestPageMs: number;
	readonly neighbours: Neighbours;
	/** The newest readable instant received. */
	readonly newestReceived?: number;
	/** The first page's first entry (its key), and the `totalItems` of that page. */
	readonly first?: { readonly key: string; readonly totalItems?: number };
	/** Paging by time, once the service showed it ignores the offset (`pageByTime` scans). */
	readonly byTime?: ByTime;
}

/** What the checks of a page's offset read of it: its entries' keys, and its `totalItems`. */
export type PageKeys = Pick<PageRead, 'keys' | 'totalItems'>;

/** The keys (`auditEntryKey`) of what a scan has received, and handed over. They only grow. */
export interface ScanKeys {
	readonly received: ReadonlySet<string>;
	readonly handedOver: ReadonlySet<string>;
}

/** A page as the service answered it. */
export interface PageAnswer {
	items: AuditLogEntry[];
	totalItems?: number;
	/** Epoch ms: no earlier than when the service answered. */
	answeredAt: number;
	/** Epoch ms: no later than when the service answered. */
	answeredAfter: number;
	/** How long the page took to come back, in ms. */
	tookMs: number;
}

/** What to do with an answered page. */
export type ScanStep =
	| { action: 'refuse'; refusal: Refusal }
	| { action: 'end'; end: 'offsetIgnored' }
	| {
			action: 'handOver';
			page: ScannedPage;
			state: ScanState;
			/** Keys to add to `ScanKeys`. */
			received: readonly string[];
			handedOver: readonly string[];
			/** No page follows. */
			last: boolean;
	  };

export const SCAN_START: ScanState = {
	offset: 0,
	boundsIgnored: false,
	slowestPageMs: 0,
	neighbours: { waiting: [] },
};

/**
 * The query of the next page: the first may be smaller, the others are as large as allowed. Paged
 * by time, from the instant reached (the probe: newest first, from the scan's start).
 */
export function pageQuery(scan: AuditLogScan, state: ScanState): IDataObject {
	const { byTime } = state;
	const pageSize = state.offset === 0 ? scan.firstPageSize : undefined;
	const startTime = byTime?.from ?? scan.startTime;
	const probing = byTime !== undefined && byTime.top === undefined;
	const qs: IDataObject = {
		[AUDIT_LOG_QUERY.pageSize]: pageSize ?? AUDIT_LOG_MAX_PAGE_SIZE,
		[AUDIT_LOG_QUERY.skip]: byTime ? 0 : state.offset,
		[AUDIT_LOG_QUERY.sortField]: AUDIT_LOG_SORT_FIELD,
		[AUDIT_LOG_QUERY.sortDirection]: probing ? 'desc' : scan.sortOrder,
	};
	if (startTime !== undefined) qs[AUDIT_LOG_QUERY.since] = toUtcIso(startTime);
	if (scan.endTime !== undefined) qs[AUDIT_LOG_QUERY.until] = toUtcIso(scan.endTime);
	return qs;
}

/** Whether to ask for another page: the first always, others if they can beat the deadline. */
export function mayAsk(scan: AuditLogScan, state: ScanState, now: number): boolean {
	return (
		scan.deadline === undefined || state.offset === 0 || now + state.slowestPageMs <= scan.deadline
	);
}

/**
 * After a failed request, `pagesRead` pages into the scan: 'deadline' when the deadline cut it
 * (with a deadline, the trigger's, any 429 not waited out too); 'mayKeep' past the second page
 * read by offset, once a later page showed the offset honoured (until then the pages read may not
 * be what they seem), so `keepsWhatItRead` may end the scan with them; else 'raise'.
 */
export function afterFailure(
	scan: AuditLogScan,
	state: ScanState,
	now: number,
	failure: { deadlineReached: boolean; rateLimited: boolean; pagesRead: number },
): 'deadline' | 'mayKeep' | 'raise' {
	if (state.offset === 0) return 'raise';
	const { deadlineReached, rateLimited, pagesRead } = failure;
	if (deadlineReached || (scan.deadline !== undefined && (rateLimited || now >= scan.deadline)))
		return 'deadline';
	return pagesRead > 1 && !state.byTime ? 'mayKeep' : 'raise';
}

/**
 * A later page of nothing but entries received, or holding the first page's first entry where
 * paging by offset cannot have put it: the service ignores the offset (every page starts at the
 * first entry again, after entries logged meanwhile). Read on by offset, it would never end, or
 * skip what lies past the first page. By offset, that entry is at this page's offset less the
 * entries logged before it since, which `totalItems` bounds; without it, that is not told apart.
 */
export function ignoresOffset(state: ScanState, keys: ScanKeys, page: PageKeys): boolean {
	if (state.offset === 0 || page.keys.length === 0) return false;
	if (page.keys.every((key) => keys.received.has(key))) return true;
	const at = state.first ? page.keys.indexOf(state.first.key) : -1;
	if (at === -1) return false;
	const logged =
		page.totalItems === undefined || state.first?.totalItems === undefined
			? undefined
			: page.totalItems - state.first.totalItems;
	return logged === undefined || state.offset + at > logged;
}

/** The order readable instants are in, or undefined while they all tie. */
export function orderOf(instants: ReadonlyArray<number | undefined>): SortOrder | undefined {
	let previous: number | undefined;
	for (const instant of instants) {
		if (instant === undefined) continue;
		if (previous !== undefined && instant !== previous) return instant > previous ? 'asc' : 'desc';
		previous = instant;
	}
	return undefined;
}

/**
 * Whether the page is the scan's last: it is empty, the entries received are `totalItems`, or, in
 * the order the service answers, an entry is past the bounds (so every later one is too). More
 * received than `totalItems` says the count is off (a search index stops counting): read on.
 */
export function isLastPage(
	scan: AuditLogScan,
	order: SortOrder | undefined,
	instants: ReadonlyArray<number | undefined>,
	answer: { offset: number; totalItems?: number },
): boolean {
	const passedBounds = instants.some(
		(instant) =>
			instant !== undefined &&
			(order === 'asc'
				? scan.endTime !== undefined && instant >= scan.endTime
				: order === 'desc' && scan.startTime !== undefined && instant < scan.startTime),
	);
	const { offset, totalItems } = answer;
	return passedBounds || instants.length === 0 || offset === totalItems;
}

/** The entries not handed over before (nor earlier in this page), and their keys. */
export function notHandedOver(
	placed: PlacedEntry[],
	handedOver: ReadonlySet<string>,
): { fresh: PlacedEntry[]; keys: string[] } {
	const pageKeys = placed.map(({ key }) => key);
	const isFresh = freshIn(pageKeys, handedOver);
	const fresh = placed.filter((_, index) => isFresh[index]);
	return { fresh, keys: fresh.map(({ key }) => key) };
}

/** Gathering `limit` entries in the `wanted` order: read on until they are, or in another order. */
export function readsOn(
	order: SortOrder | undefined,
	wanted: SortOrder,
	gathered: number,
	limit: number,
): boolean {
	return order !== wanted || gathered < limit;
}
