import type { IDataObject } from 'n8n-workflow';

import { parseInstant, toUtcIso } from '../shared/timestamps';
import type { Pacer } from '../transport/pacer';
import { AUDIT_LOG_MAX_PAGE_SIZE, AUDIT_LOG_QUERY, AUDIT_LOG_SORT_FIELD } from './choices';
import { auditEntryKey } from './auditLogEntryKey';
import {
	placeNewestFirst,
	placeOldestFirst,
	placeWaiting,
	type Neighbours,
	type PlacedEntry,
} from './auditLogPlacement';
import type { AuditLogEntry, SortOrder } from './types';

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
}

/** A page as the scan hands it to its caller. */
export interface ScannedPage {
	/** The page's entries inside the bounds, in the order the service gave them. */
	entries: PlacedEntry[];
	/** The order the service answers in, once a page showed it (unknown while all instants tie). */
	order?: SortOrder;
	/** The service returned entries outside the bounds asked, in this page or an earlier one. */
	boundsIgnored: boolean;
	/** The page repeats an entry held back (unreadable, waiting for a newer neighbour) before. */
	repeatsHeldBack: boolean;
	/** Epoch ms: no earlier than when the service answered. */
	answeredAt: number;
}

/** How a scan ended: the log's end, the caller said stop, or the deadline came first. */
export type ScanEnd = 'end' | 'stopped' | 'deadline';

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
}

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
	/** How long the page took to come back, in ms. */
	tookMs: number;
}

/** What to do with an answered page. */
export type ScanStep =
	| { action: 'refuse' }
	| {
			action: 'handOver';
			page: ScannedPage;
			state: ScanState;
			/** Keys to add to `ScanKeys`. */
			received: string[];
			handedOver: string[];
			/** No page follows. */
			last: boolean;
	  };

export const SCAN_START: ScanState = {
	offset: 0,
	boundsIgnored: false,
	slowestPageMs: 0,
	neighbours: { waiting: [] },
};

/** The query of the next page: the first may be smaller, the others are as large as allowed. */
export function pageQuery(scan: AuditLogScan, state: ScanState): IDataObject {
	const pageSize = state.offset === 0 ? scan.firstPageSize : undefined;
	const qs: IDataObject = {
		[AUDIT_LOG_QUERY.pageSize]: pageSize ?? AUDIT_LOG_MAX_PAGE_SIZE,
		[AUDIT_LOG_QUERY.skip]: state.offset,
		[AUDIT_LOG_QUERY.sortField]: AUDIT_LOG_SORT_FIELD,
		[AUDIT_LOG_QUERY.sortDirection]: scan.sortOrder,
	};
	if (scan.startTime !== undefined) qs[AUDIT_LOG_QUERY.since] = toUtcIso(scan.startTime);
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
 * After a failed request past the first page: whether the scan ends with what it has. So it does
 * when the deadline cut it, and, with a deadline (the trigger's), on any 429 it did not wait out.
 */
export function cutByDeadline(
	scan: AuditLogScan,
	state: ScanState,
	now: number,
	{ deadlineReached, rateLimited }: { deadlineReached: boolean; rateLimited: boolean },
): boolean {
	if (state.offset === 0) return false;
	return deadlineReached || (scan.deadline !== undefined && (rateLimited || now >= scan.deadline));
}

/** A later page of nothing but entries received: the service ignores the offset (no end). */
export function ignoresOffset(state: ScanState, keys: ScanKeys, pageKeys: string[]): boolean {
	return state.offset > 0 && pageKeys.length > 0 && pageKeys.every((key) => keys.received.has(key));
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
 * Whether the page is the scan's last: it is empty, `totalItems` is reached, or, in the order the
 * service answers, an entry is past the bounds (so every later one is too).
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
	return (
		passedBounds || instants.length === 0 || (totalItems !== undefined && offset >= totalItems)
	);
}

export function within(scan: AuditLogScan, instant: number): boolean {
	return (
		(scan.startTime === undefined || instant >= scan.startTime) &&
		(scan.endTime === undefined || instant < scan.endTime)
	);
}

/** The entries not handed over before (nor earlier in this page), and their keys. */
export function notHandedOver(
	placed: PlacedEntry[],
	handedOver: ReadonlySet<string>,
): { fresh: PlacedEntry[]; keys: string[] } {
	const keys = new Set<string>();
	const fresh = placed.filter(({ entry }) => {
		const key = auditEntryKey(entry);
		if (handedOver.has(key) || keys.has(key)) return false;
		keys.add(key);
		return true;
	});
	return { fresh, keys: [...keys] };
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

/** What to do with an answered page, given what the scan has seen. */
export function nextStep(
	scan: AuditLogScan,
	state: ScanState,
	keys: ScanKeys,
	answer: PageAnswer,
): ScanStep {
	const { items, answeredAt } = answer;
	const pageKeys = items.map(auditEntryKey);
	if (ignoresOffset(state, keys, pageKeys)) return { action: 'refuse' };
	const offset = state.offset + items.length;
	const instants = items.map((entry) => parseInstant(entry?.timestamp));
	// Within a page only: entries logged during the scan shift later pages.
	const order = state.order ?? orderOf(instants);
	const heldBack = new Set(state.neighbours.waiting.map(auditEntryKey));
	const repeatsHeldBack = pageKeys.some((key) => heldBack.has(key));
	const last = isLastPage(scan, order, instants, { offset, totalItems: answer.totalItems });
	const inPage =
		(order ?? scan.sortOrder) === 'asc'
			? placeOldestFirst(state.neighbours, items, instants)
			: placeNewestFirst(state.neighbours, items, instants, answeredAt);
	const atEnd = last ? placeWaiting(inPage.neighbours, answeredAt) : undefined;
	const placed = atEnd ? [...inPage.placed, ...atEnd.placed] : inPage.placed;
	// Repeats go only now: within its page, a repeated entry is still a true neighbour.
	const { fresh, keys: handedOver } = scan.dropRepeats
		? notHandedOver(placed, keys.handedOver)
		: { fresh: placed, keys: [] };
	const entries = fresh.filter(({ instant }) => within(scan, instant));
	const boundsIgnored = state.boundsIgnored || entries.length < fresh.length;
	return {
		action: 'handOver',
		page: { entries, order, boundsIgnored, repeatsHeldBack, answeredAt },
		state: {
			offset,
			order,
			boundsIgnored,
			slowestPageMs: Math.max(state.slowestPageMs, answer.tookMs),
			neighbours: (atEnd ?? inPage).neighbours,
		},
		received: pageKeys,
		handedOver,
		last,
	};
}
