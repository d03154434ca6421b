/**
 * How the requests of one run are spaced: how many items the router keeps in flight, how each
 * request's answer is reported, and how long a 429 is waited out before the request is sent
 * again. The router makes one pacer per run and hands it down (operation -> client -> transport)
 * with each request. Time comes from a `Clock`, so a simulation can run it on a fake one.
 */
import { sleep } from 'n8n-workflow';

/** Where the pacer reads the time and waits. */
export interface Clock {
	/** Epoch ms. */
	now(): number;
	sleep(ms: number): Promise<void>;
}

export const systemClock: Clock = { now: () => Date.now(), sleep: async (ms) => await sleep(ms) };

/** What paces the requests of one run: told how long each answer took, waits out 429s. */
export interface Pacer {
	/** How many 429s with Retry-After one request may wait out before its error is reported. */
	readonly rateLimitRetries: number;
	/** A request was answered (not 429) after `ms`. */
	answered(ms: number): void;
	/** Resolves when the request answered 429 after `ms` may be sent again, `waitMs` from now. */
	rateLimited(waitMs: number, ms: number): Promise<void>;
}

/** How often a 429 answer with Retry-After is waited out before the error is reported. */
const RATE_LIMIT_RETRIES = 3;
/** The longest Retry-After we honour; a longer wait is reported as an error instead. */
export const MAX_RETRY_AFTER_SECONDS = 60;

/** Concurrency Fixed, and requests outside the router (pickers, the trigger): waits plainly. */
export const plainPacer: Pacer = {
	rateLimitRetries: RATE_LIMIT_RETRIES,
	answered: () => {},
	rateLimited: async (waitMs) => await systemClock.sleep(waitMs),
};

/**
 * A 429 without Retry-After is sent again after a capped exponential backoff with full jitter
 * (Marc Brooker, "Exponential Backoff And Jitter", AWS Architecture Blog, 2015): the n-th wait
 * (from 0) is a random time up to min(BACKOFF_CAP_MS, BACKOFF_FIRST_MS x 2^n), at most
 * BACKOFF_RETRIES times. So a request waits at most 1 + 2 + 4 + 8 + 8 = 23 s in all, and never
 * past its caller's deadline. The jitter keeps items refused together from coming back together.
 */
export const BACKOFF_FIRST_MS = 1000;
export const BACKOFF_CAP_MS = 8000;
export const BACKOFF_RETRIES = 5;

/** The longest a request waits out 429s without Retry-After, in all: 23 s. */
export const BACKOFF_MAX_TOTAL_MS = Array.from({ length: BACKOFF_RETRIES }, (_, retry) =>
	Math.min(BACKOFF_CAP_MS, BACKOFF_FIRST_MS * 2 ** retry),
).reduce((sum, ms) => sum + ms, 0);

/**
 * How long to wait before sending again a request that got its `retries`+1-th 429 (with
 * `retryAfterSeconds`, when the answer said), or undefined when its error is to be reported.
 * `random` gives numbers in [0, 1).
 */
export function rateLimitWaitMs(
	retryAfterSeconds: number | undefined,
	retries: number,
	pacer: Pacer,
	random: () => number = Math.random,
): number | undefined {
	if (retryAfterSeconds === undefined) {
		if (retries >= BACKOFF_RETRIES) return undefined;
		return random() * Math.min(BACKOFF_CAP_MS, BACKOFF_FIRST_MS * 2 ** retries);
	}
	if (retryAfterSeconds > MAX_RETRY_AFTER_SECONDS || retries >= pacer.rateLimitRetries)
		return undefined;
	return retryAfterSeconds * 1000;
}

/** How many items the router keeps in flight: it asks `start()` before each item, `finish()` after. */
export interface Concurrency {
	/** Resolves when one more item may start. */
	start(): Promise<void>;
	/** An item that started is done. */
	finish(): void;
}

/**
 * Items in flight whose answers arrive in one turn of the event loop would all start their next
 * items in that turn, and n8n sends those requests together: the items fall into lockstep, the
 * loop busy with all their answers at once, then idle while all of them wait on the API
 * (measured by `npm run bench`: concurrency 32 took a third longer that way). So at most this
 * many items start per tick of the timers.
 */
const STARTS_PER_TICK = 2;

/** A turnstile letting `perTick` callers through per tick of the timers. */
function startGate(perTick: number, clock: Clock): () => Promise<void> {
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
class Waiters {
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

	async start(): Promise<void> {
		while (this.inFlight >= this.limit) await this.waiters.wait();
		this.inFlight++;
		await this.gate?.();
	}

	finish(): void {
		this.inFlight--;
		this.waiters.wakeAll();
	}
}

// Concurrency Auto, in three phases (CONTRIBUTING.md, "Concurrency Mode Auto: how it paces",
// tells the whole story).
//
// 1. Slow start, as TCP's (RFC 5681): AUTO_START items in flight, one more for each answer (so
//    twice as many each round trip) while answers come back without 429 and no slower than
//    LATENCY_CLIMB times the fastest one (a queue building up, the signal of TCP Vegas); then
//    one more each round trip.
/** Items in flight at first. */
export const AUTO_START = 4;
/** Answers slower than this many times the fastest one mean the service or the wire is queueing. */
const LATENCY_CLIMB = 2.5;
//
// 2. Measuring the limit, at a 429 far from any limit measured before. A 429 means the service
//    had nothing left to give at that moment, so while the pace is held above the limit, what
//    gets through is what the service allows (exactly, for a token bucket): the delivery rate
//    that BBR paces by (Cardwell et al., "BBR: Congestion-Based Congestion Control", 2016).
/**
 * The hold lasts at least MEASURE_MS, until MEASURE_ANSWERS answers came, at most MEASURE_MAX_MS.
 */
const MEASURE_MS = 200;
const MEASURE_ANSWERS = 24;
const MEASURE_MAX_MS = 5000;
/**
 * Out of slow start, the hold starts this much above the rate answers came at so far (the pace of
 * slow start can be far above what the limit let through).
 */
const HOLD_ABOVE_DELIVERED = 1.5;
/**
 * Each round trip that brings a 429 of the held pace lowers it to HOLD_EASING of itself, but not
 * below what got through since the hold began: little more is refused than it takes to measure.
 */
const HOLD_EASING = 0.8;
//
// 3. Following the limit: starts are paced by the window curve of TCP CUBIC (Ha, Rhee and Xu,
//    "CUBIC: A New TCP-Friendly High-Speed TCP Variant", 2008; RFC 9438), in starts a second.
/**
 * After a 429 the pace drops to SETTLE_SHARE of the limit measured (CUBIC's β: a margin for
 * requests and answers that bunch), is back at the limit REGAIN_SECONDS later (CUBIC's K), flat
 * near it, then rises ever faster past it, so a limit that rose is found within seconds.
 */
const SETTLE_SHARE = 0.9;
const REGAIN_SECONDS = 1;
/**
 * A 429 at a pace within these shares of the limit measured is that limit again: start the curve
 * again under it (or under the pace, if lower) at once, without measuring it anew.
 */
const KNOWN_LIMIT = [0.9, 1.2] as const;
/** The slowest pace: one start every 5 seconds. */
const MIN_RATE = 0.2;
/**
 * Under Auto a 429 with Retry-After means "slower", not "failed": a request waits out this many
 * (each one lowering the pace) before its error is reported.
 */
const AUTO_RATE_LIMIT_RETRIES = 10;

/**
 * Concurrency Auto (the three phases above). Before any 429, starts are spread evenly over a
 * round trip, so a service's small burst allowance is not spent on the node's own bunching. The
 * item that got a 429 waits it out (Retry-After, or the backoff) out of its slot, so the others
 * go on at the pace the service allows: a pause of all starts for a whole second (Retry-After
 * has no fractions) would cost a service that allows 400 requests a second 400 of them.
 *
 * It is the items' pacer too: the transport reports each answer to it and waits out 429s
 * through it.
 */
export class AutoConcurrency implements Concurrency, Pacer {
	readonly rateLimitRetries = AUTO_RATE_LIMIT_RETRIES;
	private window: number;
	private inFlight = 0;
	private growing = true;
	private fastestMs = Infinity;
	private recentMs: number | undefined;
	/**
	 * Starts a second once a 429 came: the held pace while measuring, then the top of the growth
	 * curve. Before that, `window` a round trip.
	 */
	private rate: number | undefined;
	private pacedSince = 0;
	/** Where on the growth curve the pace began, in seconds: 0 under the limit, REGAIN_SECONDS at it. */
	private curveFrom = 0;
	/** The rate the service was last measured to let through. */
	private ceiling: number | undefined;
	/** Answers (not 429) so far, and when the first came. */
	private answerCount = 0;
	private firstAnswerAt: number | undefined;
	private nextStartAt = 0;
	private measuring:
		| {
				since: number;
				until: number;
				/** Answers (not 429) since the hold began. */
				answers: number;
				/** A request sent while holding was refused: the held pace is above the limit. */
				refused: boolean;
				easedAt: number;
		  }
		| undefined;
	private readonly waiters = new Waiters();
	private readonly gate: () => Promise<void>;

	constructor(
		private readonly max: number,
		private readonly clock: Clock = systemClock,
	) {
		this.window = Math.min(AUTO_START, max);
		this.gate = startGate(STARTS_PER_TICK, clock);
	}

	async start(): Promise<void> {
		for (;;) {
			if (this.rate !== undefined && !this.measuring) this.fitWindow();
			if (this.inFlight < Math.floor(this.window)) {
				const wait = this.nextStartAt - this.clock.now();
				// Under a millisecond is not worth a timer: timers do not come sooner.
				if (wait < 1) break;
				await this.clock.sleep(wait);
				continue;
			}
			await this.waiters.wait();
		}
		this.inFlight++;
		// A start that was late (timers, a busy event loop) lets the next one follow at once, so
		// the pace holds on average; no more than that, so starts do not bunch after a pause.
		const interval = this.interval();
		if (interval)
			this.nextStartAt = Math.max(this.nextStartAt, this.clock.now() - interval) + interval;
		await this.gate();
	}

	finish(): void {
		this.inFlight--;
		this.waiters.wakeAll();
	}

	answered(ms: number): void {
		const now = this.clock.now();
		this.answerCount++;
		this.firstAnswerAt ??= now;
		this.fastestMs = Math.min(this.fastestMs, ms);
		this.recentMs = this.recentMs === undefined ? ms : 0.8 * this.recentMs + 0.2 * ms;
		if (this.measuring) {
			this.measuring.answers++;
			this.endMeasuring();
		} else if (this.recentMs > LATENCY_CLIMB * this.fastestMs) {
			this.growing = false;
		} else {
			const step = this.growing && this.rate === undefined ? 1 : 1 / this.window;
			this.window = Math.min(this.max, this.window + step);
		}
		this.waiters.wakeAll();
	}

	async rateLimited(waitMs: number, ms: number): Promise<void> {
		this.inFlight--;
		const now = this.clock.now();
		const sentAt = now - ms;
		if (this.measuring) {
			// Refusals of requests sent before the hold began say nothing about the held pace.
			if (sentAt >= this.measuring.since) this.easeHeldPace(now);
			this.endMeasuring();
		} else if (sentAt >= this.pacedSince) {
			// Refusals of requests sent before the pace was set say nothing about it either.
			const pace = 1000 / this.interval();
			const [low, high] = KNOWN_LIMIT;
			const known =
				this.ceiling !== undefined && pace >= low * this.ceiling && pace <= high * this.ceiling;
			// Refused at this pace: the limit is no higher than it.
			if (known) this.settle(Math.min(this.ceiling!, pace));
			else this.startMeasuring(now);
		}
		this.waiters.wakeAll();
		await this.clock.sleep(waitMs);
		await this.start();
	}

	/** ms between starts: by the paced rate, or spread over a round trip. */
	private interval(): number {
		if (this.rate !== undefined) {
			if (this.measuring) return 1000 / this.rate;
			const seconds = this.curveFrom + (this.clock.now() - this.pacedSince) / 1000;
			return 1000 / (this.rate * growthCurve(seconds));
		}
		return this.recentMs === undefined ? 0 : this.recentMs / this.window;
	}

	/**
	 * Holds the pace it has now, or, out of slow start, HOLD_ABOVE_DELIVERED times the rate answers
	 * came at so far (the pace of slow start can be far above what the limit let through).
	 */
	private startMeasuring(at: number) {
		const interval = this.interval();
		const pace = interval > 0 ? 1000 / interval : this.window;
		const elapsed = at - (this.firstAnswerAt ?? at);
		const delivered = elapsed > 0 ? ((this.answerCount - 1) * 1000) / elapsed : undefined;
		this.rate = Math.max(
			MIN_RATE,
			this.rate === undefined && delivered !== undefined
				? Math.min(pace, HOLD_ABOVE_DELIVERED * delivered)
				: pace,
		);
		this.measuring = {
			since: at,
			until: at + MEASURE_MS,
			answers: 0,
			refused: false,
			easedAt: 0,
		};
	}

	/**
	 * The held pace is above the limit: ease it, once a round trip (a bunch of 429s is one
	 * signal), but keep it above what got through since the hold began, so 429s go on.
	 */
	private easeHeldPace(at: number) {
		const measuring = this.measuring!;
		measuring.refused = true;
		if (at - measuring.easedAt < (this.recentMs ?? 0)) return;
		measuring.easedAt = at;
		const span = at - measuring.since;
		// Over a shorter span, the answers to requests sent before the hold weigh too much.
		const delivered = span >= MEASURE_MS / 4 ? (measuring.answers * 1000) / span : 0;
		this.rate = Math.max(MIN_RATE, this.rate! * HOLD_EASING, delivered);
	}

	/**
	 * Once the hold lasted long enough: if it was refused, what got through meanwhile is the rate
	 * the service allows; settle a little under it. If not, the limit is higher: go on from the
	 * held pace, past the flat part of the curve.
	 */
	private endMeasuring() {
		const measuring = this.measuring!;
		const now = this.clock.now();
		const enough = now >= measuring.until && measuring.answers >= MEASURE_ANSWERS;
		if (!enough && now < measuring.since + MEASURE_MAX_MS) return;
		this.measuring = undefined;
		const delivered = (measuring.answers * 1000) / (now - measuring.since);
		if (measuring.refused) this.settle(delivered);
		else this.followCurve(Math.max(delivered, this.rate!), REGAIN_SECONDS);
	}

	/** The service lets `accepted` through a second: start the growth curve under it. */
	private settle(accepted: number) {
		this.ceiling = accepted;
		this.followCurve(accepted, 0);
	}

	/** Paces by the growth curve that reaches `top` REGAIN_SECONDS in, starting at `from` seconds. */
	private followCurve(top: number, from: number) {
		this.rate = Math.max(MIN_RATE, top);
		this.curveFrom = from;
		this.pacedSince = this.clock.now();
		this.fitWindow();
	}

	/** Enough in flight to keep the pace over a round trip, with room for slower answers. */
	private fitWindow() {
		const pace = 1000 / this.interval();
		const needed = Math.ceil((pace * (this.recentMs ?? 0)) / 1000) * 2 + 1;
		this.window = Math.min(this.max, Math.max(1, needed));
	}
}

/**
 * CUBIC's window curve as a share of its top, `seconds` after a 429: SETTLE_SHARE at 0, 1 at
 * REGAIN_SECONDS (flat there), then rising ever faster: 1.1 at twice REGAIN_SECONDS, 1.8 at
 * three times, 3.7 at four times.
 */
function growthCurve(seconds: number): number {
	return 1 - (1 - SETTLE_SHARE) * (1 - seconds / REGAIN_SECONDS) ** 3;
}
