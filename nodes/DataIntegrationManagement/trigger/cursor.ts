import type { AuditLogEntry } from '../api';
import { parseInstant, toUtcIso } from '../timestamps';

/**
 * The trigger's memory between polls, and the pure logic that decides what is new. Nothing here
 * does I/O: a poll feeds pages in, then takes out what to emit and the next state.
 *
 * What is new: an entry at or after the floor (the start the user chose), inside the horizon
 * (`lookback` behind the newest timestamp processed so far), whose id is not remembered. The
 * remembered ids are exactly those inside the horizon, so the state stays as small as the
 * lookback window, whatever the backlog.
 */
export interface CursorState {
	/** What this cursor was started from ("now" or "date:<ISO>"); a different start resets it. */
	origin: string;
	/** UTC ISO: entries before this instant are never emitted. */
	floor: string;
	/** UTC ISO: the newest timestamp processed (emitted or skipped by the filters). */
	cursor: string;
	/** Ids processed inside the horizon, with their instants in epoch ms. */
	seen: Record<string, number>;
}

export function initialState(origin: string, start: number): CursorState {
	const iso = toUtcIso(start);
	return { origin, floor: iso, cursor: iso, seen: {} };
}

/** The stored state if it is one this trigger wrote for the same start, else undefined. */
export function restoreState(stored: unknown, origin: string): CursorState | undefined {
	const state = stored as Partial<CursorState> | undefined;
	if (
		!state ||
		state.origin !== origin ||
		parseInstant(state.floor) === undefined ||
		parseInstant(state.cursor) === undefined ||
		typeof state.seen !== 'object' ||
		state.seen === null
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

	private readonly floor: number;

	private newest: number;

	private readonly seen: Map<string, number>;

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
	 */
	absorb(page: AuditLogEntry[]): boolean {
		for (const entry of page) {
			if (this.full) break;
			// An unreadable timestamp is placed at the cursor, so the entry is still emitted once.
			const instant = parseInstant(entry.timestamp) ?? this.newest;
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

	private forgetBeforeHorizon(): void {
		const horizon = this.horizon;
		for (const [id, instant] of this.seen) {
			if (instant < horizon) this.seen.delete(id);
		}
	}
}
