/**
 * How one run's requests are spaced: what is in flight, and how 429s and 503s are waited out
 * (Concurrency Fixed here, Auto in ./shared-pace.ts). Time is a `Clock`, a simulation's fake one.
 */
import { sleep } from 'n8n-workflow';

export interface Clock {
	now(): number;
	sleep(ms: number): Promise<void>;
}

export const systemClock: Clock = { now: () => Date.now(), sleep: async (ms) => await sleep(ms) };

/** For spans (the shared pace): a wall clock set back cannot book starts far ahead. */
export const monotonicClock: Clock = { now: () => performance.now(), sleep: systemClock.sleep };

/** What paces the requests of one run: told of each answer, waits out 429s and 503s. */
export interface Pacer {
	/** How many 429s or 503s with Retry-After a request waits out before its error. */
	readonly retryAfterWaits: number;
	/** Whether a 503 cuts what is in flight (Auto): the first one is then sent again in its turn. */
	readonly limitsInFlight: boolean;
	/** The most of the run's items in flight; over 1, a 429's or 503's error says to lower it. */
	readonly max: number;
	/** A request of `kind` (requestKind) was answered without an error status, after `ms`. */
	answered(ms: number, kind: string): void;
	/** Resolves when a request answered 429 (503) after `ms` may go again, `waitMs` from now. */
	rateLimited(waitMs: number, ms: number): Promise<void>;
	overloaded(waitMs: number, ms: number): Promise<void>;
}

/** How many 429s or 503s with Retry-After a request waits out; under Auto, which slows for each. */
export const RETRY_AFTER_WAITS = 3;
export const AUTO_RETRY_AFTER_WAITS = 10;
/** The longest Retry-After honoured; a longer one is reported as an error. */
export const MAX_RETRY_AFTER_SECONDS = 60;

/** Concurrency Fixed: each 429 and 503 waited out plainly, the pace left as it is. */
export const plainPacer: Pacer = {
	retryAfterWaits: RETRY_AFTER_WAITS,
	limitsInFlight: false,
	max: 1,
	answered: () => {},
	rateLimited: async (waitMs) => await systemClock.sleep(waitMs),
	overloaded: async (waitMs) => await systemClock.sleep(waitMs),
};

/** Without Retry-After, capped exponential backoff with full jitter (Brooker, AWS, 2015). */
export const BACKOFF_FIRST_MS = 1000;
export const BACKOFF_CAP_MS = 8000;
export const BACKOFF_RETRIES = 5;

/** The longest a request waits out 429s or 503s without Retry-After, in all: 23 s. */
export const BACKOFF_MAX_TOTAL_MS = Array.from({ length: BACKOFF_RETRIES }, (_, retry) =>
	Math.min(BACKOFF_CAP_MS, BACKOFF_FIRST_MS * 2 ** retry),
).reduce((sum, ms) => sum + ms, 0);

/**
 * The wait before a request whose `retries`+1-th answer was `failure` (429 or 503: the service did
 * not act, so a write too goes again) is sent again; undefined: its error is reported.
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

/** How many items the router keeps in flight: `start()` before each item, `finish()` after. */
export interface Concurrency {
	/** Resolves when one more item may start; `left`: the run's items not started, this one too. */
	start(left?: number): Promise<void>;
	finish(): void;
	/** The run is over, however: what it holds is given back. */
	leave?(): void;
	/** No slot is free: a start now waits. */
	readonly full?: boolean;
	/** The most in flight at once. */
	readonly max: number;
}

/** Items started per timer tick, so answers handled together do not start theirs in lockstep. */
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
