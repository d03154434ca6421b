import { sleep } from 'n8n-workflow';

import type { Pacer } from '../client/pacing';
// Options → Concurrency's description states it: one constant for both.
import { AUTO_START_CONCURRENCY as AUTO_START } from '../shared/descriptions';

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
function startGate(perTick: number): () => Promise<void> {
	let started = 0;
	let tick: Promise<void> | undefined;
	return async () => {
		while (started >= perTick) {
			tick ??= sleep(0).then(() => {
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

	constructor(private readonly limit: number) {
		this.gate = limit > 1 ? startGate(STARTS_PER_TICK) : undefined;
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

/** Answers slower than this many times the fastest one mean the service or the wire is queueing. */
const LATENCY_CLIMB = 2.5;
/**
 * After a 429, a pace is held at least this long, MEASURE_ROUND_TRIPS round trips, and until
 * MEASURE_ANSWERS answers came (unless MEASURE_MAX_MS passes first), to count what the service
 * lets through. The count is taken between 429s at least MEASURE_MS / 2 apart: a shorter span is
 * blurred by answers that come in bunches.
 */
const MEASURE_MS = 200;
const MEASURE_ROUND_TRIPS = 4;
const MEASURE_ANSWERS = 24;
const MEASURE_MAX_MS = 5000;
/**
 * Before any pace is set, the first 429's hold starts this much above the rate answers came at
 * over the last RECENT_ROUND_TRIPS round trips (at least RECENT_MIN_MS, at most RECENT_MAX_MS):
 * above the limit, so that 429s go on and what gets through between them can be counted.
 */
const HOLD_ABOVE_RECENT = 1.5;
const RECENT_ROUND_TRIPS = 2;
const RECENT_MIN_MS = 100;
const RECENT_MAX_MS = 250;
/**
 * Each round trip that brings a 429 of the held pace lowers it to this share, but not below
 * HOLD_ABOVE_COUNTED times what got through between the 429s so far: few more requests go into
 * 429s than it takes to count.
 */
const HOLD_EASING = 0.8;
const HOLD_ABOVE_COUNTED = 1.05;
/**
 * Then new starts are paced at this share of the counted rate: a margin for answers and requests
 * that bunch (a busy event loop, the network), which a small burst allowance does not absorb ...
 */
const RATE_BACKOFF = 0.95;
/** ... a pace that grows by this share of itself a second until the next 429 ... */
const RATE_GROWTH_PER_SECOND = 0.01;
/** ... or by this share, when the held pace was not refused (the limit is higher). */
const PROBE_GROWTH_PER_SECOND = 4;
/**
 * A 429 at a pace within these shares of the rate last counted is that limit again: back off
 * under it (or under the pace, if lower) at once, without holding the pace (and sending more
 * into 429s) to count it anew.
 */
const KNOWN_LIMIT = [0.9, 1.2] as const;
/** The slowest pace: one start every 5 seconds. */
const MIN_RATE = 0.2;
/**
 * Under Auto a 429 means "slower", not "failed": a request waits out this many (each one
 * lowering the pace) before its error is reported.
 */
const AUTO_RATE_LIMIT_RETRIES = 10;

/** A request's answer: when the request was sent, and when its answer came. */
interface Answer {
	sentAt: number;
	at: number;
}

/**
 * Concurrency Auto. Starts are spread evenly over a round trip (so a service's small burst
 * allowance is not spent on the node's own bunching), beginning with AUTO_START items in flight
 * and doubling every round trip while answers come back without 429 and without slowing down,
 * up to `max`.
 *
 * At the first 429 it holds a pace above the rate answers came at lately, and counts the answers
 * that come between the 429s meanwhile: a 429 means the service had nothing left to give at that
 * moment, so what it let through between two of them is the rate it allows (exactly, for the
 * common token bucket; a little under, for other limits). The held pace eases each round trip
 * that brings a 429, so few requests are refused while it counts. When the held pace was not
 * refused at all, the limit is higher: the pace grows fast until the next 429, and is held there.
 * New starts are then paced a little under the counted rate, a pace that rises slowly; a 429
 * near that rate lowers it at once, without holding again. The item that got a 429 waits its
 * Retry-After out of its slot, so the others go on at the pace the service allows. New starts
 * are not all paused for the Retry-After: a pause of a whole second (the header has no
 * fractions) would cost a service that allows 400 requests a second 400 of them.
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
	/** Starts a second, once a 429 came; before that, `window` a round trip. */
	private rate: number | undefined;
	private pacedSince = 0;
	private growthPerSecond = RATE_GROWTH_PER_SECOND;
	/** The rate the service was last counted to let through. */
	private ceiling: number | undefined;
	/** The answers (not 429) of the last RECENT_MAX_MS, and all of them while measuring. */
	private answers: Answer[] = [];
	private firstAnswerAt: number | undefined;
	private nextStartAt = 0;
	private measuring:
		| {
				since: number;
				until: number;
				answers: number;
				/** The 429 that began the hold, and the last one since. */
				first: Answer;
				last: Answer;
				/** A request sent while holding was refused; the held pace then, before easing. */
				refusedWhileHeld: boolean;
				refusedPace: number;
				easedAt: number;
		  }
		| undefined;
	private readonly waiters = new Waiters();
	private readonly gate = startGate(STARTS_PER_TICK);

	constructor(private readonly max: number) {
		this.window = Math.min(AUTO_START, max);
	}

	async start(): Promise<void> {
		for (;;) {
			if (this.inFlight < Math.floor(this.window)) {
				const wait = this.nextStartAt - Date.now();
				// Under a millisecond is not worth a timer: timers do not come sooner.
				if (wait < 1) break;
				await sleep(wait);
				continue;
			}
			await this.waiters.wait();
		}
		this.inFlight++;
		// A start that was late (timers, a busy event loop) lets the next one follow at once, so
		// the pace holds on average; no more than that, so starts do not bunch after a pause.
		const interval = this.interval();
		if (interval) this.nextStartAt = Math.max(this.nextStartAt, Date.now() - interval) + interval;
		await this.gate();
	}

	finish(): void {
		this.inFlight--;
		this.waiters.wakeAll();
	}

	answered(ms: number): void {
		const now = Date.now();
		this.answers.push({ sentAt: now - ms, at: now });
		if (!this.measuring) {
			const kept = this.answers.findIndex((answer) => answer.at >= now - RECENT_MAX_MS);
			if (kept > 0) this.answers = this.answers.slice(kept);
		}
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

	async rateLimited(retryAfterSeconds: number, ms: number): Promise<void> {
		this.inFlight--;
		const now = Date.now();
		const refusal = { sentAt: now - ms, at: now };
		if (this.measuring) {
			this.measuring.last = refusal;
			// Refusals of requests sent before the hold began say nothing about the held pace.
			if (refusal.sentAt >= this.measuring.since) this.easeHeldPace(refusal);
			this.endMeasuring();
		} else if (refusal.sentAt >= this.pacedSince) {
			// Refusals of requests sent before the pace was set say nothing about it either.
			const pace = 1000 / this.interval();
			const [low, high] = KNOWN_LIMIT;
			const known =
				this.ceiling !== undefined && pace >= low * this.ceiling && pace <= high * this.ceiling;
			// Refused at this pace: the limit is no higher than it.
			if (known) this.settle(Math.min(this.ceiling!, pace));
			else this.startMeasuring(refusal);
		}
		this.waiters.wakeAll();
		await sleep(retryAfterSeconds * 1000);
		await this.start();
	}

	/** ms between starts: by the paced rate, or spread over a round trip. */
	private interval(): number {
		if (this.rate !== undefined) {
			const seconds = this.measuring ? 0 : (Date.now() - this.pacedSince) / 1000;
			return 1000 / (this.rate * (1 + this.growthPerSecond * seconds));
		}
		return this.recentMs === undefined ? 0 : this.recentMs / this.window;
	}

	/** Answers a second over the last few round trips; undefined before any time has passed. */
	private recentRate(now: number): number | undefined {
		const span = Math.min(
			Math.max(RECENT_MIN_MS, RECENT_ROUND_TRIPS * (this.recentMs ?? 0)),
			RECENT_MAX_MS,
			now - (this.firstAnswerAt ?? now),
		);
		if (span <= 0) return undefined;
		return (this.answers.filter((answer) => answer.at > now - span).length * 1000) / span;
	}

	/**
	 * Holds the pace it has now, or, before any pace, HOLD_ABOVE_RECENT times the rate answers
	 * came at lately (starting fast, the pace can be far above what the limit let through);
	 * before any answer, `window` starts a second.
	 */
	private startMeasuring(refusal: Answer) {
		const interval = this.interval();
		const pace = interval > 0 ? 1000 / interval : this.window;
		const recent = this.recentRate(refusal.at);
		this.rate = Math.max(
			MIN_RATE,
			this.rate === undefined && recent !== undefined
				? Math.min(pace, HOLD_ABOVE_RECENT * recent)
				: pace,
		);
		this.measuring = {
			since: refusal.at,
			until: refusal.at + Math.max(MEASURE_MS, MEASURE_ROUND_TRIPS * (this.recentMs ?? 0)),
			answers: 0,
			first: refusal,
			last: refusal,
			refusedWhileHeld: false,
			refusedPace: this.rate,
			easedAt: 0,
		};
	}

	/** The held pace is above the limit: ease it, once a round trip (a bunch of 429s is one signal). */
	private easeHeldPace(refusal: Answer) {
		const measuring = this.measuring!;
		measuring.refusedWhileHeld = true;
		if (refusal.at - measuring.easedAt < (this.recentMs ?? 0)) return;
		measuring.easedAt = refusal.at;
		measuring.refusedPace = this.rate!;
		const span = refusal.at - measuring.first.at;
		const counted =
			span >= MEASURE_MS / 4 ? (this.answeredBetween(measuring.first, refusal) * 1000) / span : 0;
		this.rate = Math.max(MIN_RATE, this.rate! * HOLD_EASING, HOLD_ABOVE_COUNTED * counted);
	}

	/** Answers (not 429) that came between two 429s. */
	private answeredBetween(first: Answer, last: Answer): number {
		return this.answers.filter((answer) => answer.at > first.at && answer.at <= last.at).length;
	}

	/**
	 * Refused while holding: what got through between the 429s is the service's rate (or, when
	 * too little came between them to count, the limit is under the pace last refused); settle a
	 * little under it. Not refused: the limit is higher; go on from the held pace, growing fast
	 * unless it is near the limit already counted.
	 */
	private endMeasuring() {
		const measuring = this.measuring!;
		const now = Date.now();
		const { first, last, refusedWhileHeld } = measuring;
		const span = last.at - first.at;
		const between = this.answeredBetween(first, last);
		const counted = refusedWhileHeld && span >= MEASURE_MS / 2 && between >= MEASURE_ANSWERS;
		// While 429s go on, the count will be there soon; once they stopped, it may never be.
		const refusalsStopped = now - last.at > 2 * (this.recentMs ?? 0);
		const enough =
			now >= measuring.until &&
			measuring.answers >= MEASURE_ANSWERS &&
			(counted || !refusedWhileHeld || refusalsStopped);
		if (!enough && now < measuring.since + MEASURE_MAX_MS) return;
		this.measuring = undefined;
		if (refusedWhileHeld) {
			this.settle(counted ? (between * 1000) / span : measuring.refusedPace);
			return;
		}
		const held = this.rate!;
		const accepted = (measuring.answers * 1000) / (now - measuring.since);
		const nearLimit = this.ceiling !== undefined && held >= KNOWN_LIMIT[0] * this.ceiling;
		this.paceAt(
			Math.max(accepted, held),
			nearLimit ? RATE_GROWTH_PER_SECOND : PROBE_GROWTH_PER_SECOND,
		);
	}

	/** The service lets `accepted` through a second: pace a little under it, growing slowly. */
	private settle(accepted: number) {
		this.ceiling = accepted;
		this.paceAt(accepted * RATE_BACKOFF, RATE_GROWTH_PER_SECOND);
	}

	private paceAt(rate: number, growthPerSecond: number) {
		this.rate = Math.max(MIN_RATE, rate);
		this.growthPerSecond = growthPerSecond;
		this.pacedSince = Date.now();
		// Enough in flight to keep that pace over a round trip, with room for slower answers.
		const needed = Math.ceil((this.rate * (this.recentMs ?? 0)) / 1000) * 2 + 1;
		this.window = Math.min(this.max, Math.max(1, needed));
	}
}
