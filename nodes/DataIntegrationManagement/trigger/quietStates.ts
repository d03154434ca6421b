import type { CursorState } from './cursor';

/**
 * What a poll stored without emitting, kept in the n8n process for the next poll of the same
 * activation: n8n's durable scheduler without durable poll cursors keeps a poll's static data only
 * when it emits, and with them drops the start the poll on publishing records
 * (docs/n8n-schedulers.md, "What the process keeps"). Bounded, and pure but for the clock it is given.
 */

/** What one poll of a trigger (by workflow and node) left, and what it was left for. */
export interface QuietState {
	/** The credential's fingerprint (`credentialFingerprint`): which service and key. */
	credential: string;
	/** The start the cursor was made for (`CursorState.origin`). */
	origin: string;
	/** The stored state, as JSON, that the poll read. */
	read: string;
	/** The state the poll stored, which n8n may not have kept. */
	state: CursorState;
}

/** What a poll brings when it asks for the state to go on from. */
export interface PollAsking extends Omit<QuietState, 'state'> {
	/** The poll starts an activation (publishing, n8n starting): it goes on from nothing kept here. */
	startsActivation: boolean;
}

/** At most this many triggers' states: an n8n instance rarely runs as many of this package's. */
export const MAX_QUIET_STATES = 500;
/** A state no poll asked for within a day is dropped: its workflow is most likely gone. */
export const QUIET_STATE_MAX_AGE_MS = 24 * 60 * 60 * 1000;

export class QuietStates {
	/** By workflow and node, least recently used first. */
	private readonly states = new Map<string, QuietState & { usedAt: number }>();

	constructor(
		private readonly limits = { count: MAX_QUIET_STATES, ageMs: QUIET_STATE_MAX_AGE_MS },
		private readonly now: () => number = Date.now,
	) {}

	get size(): number {
		return this.states.size;
	}

	/**
	 * The state to go on from: what the last quiet poll of `key` stored, if the stored state is
	 * still the one it read, for the same credential and start, and this poll starts no
	 * activation. Anything else makes it stale: it is dropped.
	 */
	resume(key: string, poll: PollAsking): CursorState | undefined {
		this.dropAged();
		const quiet = this.states.get(key);
		if (!quiet) return undefined;
		const same =
			!poll.startsActivation &&
			quiet.read === poll.read &&
			quiet.credential === poll.credential &&
			quiet.origin === poll.origin;
		this.states.delete(key);
		if (!same) return undefined;
		this.states.set(key, { ...quiet, usedAt: this.now() });
		return quiet.state;
	}

	/** Keeps what a poll stored without emitting, dropping the least recently used beyond the bound. */
	remember(key: string, quiet: QuietState): void {
		this.dropAged();
		this.states.delete(key);
		this.states.set(key, { ...quiet, usedAt: this.now() });
		for (const oldest of this.states.keys()) {
			if (this.states.size <= this.limits.count) break;
			this.states.delete(oldest);
		}
	}

	/** Drops the states no poll asked for within the age limit (the least recently used come first). */
	private dropAged(): void {
		const limit = this.now() - this.limits.ageMs;
		for (const [key, { usedAt }] of this.states) {
			if (usedAt >= limit) break;
			this.states.delete(key);
		}
	}
}
