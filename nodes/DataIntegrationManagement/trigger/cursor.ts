import type { PlacedEntry } from '../client/auditLog';
import type { AuditLogEntry } from '../client/types';
import { isObject } from '../shared/checks';
import { parseInstant, toUtcIso } from '../shared/timestamps';

/**
 * The trigger's memory between polls, and what is new, pure: an entry at or after the floor,
 * inside the horizon (`lookback` behind the newest timestamp processed), not remembered. Only the
 * keys inside the horizon are remembered, so the state stays as small as the lookback window.
 */
export interface CursorState {
	/** What this cursor was started from ("now" or "date:<ISO>"); a different start resets it. */
	origin: string;
	/** UTC ISO: nothing before it is emitted; it rises to the horizon, as keys before it go. */
	floor: string;
	/** UTC ISO: the newest timestamp processed (emitted or skipped by the filters). */
	cursor: string;
	/** Entries processed at or after the floor (by `auditEntryKey`), with their instants in epoch ms. */
	seen: Record<string, number>;
}

/** A cursor at `start`, remembering the entries (by `auditEntryKey`) already there at that instant. */
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
		seen: Object.fromEntries(seenAtStart.map((key) => [key, start])),
	};
}

/** The stored state if it is one this trigger wrote for the same start, else undefined. */
export function restoreState(stored: unknown, origin: string): CursorState | undefined {
	const state = stored as Partial<CursorState> | undefined;
	if (
		!isObject(state) ||
		state.origin !== origin ||
		parseInstant(state.floor) === undefined ||
		parseInstant(state.cursor) === undefined ||
		!isObject(state.seen) ||
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

/** Where an entry was placed when read (see `PlacedEntry`). */
type Placed = Pick<PlacedEntry, 'instant' | 'readable'>;

/**
 * Until when an entry taken in is remembered: its instant; unreadable (neighbours logged meanwhile
 * move it), the latest place it was given, and no earlier than the service's answer.
 */
export function rememberedUntil(
	remembered: number | undefined,
	{ instant, readable }: Placed,
	answeredAt: number,
): number {
	if (readable) return remembered ?? instant;
	return Math.max(remembered ?? answeredAt, instant);
}

/**
 * The newest timestamp processed, moved by readable ones, no further than `until`: the service's
 * now, or, paged by time, the newest entry it had when that began.
 */
export function cursorAfter(newest: number, { instant, readable }: Placed, until: number): number {
	return readable ? Math.max(newest, Math.min(instant, until)) : newest;
}

/** One poll's pass over the pages, oldest first. */
export class CursorScan {
	readonly emitted: AuditLogEntry[] = [];
	/** Entries new to the cursor that this scan took in, matching the filters or not. */
	takenIn = 0;

	private floor: number;

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
	 * Takes one page (oldest first) in, up to the cap; whether to read on. The cursor moves no
	 * further than `settledUntil` (see `ScannedPage`); a page that shifted never comes here.
	 */
	absorb(page: PlacedEntry[], answeredAt: number, settledUntil = answeredAt): boolean {
		for (const read of page) {
			if (this.full) break;
			this.take(read, answeredAt, settledUntil);
		}
		this.forgetBeforeHorizon();
		return !this.full;
	}

	private take(read: PlacedEntry, answeredAt: number, settledUntil: number): void {
		const { key } = read;
		if (read.instant < this.horizon) return;
		const remembered = this.seen.get(key);
		this.seen.set(key, rememberedUntil(remembered, read, answeredAt));
		if (remembered !== undefined) return;
		this.takenIn++;
		this.newest = cursorAfter(this.newest, read, settledUntil);
		if (this.settings.matches(read.entry)) this.emitted.push(read.entry);
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

	/** Forgets the keys before the horizon, and raises the floor to it so they stay forgotten. */
	private forgetBeforeHorizon(): void {
		this.floor = this.horizon;
		for (const [id, instant] of this.seen) if (instant < this.floor) this.seen.delete(id);
	}
}
