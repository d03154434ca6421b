import type { AuditLogEntry } from './types';

/**
 * Placing audit-log entries in time. An entry whose timestamp cannot be read takes its instant
 * from its readable neighbours: never earlier than where the service has it.
 */

/** An entry as read, with its key (`auditEntryKey`, computed once per entry). */
export interface KeyedEntry {
	entry: AuditLogEntry;
	key: string;
}

/** An entry with the instant it is placed at. */
export interface PlacedEntry extends KeyedEntry {
	/**
	 * Epoch ms: its timestamp, or else the next newer readable one's (or the answer's): never
	 * earlier than where the service has it, so a bounded scan that no longer returns it passed it.
	 */
	instant: number;
	/** Epoch ms: its timestamp, or else the next older readable one's: what entries sort by. */
	earliest: number;
	/** Whether its timestamp could be read; only those move the trigger's cursor. */
	readable: boolean;
}

/** What placing remembers from one page to the next. */
export interface Neighbours {
	/** Oldest first: the instant of the last readable entry, older than what follows. */
	readonly olderInstant?: number;
	/** Newest first: the instant the last entry was placed at, newer than what follows. */
	readonly newerInstant?: number;
	/** Oldest first: entries without a readable timestamp, waiting for a newer readable one. */
	readonly waiting: readonly KeyedEntry[];
}

export interface Placed {
	neighbours: Neighbours;
	placed: PlacedEntry[];
}

/** A page answered oldest first: an unreadable entry waits for the next readable one. */
export function placeOldestFirst(
	neighbours: Neighbours,
	items: readonly KeyedEntry[],
	instants: ReadonlyArray<number | undefined>,
): Placed {
	let { olderInstant } = neighbours;
	const waiting = [...neighbours.waiting];
	const placed: PlacedEntry[] = [];
	items.forEach((read, index) => {
		const instant = instants[index];
		if (instant === undefined) {
			waiting.push(read);
			return;
		}
		const earliest = olderInstant ?? instant;
		for (const earlier of waiting) placed.push({ ...earlier, instant, earliest, readable: false });
		waiting.length = 0;
		olderInstant = instant;
		placed.push({ ...read, instant, earliest: instant, readable: true });
	});
	return { neighbours: { ...neighbours, olderInstant, waiting }, placed };
}

/**
 * A page answered newest first: an unreadable entry takes the instant of the readable one before
 * it; before any, the present (`answeredAt`), or the page's newest readable instant if later.
 */
export function placeNewestFirst(
	neighbours: Neighbours,
	items: readonly KeyedEntry[],
	instants: ReadonlyArray<number | undefined>,
	answeredAt: number,
): Placed {
	const newestReadable = instants.find((instant) => instant !== undefined);
	// Each entry's next older readable instant in this page: a lower bound.
	const olderInPage: Array<number | undefined> = [];
	for (let index = items.length - 1, older: number | undefined; index >= 0; index--) {
		olderInPage[index] = older;
		older = instants[index] ?? older;
	}
	let { newerInstant } = neighbours;
	const placed = items.map((read, index): PlacedEntry => {
		const instant = instants[index];
		const at = instant ?? newerInstant ?? Math.max(answeredAt, newestReadable ?? answeredAt);
		newerInstant = at;
		const earliest = instant ?? Math.min(at, olderInPage[index] ?? at);
		return { ...read, instant: at, earliest, readable: instant !== undefined };
	});
	return { neighbours: { ...neighbours, newerInstant }, placed };
}

/**
 * At the scan's end, the entries still waiting are the newest: at the present (`answeredAt`), or
 * at the last readable instant if the service stamped it later still.
 */
export function placeWaiting(neighbours: Neighbours, answeredAt: number): Placed {
	const { olderInstant, waiting } = neighbours;
	const instant = Math.max(answeredAt, olderInstant ?? answeredAt);
	const earliest = olderInstant ?? instant;
	return {
		neighbours: { ...neighbours, waiting: [] },
		placed: waiting.map((read) => ({ ...read, instant, earliest, readable: false })),
	};
}
