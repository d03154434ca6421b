import type { AuditLogEntry } from '../client/types';
import { parseInstant, toUtcIso } from '../shared/timestamps';

/**
 * The trigger's memory between polls, and the pure logic that decides what is new. Nothing here
 * does I/O: a poll feeds pages in, then takes out what to emit and the next state.
 *
 * What is new: an entry at or after the floor, inside the horizon (`lookback` behind the newest
 * timestamp processed so far), whose id is not remembered. The remembered ids are exactly those
 * inside the horizon, so the state stays as small as the lookback window, whatever the backlog.
 */
export interface CursorState {
	/** What this cursor was started from ("now" or "date:<ISO>"); a different start resets it. */
	origin: string;
	/**
	 * UTC ISO: entries before this instant are never emitted. It starts at the start the user
	 * chose and rises to the horizon on every store, because ids before the horizon are forgotten:
	 * a later, larger lookback must not read them again as new.
	 */
	floor: string;
	/** UTC ISO: the newest timestamp processed (emitted or skipped by the filters). */
	cursor: string;
	/** Ids processed at or after the floor, with their instants in epoch ms. */
	seen: Record<string, number>;
}

/** A cursor at `start`, remembering the ids of entries already there at that instant. */
export function initialState(
	origin: string,
	start: number,
	seenAtStart: string[] = [],
): CursorState {
	const iso = toUtcIso(start);
	return {
		origin,
		floor: iso,
		cursor: iso,
		seen: Object.fromEntries(seenAtStart.map((id) => [id, start])),
	};
}

/** The stored state if it is one this trigger wrote for the same start, else undefined. */
export function restoreState(stored: unknown, origin: string): CursorState | undefined {
	const state = stored as Partial<CursorState> | undefined;
	if (
		typeof state !== 'object' ||
		state === null ||
		state.origin !== origin ||
		parseInstant(state.floor) === undefined ||
		parseInstant(state.cursor) === undefined ||
		typeof state.seen !== 'object' ||
		state.seen === null ||
		Array.isArray(state.seen) ||
		!Object.values(state.seen).every(Number.isFinite)
	) {
		return undefined;
	}
	return state as CursorState;
}

export interface ScanSettings {
	lookbackMs: number;
	/** The most entries one poll emits. */
	maxEmitted: number;
	/** Entries that fail this are not emitted, but still move the cursor. */
	matches: (entry: AuditLogEntry) => boolean;
}

/** One poll's pass over the pages, oldest first. */
export class CursorScan {
	readonly emitted: AuditLogEntry[] = [];

	private floor: number;

	private newest: number;

	private readonly seen: Map<string, number>;

	/** Ids read by this scan inside the horizon, to notice pages that shifted under it (see `absorb`). */
	private readonly readByThisScan = new Map<string, number>();

	constructor(
		state: CursorState,
		private readonly settings: ScanSettings,
	) {
		this.floor = parseInstant(state.floor)!;
		this.newest = parseInstant(state.cursor)!;
		this.seen = new Map(Object.entries(state.seen));
	}

	/** The earliest instant a new entry can have; the poll asks the API from here. */
	get horizon(): number {
		return Math.max(this.floor, this.newest - this.settings.lookbackMs);
	}

	get full(): boolean {
		return this.emitted.length >= this.settings.maxEmitted;
	}

	/**
	 * Takes one page (sorted oldest first) in; returns whether to read the next page. Stops
	 * part-way through a page when the cap is reached: the entries after that point are left
	 * unprocessed, and the next poll starts from them.
	 *
	 * Pages are read by offset, so an entry that appears during the scan with a timestamp before
	 * the read position pushes entries already read onto the next page, and is itself never read
	 * by this scan. Taking in the rest of the scan could then move the cursor more than the
	 * lookback past it, and it would be lost. So a page that repeats an entry this scan has read
	 * ends the scan without being taken in; the next poll reads again from the cursor, less the
	 * lookback, and finds it there.
	 */
	absorb(page: AuditLogEntry[]): boolean {
		if (page.some((entry) => this.readByThisScan.has(entry.id))) return false;
		for (const entry of page) {
			if (this.full) break;
			// An unreadable timestamp is placed at the cursor, so the entry is still emitted once.
			const instant = parseInstant(entry.timestamp) ?? this.newest;
			this.readByThisScan.set(entry.id, instant);
			if (instant < this.horizon || this.seen.has(entry.id)) continue;
			this.seen.set(entry.id, instant);
			if (instant > this.newest) this.newest = instant;
			if (this.settings.matches(entry)) this.emitted.push(entry);
		}
		this.forgetBeforeHorizon();
		return !this.full;
	}

	/** The state to store once the emitted entries are handed to n8n. */
	nextState(origin: string): CursorState {
		this.forgetBeforeHorizon();
		return {
			origin,
			floor: toUtcIso(this.floor),
			cursor: toUtcIso(this.newest),
			seen: Object.fromEntries(this.seen),
		};
	}

	/**
	 * Forgets the ids before the horizon, and raises the floor to it so they stay forgotten. What
	 * a scan holds thus grows with the lookback window and the emitted entries, not the backlog.
	 */
	private forgetBeforeHorizon(): void {
		this.floor = this.horizon;
		for (const ids of [this.seen, this.readByThisScan]) {
			for (const [id, instant] of ids) {
				if (instant < this.floor) ids.delete(id);
			}
		}
	}
}
