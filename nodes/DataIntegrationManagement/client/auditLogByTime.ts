import type { SortOrder } from './types';

/**
 * Paging by time: the trigger's oldest-first read of a service that ignores the offset (every
 * page starts at the first entry) but honours startTime and the order. Each page is asked from the
 * newest instant read (startTime is inclusive), and the entries at it read before are told apart
 * by their keys. Pure; ./auditLogScan.ts carries it out (docs/design.md, "Paging by time").
 *
 * Before the first page by time, one page newest first (the probe) shows what the service had
 * then: an entry logged later and stamped behind the part already read is no older than that
 * newest instant less the lookback, so the trigger's cursor goes no further than it, and the next
 * poll finds such an entry. The read ends once it has every entry the probe saw.
 */

/** Why a scan cannot go on; ./auditLogRefusals.ts words each. */
export type Refusal =
	/** The offset is ignored, and the scan may not page by time (Audit Log → Get Many). */
	| { why: 'offsetIgnored' }
	/** The offset is ignored, and the service does not answer oldest first from startTime either. */
	| { why: 'notByTime' }
	/** A page holds only entries read, at `at` or without a readable timestamp after it. */
	| { why: 'pageFullAt'; at: number; pageSize: number };

/** Epoch ms: a scan's bounds, `startTime` inclusive, `endTime` exclusive. */
export type Bounds = { startTime?: number; endTime?: number };

/** Where paging by time stands. */
export interface ByTime {
	/** The keys of the newest entries when paging by time began (the probe); undefined until then. */
	readonly top?: ReadonlySet<string>;
	/** The instant the next page is asked from; undefined: the scan's start (the first page again). */
	readonly from?: number;
	/** Epoch ms: the newest instant the service had when paging by time began. */
	readonly settledUntil: number;
}

/** What the scan has seen, as paging by time reads it. */
export interface SeenSoFar {
	readonly order?: SortOrder;
	readonly boundsIgnored: boolean;
	/** The newest readable instant received. */
	readonly newestReceived?: number;
}

/** A page as paging by time reads it: its entries' keys and instants, in the service's order. */
export interface PageRead {
	keys: readonly string[];
	instants: ReadonlyArray<number | undefined>;
	/** The order the page's own instants show. */
	order?: SortOrder;
	totalItems?: number;
	answeredAt: number;
}

export function isRefusal<T extends object>(next: T | Refusal): next is Refusal {
	return 'why' in next;
}

/** A later page repeated only entries received: page by time (the probe first), or refuse. */
export function startByTime(
	scan: { sortOrder: SortOrder; pageByTime?: boolean },
	seen: SeenSoFar,
): ByTime | Refusal {
	if (!scan.pageByTime) return { why: 'offsetIgnored' };
	if (scan.sortOrder !== 'asc' || seen.order === 'desc' || seen.boundsIgnored)
		return { why: 'notByTime' };
	return { settledUntil: seen.newestReceived ?? -Infinity };
}

/** The probe's answer (newest first, within the scan's bounds): what the service has now. */
export function afterProbe(byTime: ByTime, bounds: Bounds, probe: PageRead): ByTime | Refusal {
	const readable = probe.instants.filter((instant) => instant !== undefined);
	if (probe.order === 'asc' || readable.some((instant) => !within(bounds, instant)))
		return { why: 'notByTime' };
	const newest = Math.min(probe.answeredAt, Math.max(byTime.settledUntil, ...readable));
	return { top: new Set(probe.keys), settledUntil: newest };
}

/** After a page asked by time: which entries are new, where the next page starts, whether it is the last. */
export function afterTimePage(
	byTime: ByTime,
	scan: Bounds,
	received: ReadonlySet<string>,
	seen: SeenSoFar,
	page: PageRead,
): Refusal | { byTime: ByTime; fresh: boolean[]; last: boolean; shifted: boolean } {
	const bound = byTime.from ?? scan.startTime ?? -Infinity;
	const { keys, instants } = page;
	if (page.order === 'desc' || instants.some((instant) => instant !== undefined && instant < bound))
		return { why: 'notByTime' };
	const fresh = freshIn(keys, received);
	const from = Math.max(bound, ...instants.filter((instant) => instant !== undefined));
	const last = isLastByTime(byTime, scan, received, page);
	if (!last && !fresh.includes(true) && from === bound)
		return { why: 'pageFullAt', at: bound, pageSize: keys.length };
	// Logged during the read, behind what it had read: the next poll takes it, in order.
	const shifted = instants.some(
		(instant, index) =>
			fresh[index] && instant !== undefined && instant < (seen.newestReceived ?? bound),
	);
	return { byTime: { ...byTime, from }, fresh, last, shifted };
}

/** Which keys of a page were not received (or handed over) before, nor earlier in the page. */
export function freshIn(keys: readonly string[], received: ReadonlySet<string>): boolean[] {
	const inPage = new Set<string>();
	return keys.map((key) => {
		if (received.has(key) || inPage.has(key)) return false;
		inPage.add(key);
		return true;
	});
}

/** A page by time is the last when the service says so, or once every entry the probe saw came. */
function isLastByTime(
	byTime: ByTime,
	scan: { endTime?: number },
	received: ReadonlySet<string>,
	page: PageRead,
): boolean {
	const { keys, instants, totalItems } = page;
	const pageKeys = new Set(keys);
	return (
		keys.length === 0 ||
		keys.length === totalItems ||
		instants.some(
			(instant) => instant !== undefined && !within({ endTime: scan.endTime }, instant),
		) ||
		[...(byTime.top ?? [])].every((key) => received.has(key) || pageKeys.has(key))
	);
}

/** After the probe: whether it shows that nothing but what was received is there. */
export function probeShowsAll(byTime: ByTime, received: ReadonlySet<string>): boolean {
	const top = byTime.top ?? new Set<string>();
	return top.size === received.size && [...top].every((key) => received.has(key));
}

export function within(bounds: Bounds, instant: number): boolean {
	return (
		(bounds.startTime === undefined || instant >= bounds.startTime) &&
		(bounds.endTime === undefined || instant < bounds.endTime)
	);
}
