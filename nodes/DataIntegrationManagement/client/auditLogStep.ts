import { parseInstant } from '../shared/timestamps';
import { auditEntryKeyAt } from './auditLogEntryKey';
import {
	afterProbe,
	afterTimePage,
	isRefusal,
	probeShowsAll,
	startByTime,
	type PageRead,
} from './auditLogByTime';
import {
	placeNewestFirst,
	placeOldestFirst,
	placeWaiting,
	type KeyedEntry,
} from './auditLogPlacement';
import {
	ignoresOffset,
	isLastPage,
	notHandedOver,
	orderOf,
	within,
	type AuditLogScan,
	type PageAnswer,
	type PageKeys,
	type ScanKeys,
	type ScanState,
	type ScanStep,
} from './auditLogScan';

/**
 * The scan's step after each answered page, pure: the rules of ./auditLogScan.ts and, where the
 * service ignores the offset, of ./auditLogByTime.ts, applied to what the scan has seen.
 */

/** What to do with an answered page, given what the scan has seen. */
export function nextStep(
	scan: AuditLogScan,
	state: ScanState,
	keys: ScanKeys,
	answer: PageAnswer,
): ScanStep {
	const { items } = answer;
	// Each entry's timestamp is read, and its key computed, once.
	const instants = items.map((entry) => parseInstant(entry?.timestamp));
	const read = items.map((entry, index) => ({
		entry,
		key: auditEntryKeyAt(entry, instants[index]),
	}));
	const page: PageRead = { ...answer, keys: read.map(({ key }) => key), instants };
	if (state.byTime)
		return nextByTime(scan, state, keys, answer, { ...page, order: orderOf(instants) }, read);
	if (ignoresOffset(state, keys, page)) {
		if (scan.firstPagesSuffice) return { action: 'end', end: 'offsetIgnored' };
		const byTime = startByTime(scan, state);
		if (isRefusal(byTime)) return { action: 'refuse', refusal: byTime };
		return takeIn(scan, { ...state, byTime }, keys, answer, NOTHING_TAKEN);
	}
	const offset = state.offset + items.length;
	// Within a page only: entries logged during the scan shift later pages.
	const order = state.order ?? orderOf(instants);
	const last = isLastPage(scan, order, instants, { offset, totalItems: answer.totalItems });
	return takeIn(scan, { ...state, order }, keys, answer, {
		read,
		instants,
		last,
		shifted: shiftedByOffset(state, keys, page),
		received: page.keys,
	});
}

/**
 * Whether entries logged during the read moved this page's offset: it repeats an entry held back,
 * or one received while `totalItems` moved or fell behind what came (as it stands, and counts it,
 * the service serves one entry twice). A `totalItems` that falls is not read as removals: a
 * service's count may be approximate.
 */
export function shiftedByOffset(state: ScanState, keys: ScanKeys, page: PageKeys): boolean {
	const [before, now] = [state.first?.totalItems, page.totalItems];
	const heldBack = new Set(state.neighbours.waiting.map(({ key }) => key));
	// A count that moved, or that this page passes (a count that stops, capped), tells no twin.
	const counts = now !== undefined && now === before && state.offset + page.keys.length <= now;
	const repeats = counts ? new Set<string>() : keys.received;
	return page.keys.some((key) => heldBack.has(key) || repeats.has(key));
}

/** Paging by time: the probe's answer, or a page asked from the instant reached. */
function nextByTime(
	scan: AuditLogScan,
	state: ScanState,
	keys: ScanKeys,
	answer: PageAnswer,
	page: PageRead,
	read: KeyedEntry[],
): ScanStep {
	const byTime = state.byTime!;
	if (!byTime.top) {
		const probed = afterProbe(byTime, scan, page);
		if (isRefusal(probed)) return { action: 'refuse', refusal: probed };
		const last = probeShowsAll(probed, keys.received);
		return takeIn(scan, { ...state, byTime: probed }, keys, answer, { ...NOTHING_TAKEN, last });
	}
	const next = afterTimePage(byTime, scan, keys.received, state, page);
	if (isRefusal(next)) return { action: 'refuse', refusal: next };
	return takeIn(
		scan,
		{ ...state, byTime: next.byTime, order: state.order ?? page.order },
		keys,
		answer,
		{
			read: read.filter((_, index) => next.fresh[index]),
			instants: page.instants.filter((_, index) => next.fresh[index]),
			last: next.last,
			shifted: next.shifted,
			received: page.keys,
		},
	);
}

/** The entries read that a step takes in: placed, repeats dropped when asked, inside the bounds. */
interface TakenIn {
	read: KeyedEntry[];
	instants: Array<number | undefined>;
	last: boolean;
	shifted?: boolean;
	received?: readonly string[];
}

/** The first entry received, and the `totalItems` of its page. */
function firstOf(received: readonly string[] | undefined, totalItems: number | undefined) {
	return received?.length ? { key: received[0], totalItems } : undefined;
}

/** A step that takes no entry in (the page repeats the first, or is the probe). */
const NOTHING_TAKEN: TakenIn = { read: [], instants: [], last: false };

/** Hands the entries of a page over, placed, with the state that follows. */
function takeIn(
	scan: AuditLogScan,
	state: ScanState,
	keys: ScanKeys,
	answer: PageAnswer,
	taken: TakenIn,
): ScanStep {
	const { read, instants, last } = taken;
	const { order, byTime } = state;
	const { answeredAt } = answer;
	const inPage =
		(order ?? scan.sortOrder) === 'asc'
			? placeOldestFirst(state.neighbours, read, instants)
			: placeNewestFirst(state.neighbours, read, instants, answeredAt);
	const atEnd = last ? placeWaiting(inPage.neighbours, answeredAt) : undefined;
	const placed = atEnd ? [...inPage.placed, ...atEnd.placed] : inPage.placed;
	// Repeats go only now: within its page, a repeated entry is still a true neighbour.
	const { fresh, keys: handedOver } = scan.dropRepeats
		? notHandedOver(placed, keys.handedOver)
		: { fresh: placed, keys: [] };
	const entries = fresh.filter(({ instant }) => within(scan, instant));
	const boundsIgnored = state.boundsIgnored || entries.length < fresh.length;
	const settledUntil = Math.min(answeredAt, byTime?.settledUntil ?? answeredAt);
	const newestReceived = Math.max(
		state.newestReceived ?? -Infinity,
		...instants.filter((instant) => instant !== undefined),
	);
	return {
		action: 'handOver',
		page: {
			entries,
			order,
			boundsIgnored,
			shifted: taken.shifted ?? false,
			answeredAt,
			answeredAfter: answer.answeredAfter,
			settledUntil,
		},
		state: {
			...state,
			offset: state.offset + answer.items.length,
			boundsIgnored,
			slowestPageMs: Math.max(state.slowestPageMs, answer.tookMs),
			neighbours: (atEnd ?? inPage).neighbours,
			newestReceived: Number.isFinite(newestReceived) ? newestReceived : undefined,
			first: state.first ?? firstOf(taken.received, answer.totalItems),
		},
		received: taken.received ?? [],
		handedOver,
		last,
	};
}
