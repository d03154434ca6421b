/**
 * How the requests of one run are spaced: how many items the router keeps in flight, how each
 * request's answer is reported, and how long a 429 is waited out before the request is sent
 * again. The router makes one pacer per run (Concurrency Fixed here, Auto in ./shared-pace.ts)
 * and hands it down (operation -> client -> transport) with each request. Time comes from a
 * `Clock`, so a simulation can run it on a fake one.
 */
import { sleep } from 'n8n-workflow';

export { AUTO_START } from './aimd';

/** Where the pacer reads the time and waits. */
export interface Clock {
	/** Epoch ms. */
	now(): number;
	sleep(ms: number): Promise<void>;
}

export const systemClock: Clock = { now: () => Date.now(), sleep: async (ms) => await sleep(ms) };

/**
 * For what only measures spans (the shared pace): ms that only go forward, so a wall clock set
 * back (NTP, a resumed machine) cannot book starts far ahead.
 */
export const monotonicClock: Clock = { now: () => performance.now(), sleep: systemClock.sleep };

/** What paces the requests of one run: told of each answer, waits out 429s and 503s. */
export interface Pacer {
	/** How many 429s or 503s with Retry-After one request may wait out before its error is reported. */
	readonly retryAfterWaits: number;
	/** Whether a 503 cuts what is in flight (Auto): the first one is then sent again in its turn. */
	readonly limitsInFlight: boolean;
	/** A request of `kind` (./overload.ts, requestKind) was answered (not 429 or 503) after `ms`. */
	answered(ms: number, kind: string): void;
	/** Resolves when the request answered 429 after `ms` may be sent again, `waitMs` from now. */
	rateLimited(waitMs: number, ms: number): Promise<void>;
	/** As `rateLimited`, for a 503: the service was overloaded and did not act on the request. */
	overloaded(waitMs: number, ms: number): Promise<void>;
}

/** How often a 429 or 503 with Retry-After is waited out before the error is reported. */
export const RETRY_AFTER_WAITS = 3;
/**
 * Under Concurrency Auto a 429 or 503 with Retry-After means "slower", not "failed": a request
 * waits out this many (each one lowering the pace) before its error is reported.
 */
export const AUTO_RETRY_AFTER_WAITS = 10;
/** The longest Retry-After we honour; a longer wait is reported as an error instead. */
export const MAX_RETRY_AFTER_SECONDS = 60;

/** Concurrency Fixed: each 429 and 503 waited out plainly, the pace left as it is. */
export const plainPacer: Pacer = {
	retryAfterWaits: RETRY_AFTER_WAITS,
	limitsInFlight: false,
	answered: () => {},
	rateLimited: async (waitMs) => await systemClock.sleep(waitMs),
	overloaded: async (waitMs) => await systemClock.sleep(waitMs),
};

/**
 * A 429 or 503 without Retry-After is sent again after a capped exponential backoff with full jitter
 * (Marc Brooker, "Exponential Backoff And Jitter", AWS Architecture Blog, 2015): the n-th wait
 * (from 0) is a random time up to min(BACKOFF_CAP_MS, BACKOFF_FIRST_MS x 2^n), at most
 * BACKOFF_RETRIES times. So a request waits at most 1 + 2 + 4 + 8 + 8 = 23 s in all, and never
 * past its caller's deadline. The jitter keeps items refused together from coming back together.
 */
export const BACKOFF_FIRST_MS = 1000;
export const BACKOFF_CAP_MS = 8000;
export const BACKOFF_RETRIES = 5;

/** The longest a request waits out 429s or 503s without Retry-After, in all: 23 s. */
export const BACKOFF_MAX_TOTAL_MS = Array.from({ length: BACKOFF_RETRIES }, (_, retry) =>
	Math.min(BACKOFF_CAP_MS, BACKOFF_FIRST_MS * 2 ** retry),
).reduce((sum, ms) => sum + ms, 0);

/**
 * How long to wait before sending again a request whose `retries`+1-th answer was `failure` (a 429
 * or 503, with Retry-After when it said), or undefined when its error is to be reported. Both say
 * the service did not act on the request, so a write too may be sent again. `random` gives
 * numbers in [0, 1).
 */
export function retryWaitMs(
	failure: { status?: number; retryAfterSeconds?: number },
	retries: number,
	pacer: Pacer,
	random: () => number = Math.random,
): number | undefined {
	const { retryAfterSeconds } = failure;
	if (retryAfterSeconds === undefined) {
		if (retries >= BACKOFF_RETRIES) return undefined;
		// The limit was cut for it: the first 503 waits only for its turn.
		if (pacer.limitsInFlight && failure.status === 503 && retries === 0) return 0;
		return random() * Math.min(BACKOFF_CAP_MS, BACKOFF_FIRST_MS * 2 ** retries);
	}
	if (retryAfterSeconds > MAX_RETRY_AFTER_SECONDS || retries >= pacer.retryAfterWaits)
		return undefined;
	return retryAfterSeconds * 1000;
}

/** How many items the router keeps in flight: it asks `start()` before each item, `finish()` after. */
export interface Concurrency {
	/**
	 * Resolves when one more item may start. `left`: the run's items not started yet, this one
	 * included.
	 */
	start(left?: number): Promise<void>;
	/** An item that started is done. */
	finish(): void;
	/** The run is over (done, failed or cancelled): whatever it still holds is given back. */
	leave?(): void;
	/** No slot is free: a start now waits for an item in flight to end. */
	readonly full?: boolean;
}

/**
 * Items in flight whose answers arrive in one turn of the event loop would all start their next
 * items in that turn, and n8n sends those requests together: the items fall into lockstep, the
 * loop busy with all their answers at once, then idle while all of them wait on the API
 * (measured by `npm run bench`: concurrency 32 took a third longer that way). So at most this
 * many items start per tick of the timers.
 */
export const STARTS_PER_TICK = 2;

/** A turnstile letting `perTick` callers through per tick of the timers. */
export function startGate(perTick: number, clock: Clock): () => Promise<void> {
	let started = 0;
	let tick: Promise<void> | undefined;
	return async () => {
		while (started >= perTick) {
			tick ??= clock.sleep(0).then(() => {
				started = 0;
				tick = undefined;
			});
			await tick;
		}
		started++;
	};
}

/** Callers waiting for a slot, woken when one may be free. */
export class Waiters {
	private waiting: Array<() => void> = [];

	async wait(): Promise<void> {
		await new Promise<void>((resolve) => this.waiting.push(resolve));
	}

	wakeAll(): void {
		const waiting = this.waiting;
		this.waiting = [];
		for (const wake of waiting) wake();
	}
}

/** Up to `limit` items in flight; a 429 is waited out in the item's slot, as the transport does. */
export class FixedConcurrency implements Concurrency {
	private inFlight = 0;
	private readonly waiters = new Waiters();
	private readonly gate: (() => Promise<void>) | undefined;

	constructor(
		private readonly limit: number,
		clock: Clock = systemClock,
	) {
		this.gate = limit > 1 ? startGate(STARTS_PER_TICK, clock) : undefined;
	}

	get full(): boolean {
		return this.inFlight >= this.limit;
	}

	async start(): Promise<void> {
		while (this.full) await this.waiters.wait();
		this.inFlight++;
		await this.gate?.();
	}

	finish(): void {
		this.inFlight--;
		this.waiters.wakeAll();
	}
}
