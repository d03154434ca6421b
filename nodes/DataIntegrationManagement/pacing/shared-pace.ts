/**
 * Concurrency Auto's pace (./controller.ts), one per base URL and key in this process, shared by
 * runs, the trigger and pickers: starts go in turn, open-ended requests first (docs/pacer.md).
 */
import { createHash } from 'node:crypto';

import {
	afterAnswer,
	afterRefusal,
	burstAfterEmpty,
	AUTO_MAX_CONCURRENCY,
	inFlightLimit,
	initialWindow,
	INITIAL_WINDOW,
	rebased,
	startInterval,
	withRoundTrip,
	type RoundTrips,
	type Window,
} from './controller';
import {
	AUTO_RETRY_AFTER_WAITS,
	monotonicClock,
	RETRY_AFTER_WAITS,
	startGate,
	STARTS_PER_TICK,
	type Clock,
	type Concurrency,
	type Pacer,
} from './pacer';

/** A pace unused this long is dropped, and at most MAX_PACES are kept (the least recent goes). */
export const IDLE_MS = 15 * 60_000;
export const MAX_PACES = 100;

/** A start that did not come before its deadline: the pace is taken by a run. */
export class PaceBusyError extends Error {}

/** One pace per service and key: what the runs using it share. */
export class SharedPace {
	window: Window;
	/** By kind of request (requestKind). */
	private readonly roundTrips = new Map<string, RoundTrips>();
	/** Items in flight, all runs together. */
	inFlight = 0;
	/** Runs joined and not yet left, the trigger's and pickers' requests among them. */
	private readonly runs = new Set<RunPace>();
	/** Starts waiting, in turn; open-ended ones before a run's items. */
	private readonly turns: Array<{ run: RunPace; go: () => void }> = [];
	lastUsedAt: number;
	/** When the next start may go. */
	private nextStartAt = -Infinity;
	/** Starts yet to go unpaced, of the burst a pace found empty lets go. */
	private unpaced = 0;
	/** When the window was last full: it is in use for requests sent before. */
	private fullAt = -Infinity;
	/** The smoothed round trip and its variation, ms (RFC 6298): what starts are paced over. */
	private smoothedMs?: number;
	private variationMs = 0;
	private readonly startsThisTick: () => Promise<void>;

	constructor(readonly clock: Clock = monotonicClock) {
		this.lastUsedAt = clock.now();
		this.window = initialWindow(this.lastUsedAt);
		this.startsThisTick = startGate(STARTS_PER_TICK, clock);
	}

	/** A run's concurrency and pacer: at most `max` in flight; `openEnded` goes before runs' items. */
	join(max = AUTO_MAX_CONCURRENCY, retryAfterWaits = AUTO_RETRY_AFTER_WAITS, openEnded = false) {
		const run = new RunPace(this, max, retryAfterWaits, openEnded);
		this.runs.add(run);
		return run;
	}

	/** Resolves when `run` may start one more, `left` its items not started; throws after `waitMs`. */
	async start(run: RunPace, left?: number, waitMs?: number): Promise<void> {
		if (left !== undefined) run.queued = left;
		const now = this.clock.now();
		if (!this.inFlight && !this.turns.length) {
			if (now - this.lastUsedAt > this.retransmissionTimeout) this.restart(now);
			this.unpaced = burstAfterEmpty(this.window);
		}
		await new Promise<void>((resolve, reject) => {
			const turn = { run, go: resolve };
			const at = run.openEnded ? this.turns.findIndex((other) => !other.run.openEnded) : -1;
			this.turns.splice(at < 0 ? this.turns.length : at, 0, turn);
			this.next();
			// A timer only for a turn that waits: most go at once, and a timer cannot be taken back.
			if (waitMs !== undefined && this.turns.includes(turn))
				void this.clock.sleep(waitMs).then(() => {
					if (!this.turns.includes(turn)) return;
					this.turns.splice(this.turns.indexOf(turn), 1);
					reject(new PaceBusyError());
				});
		});
		await this.startsThisTick();
	}

	/** Gives the first turn that may start a place, and its time: the window and the pace allow it. */
	private next(): void {
		const index = this.turns.findIndex(({ run }) => run.inFlight < run.max);
		if (index < 0 || this.atLimit) return;
		const [{ run, go }] = this.turns.splice(index, 1);
		const now = this.clock.now();
		run.inFlight++;
		if (run.queued !== undefined) run.queued--;
		this.inFlight++;
		this.lastUsedAt = now;
		if (this.atLimit) this.fullAt = now;
		// Starts are booked one interval apart (a burst's at once); a late one lets the next follow at once.
		const interval = this.unpaced > 0 ? 0 : startInterval(this.window, this.smoothedMs ?? 0);
		this.unpaced = Math.max(0, this.unpaced - 1);
		const at = Math.max(this.nextStartAt, now - interval);
		this.nextStartAt = at + interval;
		void (at - now >= 1 ? this.clock.sleep(at - now) : Promise.resolve()).then(go);
		this.next();
	}

	/** RFC 6298's retransmission timeout: an idle spell longer than it may have changed the service. */
	private get retransmissionTimeout(): number {
		return this.smoothedMs === undefined ? Infinity : this.smoothedMs + 4 * this.variationMs;
	}

	/** After an idle spell, as TCP restarts (RFC 5681, 4.1): slow start again, round trips afresh. */
	private restart(now: number): void {
		const { size, threshold, gain } = this.window;
		this.window = { ...initialWindow(now, Math.min(INITIAL_WINDOW, size)), threshold, gain };
		this.roundTrips.clear();
		this.smoothedMs = undefined;
	}

	get atLimit(): boolean {
		return this.inFlight >= inFlightLimit(this.window);
	}

	/** Whether the items yet to start, all runs together, fit in a second at the pace. */
	private get ending(): boolean {
		let left = 0;
		for (const run of this.runs) left += run.queued ?? Infinity;
		return left * startInterval(this.window, this.smoothedMs ?? 0) < 1000;
	}

	finish(run: RunPace, count = 1): void {
		const given = Math.min(count, run.inFlight);
		run.inFlight -= given;
		this.inFlight -= given;
		this.lastUsedAt = this.clock.now();
		this.next();
	}

	/** `run` is over: whatever it held is given back. */
	leave(run: RunPace): void {
		this.runs.delete(run);
		this.finish(run, run.inFlight);
	}

	answered(ms: number, kind: string): void {
		const now = this.clock.now();
		const smoothed = this.smoothedMs ?? ms;
		this.variationMs += (Math.abs(smoothed - ms) - this.variationMs) / 4;
		this.smoothedMs = smoothed + (ms - smoothed) / 8;
		const { trips, delays } = withRoundTrip(this.roundTrips.get(kind), ms);
		// In use: full at some time since the request left (Linux's cwnd-limited test).
		if (this.atLimit) this.fullAt = now;
		const inUse = this.fullAt >= now - ms;
		const answer = { now, sentAt: now - ms, delays, inUse, ending: this.ending };
		const { window, rebase } = afterAnswer(this.window, answer);
		this.window = window;
		this.roundTrips.set(kind, rebase ? rebased(trips) : trips);
		this.next();
	}

	/** A 429 or 503 after `ms`: the window goes down; a run's item waits off its place. */
	async refused(run: RunPace, waitMs: number, ms: number): Promise<void> {
		const now = this.clock.now();
		this.window = afterRefusal(this.window, now, now - ms, this.inFlight);
		if (run.openEnded) return await this.clock.sleep(waitMs);
		this.finish(run);
		await this.clock.sleep(waitMs);
		await this.start(run);
	}
}

/** One run's share of a pace: its own items in flight, up to its own Concurrency. */
export class RunPace implements Concurrency, Pacer {
	readonly limitsInFlight = true;
	inFlight = 0;
	/** Its items not started yet, as its router last said (the trigger and pickers say nothing). */
	queued: number | undefined;

	constructor(
		readonly shared: SharedPace,
		readonly max: number,
		readonly retryAfterWaits: number,
		readonly openEnded: boolean,
	) {}

	get full(): boolean {
		return this.inFlight >= this.max || this.shared.atLimit;
	}

	start = async (left?: number, waitMs?: number): Promise<void> =>
		await this.shared.start(this, left, waitMs);
	finish = (): void => this.shared.finish(this);
	leave = (): void => this.shared.leave(this);
	answered = (ms: number, kind: string): void => this.shared.answered(ms, kind);
	rateLimited = async (waitMs: number, ms: number) => await this.shared.refused(this, waitMs, ms);
	overloaded = async (waitMs: number, ms: number) => await this.shared.refused(this, waitMs, ms);
}

/** The longest a request without a deadline (a picker's) waits for its turn while runs use the pace. */
export const OPEN_ENDED_WAIT_MS = 4000;

/**
 * A turn before runs' items for a request without a run (a poll's page, a picker's), by `deadline`
 * (epoch ms, as `now`) or OPEN_ENDED_WAIT_MS, or it rejects. A tool's call joins as a run of its own.
 */
export async function openEndedTurn(pace: SharedPace, deadline?: number, now = Date.now()) {
	const turn = pace.join(1, RETRY_AFTER_WAITS, true);
	await turn.start(undefined, (deadline ?? now + OPEN_ENDED_WAIT_MS) - now).catch((error) => {
		turn.leave();
		throw error;
	});
	return turn;
}

/** The paces of one process, by key: bounded, idle ones dropped. */
export class PaceRegistry {
	private readonly paces = new Map<string, SharedPace>();

	constructor(private readonly clock: Clock = monotonicClock) {}

	get size(): number {
		return this.paces.size;
	}

	/** Forgets every pace: the next run of each key starts afresh. */
	clear(): void {
		this.paces.clear();
	}

	/** The pace for `key`, made when missing. */
	pace(key: string): SharedPace {
		const now = this.clock.now();
		for (const [other, pace] of this.paces)
			if (pace.inFlight === 0 && now - pace.lastUsedAt > IDLE_MS) this.paces.delete(other);
		const pace = this.paces.get(key) ?? new SharedPace(this.clock);
		this.paces.delete(key); // kept in order of use
		this.paces.set(key, pace);
		if (this.paces.size > MAX_PACES) this.paces.delete(this.paces.keys().next().value!);
		return pace;
	}
}

export const processPaces = new PaceRegistry();

/** What a pace is kept under: a SHA-256 digest of the base URL and key, never the key itself. */
export function paceKey(baseUrl: string, apiKey: string): string {
	return createHash('sha256').update(`${baseUrl}\n${apiKey}`).digest('hex');
}

/** This process's pace for the service at `baseUrl` and `apiKey`. */
export const paceOf = (baseUrl: string, apiKey: string): SharedPace =>
	processPaces.pace(paceKey(baseUrl, apiKey));
