/**
 * Concurrency Auto's pace (./aimd.ts) and limit (./overload.ts), one per base URL and key in this
 * n8n process, shared by the action node's runs under Auto and each request of the trigger and
 * the pickers: runs at once share it first come, first served; a run that finds no other
 * measures the limit afresh. Each run keeps its own items and cap (docs/pacer.md).
 */
import { createHash } from 'node:crypto';
import type { IExecuteFunctions } from 'n8n-workflow';

import {
	afterAnswer,
	afterRateLimit,
	AUTO_START,
	deliveredRate,
	DELIVERY_WINDOW_MS,
	initialPace,
	mayGrow,
	mayStart,
	startInterval,
	type PaceState,
} from './aimd';
import { baseUrlOf, CREDENTIAL_TYPE, type ServiceCredentials } from './credential';
import {
	afterAnswered,
	afterOverload,
	AUTO_MAX_CONCURRENCY,
	initialLimit,
	rebased,
	withRoundTrip,
	type LimitState,
	type RoundTrips,
} from './overload';
import {
	AUTO_RETRY_AFTER_WAITS,
	monotonicClock,
	startGate,
	STARTS_PER_TICK,
	Waiters,
	type Clock,
	type Concurrency,
	type Pacer,
} from './pacer';

/** A pace unused this long is dropped, and at most MAX_PACES are kept (the least recent goes). */
export const IDLE_MS = 15 * 60_000;
export const MAX_PACES = 100;

/** One pace per service and key: what the runs using it share. */
export class SharedPace {
	state: PaceState = initialPace();
	limit: LimitState = initialLimit(AUTO_START);
	/** By kind of request (requestKind). */
	private readonly roundTrips = new Map<string, RoundTrips>();
	/** Items in flight, and not started yet (as each router last said), all runs together. */
	inFlight = 0;
	queued = 0;
	/** In flight for runs that say nothing of what is left (the trigger, a picker). */
	openEnded = 0;
	/** Runs joined and not yet left, the trigger's and pickers' requests among them. */
	private readonly runs = new Set<RunPace>();
	lastUsedAt: number;
	private nextStartAt = -Infinity;
	/** When the limit was last full: it is in use for requests sent before. */
	private fullAt = -Infinity;
	/** What got through is counted from here: slow start's end, or the last idle spell's. */
	private measuredFrom = -Infinity;
	private answeredAt: number[] = [];
	/** The last round trip, ms: what a holding window's starts are spread over. */
	private roundTripMs = 0;
	private readonly waiters = new Waiters();
	private readonly startsThisTick: () => Promise<void>;

	constructor(readonly clock: Clock = monotonicClock) {
		this.lastUsedAt = clock.now();
		this.startsThisTick = startGate(STARTS_PER_TICK, clock);
	}

	/**
	 * A run's concurrency and pacer: at most `max` of its items in flight. A pace no run uses is
	 * measured afresh, as TCP restarts after idle (RFC 5681, 4.1): the limit in slow start, never
	 * above the one learned; no round trips; a rate no 429 has set.
	 */
	join(max = AUTO_MAX_CONCURRENCY, retryAfterWaits = AUTO_RETRY_AFTER_WAITS): RunPace {
		if (this.runs.size === 0) {
			this.limit = initialLimit(Math.min(AUTO_START, this.limit.limit));
			this.roundTrips.clear();
			if (this.state.phase === 'slowStart') this.state = initialPace();
		}
		const run = new RunPace(this, max, retryAfterWaits);
		this.runs.add(run);
		return run;
	}

	async start(run: RunPace, left?: number): Promise<void> {
		if (left !== undefined) this.queue(run, left);
		while (!this.mayStart(run)) await this.waiters.wait();
		if (left !== undefined) this.queue(run, left - 1);
		if (run.queued === undefined) this.openEnded++;
		const now = this.clock.now();
		// A new busy spell: what got through before it says nothing of the rate now.
		if (this.inFlight === 0 && now - this.lastUsedAt > DELIVERY_WINDOW_MS) this.measuredFrom = now;
		run.inFlight++;
		this.inFlight++;
		this.lastUsedAt = now;
		if (this.atLimit) this.fullAt = now;
		// Starts are booked one interval apart; a late one lets the next follow at once.
		const interval = startInterval(this.state, this.roundTripMs);
		const at = Math.max(this.nextStartAt, now - interval);
		this.nextStartAt = at + interval;
		if (at - now >= 1) await this.clock.sleep(at - now);
		await this.startsThisTick();
	}

	/** Whether one more item of `run` may start now. */
	mayStart(run: RunPace): boolean {
		return run.inFlight < run.max && !this.atLimit && mayStart(this.state, this.inFlight);
	}

	/** As many in flight as the limit allows. */
	private get atLimit(): boolean {
		return this.inFlight >= Math.floor(this.limit.limit);
	}

	/** `run` has `count` items not started yet. */
	private queue(run: RunPace, count: number): void {
		this.queued += count - (run.queued ?? 0);
		run.queued = count;
	}

	finish(run: RunPace, count = 1): void {
		const given = Math.min(count, run.inFlight);
		if (run.queued === undefined) this.openEnded -= given;
		run.inFlight -= given;
		this.inFlight -= given;
		this.lastUsedAt = this.clock.now();
		this.waiters.wakeAll();
	}

	/** `run` is over: whatever it held is given back. */
	leave(run: RunPace): void {
		this.finish(run, run.inFlight);
		this.queue(run, 0);
		this.runs.delete(run);
	}

	answered(ms: number, kind: string): void {
		const now = this.clock.now();
		this.roundTripMs = ms;
		const { trips, delays } = withRoundTrip(this.roundTrips.get(kind), ms);
		// In use: full at some time since the request left (Linux's cwnd-limited test).
		if (this.atLimit) this.fullAt = now;
		const inUse = this.fullAt >= now - ms;
		const { state, rebase } = afterAnswered(this.limit, { now, sentAt: now - ms, delays, inUse });
		this.limit = state;
		this.roundTrips.set(kind, rebase ? rebased(trips) : trips);
		this.state = afterAnswer(
			this.state,
			now,
			mayGrow(this.state, this.nextStartAt > now, this.openEnded ? Infinity : this.queued),
		);
		this.answeredAt.push(now);
		while (this.answeredAt[0] <= now - DELIVERY_WINDOW_MS) this.answeredAt.shift();
		this.waiters.wakeAll();
	}

	async rateLimited(run: RunPace, waitMs: number, ms: number): Promise<void> {
		const now = this.clock.now();
		const delivered = deliveredRate(this.answeredAt, now, this.measuredFrom);
		const before = this.state;
		this.state = afterRateLimit(this.state, now, now - ms, delivered);
		if (before.phase === 'slowStart' && this.state !== before) this.measuredFrom = now;
		await this.waitOff(run, waitMs);
	}

	/** A 503 after `ms`: a sign of overload; the request waits `waitMs` off its slot. */
	async overloaded(run: RunPace, waitMs: number, ms: number): Promise<void> {
		const now = this.clock.now();
		this.limit = afterOverload(this.limit, now, now - ms);
		await this.waitOff(run, waitMs);
	}

	/** The request gives its slot back while it waits. */
	private async waitOff(run: RunPace, waitMs: number): Promise<void> {
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
	) {}

	get full(): boolean {
		return !this.shared.mayStart(this);
	}

	// What the run asks of its pace, with itself as the run.
	start = async (left?: number): Promise<void> => await this.shared.start(this, left);
	finish = (): void => this.shared.finish(this);
	leave = (): void => this.shared.leave(this);
	answered = (ms: number, kind: string): void => this.shared.answered(ms, kind);
	rateLimited = async (waitMs: number, ms: number): Promise<void> =>
		await this.shared.rateLimited(this, waitMs, ms);
	overloaded = async (waitMs: number, ms: number): Promise<void> =>
		await this.shared.overloaded(this, waitMs, ms);
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

/** This n8n process's paces. */
export const processPaces = new PaceRegistry();

/** What a pace is kept under: a SHA-256 digest of the base URL and key, never the key itself. */
export function paceKey(baseUrl: string, apiKey: string): string {
	return createHash('sha256').update(`${baseUrl}\n${apiKey}`).digest('hex');
}

/** This process's pace for the service and key of `credentials`. */
export const paceOf = (credentials: ServiceCredentials): SharedPace =>
	processPaces.pace(paceKey(baseUrlOf(credentials), String(credentials.apiKey)));

/**
 * Concurrency Auto for one run of `context`, up to `max` items in flight, sharing the pace of
 * its credential. Without a readable credential it paces alone; its requests then fail as usual.
 */
export async function autoConcurrency(
	context: IExecuteFunctions,
	max = AUTO_MAX_CONCURRENCY,
): Promise<RunPace> {
	const credentials = await context
		.getCredentials<ServiceCredentials>(CREDENTIAL_TYPE)
		.catch(() => undefined);
	return (credentials ? paceOf(credentials) : new SharedPace()).join(max);
}
