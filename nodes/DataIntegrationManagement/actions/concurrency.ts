import { sleep } from 'n8n-workflow';

import type { Pacer } from '../client/pacing';

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

/** Items in flight at first, under Auto. */
const AUTO_START = 2;
/** Answers slower than this many times the fastest one mean the service or the wire is queueing. */
const LATENCY_CLIMB = 2.5;
/**
 * After a 429, the pace is held at least this long, MEASURE_ROUND_TRIPS round trips and
 * MEASURE_ANSWERS answers (unless MEASURE_MAX_MS passes first) to count what the service accepts.
 */
const MEASURE_MS = 100;
const MEASURE_ROUND_TRIPS = 4;
const MEASURE_ANSWERS = 8;
const MEASURE_MAX_MS = 5000;
/** The span over which the rate of recent answers is counted, for the pace to hold. */
const RECENT_MS = 250;
/** Then new starts are paced at this share of the accepted rate ... */
const RATE_BACKOFF = 0.97;
/** ... which grows by this share of itself a second until the next 429 ... */
const RATE_GROWTH_PER_SECOND = 0.03;
/** ... or by this share, when the held pace was not refused (the limit is higher). */
const PROBE_GROWTH_PER_SECOND = 1;
/**
 * A 429 at a pace within these shares of the rate last measured is that limit again: back off
 * under it (or under the pace, if lower) at once, without holding the pace (and sending more
 * into 429s) to measure it anew.
 */
const KNOWN_LIMIT = [0.9, 1.2] as const;
/** The slowest pace: one start every 5 seconds. */
const MIN_RATE = 0.2;
/**
 * Under Auto a 429 means "slower", not "failed": a request waits out this many (each one
 * lowering the pace) before its error is reported.
 */
const AUTO_RATE_LIMIT_RETRIES = 10;

/**
 * Concurrency Auto. Starts are spread evenly over a round trip (so a service's small burst
 * allowance is not spent on the node's own bunching), beginning with AUTO_START items in flight
 * and doubling every round trip while answers come back without 429 and without slowing down,
 * up to `max`.
 *
 * At the first 429 it holds its pace (no faster than answers came lately) for a few round trips
 * and counts the answers that get through: when more are refused meanwhile, that count is the
 * service's rate. New starts are then paced a little under it, a pace that rises slowly; a 429
 * near that rate lowers it at once, without holding again. The item that got a 429 waits its
 * Retry-After out of its slot, so the others go on at the pace the service allows. New starts
 * are not all paused for the Retry-After: a pause of a whole second (the header has no
 * fractions) would cost a service that allows 400 requests a second 400 of them.
 *
 * It is the items' pacer too: the transport reports each answer's time to it and waits out 429s
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
	/** The rate the service was last measured to accept. */
	private ceiling: number | undefined;
	/** When the answers of the last RECENT_MS came, and the first answer. */
	private readonly answers: number[] = [];
	private firstAnswerAt: number | undefined;
	private nextStartAt = 0;
	private measuring:
		| { since: number; until: number; answers: number; refusedWhileHeld: boolean }
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
		this.answers.push(now);
		while (this.answers[0] < now - RECENT_MS) this.answers.shift();
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

	async rateLimited(retryAfterSeconds: number): Promise<void> {
		this.inFlight--;
		if (this.measuring) {
			// Refusals of requests sent before the hold began say nothing about the held pace.
			if (Date.now() - this.measuring.since > (this.recentMs ?? 0))
				this.measuring.refusedWhileHeld = true;
			this.endMeasuring();
		} else {
			const pace = 1000 / this.interval();
			const [low, high] = KNOWN_LIMIT;
			const known =
				this.ceiling !== undefined && pace >= low * this.ceiling && pace <= high * this.ceiling;
			// Refused at this pace: the limit is no higher than it.
			if (known) this.settle(Math.min(this.ceiling!, pace));
			else this.startMeasuring();
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

	/**
	 * Holds the pace it has now, or the rate answers came at lately when that is lower (starting
	 * fast, the pace can be far above what a burst allowance let through); before any answer,
	 * `window` starts a second.
	 */
	private startMeasuring() {
		const now = Date.now();
		const interval = this.interval();
		const pace = interval > 0 ? 1000 / interval : this.window;
		const span = Math.min(RECENT_MS, now - (this.firstAnswerAt ?? now));
		const recent = span > 0 ? (this.answers.length * 1000) / span : Infinity;
		this.rate = Math.max(MIN_RATE, Math.min(pace, recent));
		this.measuring = {
			since: now,
			until: now + Math.max(MEASURE_MS, MEASURE_ROUND_TRIPS * (this.recentMs ?? 0)),
			answers: 0,
			refusedWhileHeld: false,
		};
	}

	/**
	 * Refused while holding: what got through is the service's rate; settle a little under it.
	 * Not refused: the 429 came from a bunch of starts, or the pace was just at the limit; go on
	 * from the held pace, growing faster unless it is near the limit already measured.
	 */
	private endMeasuring() {
		const measuring = this.measuring!;
		const now = Date.now();
		const enough = now >= measuring.until && measuring.answers >= MEASURE_ANSWERS;
		if (!enough && now < measuring.since + MEASURE_MAX_MS) return;
		const accepted = (measuring.answers * 1000) / (now - measuring.since);
		this.measuring = undefined;
		if (measuring.refusedWhileHeld) {
			this.settle(accepted);
			return;
		}
		const held = this.rate!;
		const nearLimit = this.ceiling !== undefined && held >= KNOWN_LIMIT[0] * this.ceiling;
		this.paceAt(
			Math.max(accepted, held),
			nearLimit ? RATE_GROWTH_PER_SECOND : PROBE_GROWTH_PER_SECOND,
		);
	}

	/** The service accepts `accepted` a second: pace a little under it, growing slowly. */
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
