/**
 * The pacer's own rules (pacing/pacer.ts), each alone: the wait before a request answered 429
 * is sent again, the start gate, and Concurrency Fixed's slots, on the fake clock.
 */
import {
	BACKOFF_CAP_MS,
	BACKOFF_FIRST_MS,
	BACKOFF_MAX_TOTAL_MS,
	BACKOFF_RETRIES,
	MAX_RETRY_AFTER_SECONDS,
	plainPacer,
	retryWaitMs,
	startGate,
	STARTS_PER_TICK,
	type Clock,
} from '../../nodes/DataIntegrationManagement/pacing/pacer';
import { SharedPace } from '../../nodes/DataIntegrationManagement/pacing/shared-pace';
import { FixedConcurrency } from '../../nodes/DataIntegrationManagement/actions/fixedConcurrency';
import { FakeClock, settle } from '../helpers/fake-clock';

/** A clock whose timers fire only when the test says the tick is over. */
class TickingClock implements Clock {
	private sleepers: Array<() => void> = [];
	now = () => 0;
	sleep = async () => await new Promise<void>((wake) => this.sleepers.push(wake));
	async tick(): Promise<void> {
		const sleepers = this.sleepers;
		this.sleepers = [];
		for (const wake of sleepers) wake();
		await settle();
	}
}

/** Starts `count` callers at once; `through` counts those let through so far. */
function startAll(count: number, start: () => Promise<void>): { through: number } {
	const counter = { through: 0 };
	for (let index = 0; index < count; index++) void start().then(() => counter.through++);
	return counter;
}

describe('the wait before a request answered 429 is sent again', () => {
	const highest = () => 1 - Number.EPSILON;

	it('without Retry-After: a capped exponential backoff with full jitter, then the error', () => {
		const longest = Array.from({ length: BACKOFF_RETRIES + 2 }, (_, retries) =>
			retryWaitMs({ status: 429 }, retries, plainPacer, highest),
		);
		expect(longest.map((ms) => ms && Math.round(ms))).toEqual([
			BACKOFF_FIRST_MS,
			2 * BACKOFF_FIRST_MS,
			4 * BACKOFF_FIRST_MS,
			BACKOFF_CAP_MS,
			BACKOFF_CAP_MS,
			undefined,
			undefined,
		]);
		expect(BACKOFF_MAX_TOTAL_MS).toBe(23_000);
		expect(retryWaitMs({ status: 503 }, 0, plainPacer, () => 0)).toBe(0);
		expect(retryWaitMs({ status: 503 }, 2, plainPacer, () => 0.5)).toBe(2 * BACKOFF_FIRST_MS);
	});

	it('under Auto, whose limit a 503 cuts, the first 503 without Retry-After waits only its turn; the rest, and 429s, back off', () => {
		const auto = { ...plainPacer, limitsInFlight: true };
		const highest = () => 1 - Number.EPSILON;
		expect(retryWaitMs({ status: 503 }, 0, auto, highest)).toBe(0);
		expect(retryWaitMs({ status: 503 }, 1, auto, highest)).toBeCloseTo(2 * BACKOFF_FIRST_MS);
		expect(retryWaitMs({ status: 429 }, 0, auto, highest)).toBeCloseTo(BACKOFF_FIRST_MS);
		expect(retryWaitMs({ status: 503 }, 0, plainPacer, highest)).toBeCloseTo(BACKOFF_FIRST_MS);
		expect(retryWaitMs({ status: 503, retryAfterSeconds: 1 }, 0, auto, highest)).toBe(1000);
		// A run's share of Auto's pace is such a pacer.
		const run = new SharedPace(new FakeClock()).join(4);
		expect(retryWaitMs({ status: 503 }, 0, run, highest)).toBe(0);
	});

	it.each([
		['as long as it says', 2, 0, plainPacer.retryAfterWaits, 2000],
		['no wait when it says 0', 0, 0, plainPacer.retryAfterWaits, 0],
		['the longest wait honoured', MAX_RETRY_AFTER_SECONDS, 0, 3, MAX_RETRY_AFTER_SECONDS * 1000],
		['not longer: the error', MAX_RETRY_AFTER_SECONDS + 1, 0, 3, undefined],
		['on the last retry the pacer allows', 1, 2, 3, 1000],
		['not past it: the error', 1, 3, 3, undefined],
		['past Fixed, within what Auto allows', 1, 3, 10, 1000],
	])('with Retry-After: %s', (_title, seconds, retries, allowed, waitMs) => {
		const pacer = { ...plainPacer, retryAfterWaits: allowed };
		expect(retryWaitMs({ status: 429, retryAfterSeconds: seconds }, retries, pacer)).toBe(waitMs);
	});

	it("Auto's pacer allows more retries than Fixed's", () => {
		const auto = new SharedPace(new FakeClock()).join(8);
		expect(auto.retryAfterWaits).toBeGreaterThan(plainPacer.retryAfterWaits);
	});
});

describe('the start gate: at most so many starts per tick of the timers', () => {
	it('lets that many through at once, and the rest tick by tick', async () => {
		const clock = new TickingClock();
		const callers = startAll(5, startGate(2, clock));

		const throughPerTick = [];
		for (let tick = 0; tick < 3; tick++) {
			await settle();
			throughPerTick.push(callers.through);
			await clock.tick();
		}
		expect(throughPerTick).toEqual([2, 4, 5]);
	});
});

describe('Concurrency Fixed', () => {
	it('keeps at most its limit in flight; a finished item lets the next start', async () => {
		const fixed = new FixedConcurrency(1, new TickingClock());
		const items = startAll(2, async () => await fixed.start());
		await settle();
		expect(items.through).toBe(1);

		fixed.finish();
		await settle();
		expect(items.through).toBe(2);
	});

	it('one at a time: no gate, so items follow each other within one tick', async () => {
		const fixed = new FixedConcurrency(1, new TickingClock());
		let done = 0;
		void (async () => {
			for (let item = 0; item < 4; item++) {
				await fixed.start();
				fixed.finish();
				done++;
			}
		})();
		await settle();
		expect(done).toBe(4);
	});

	it(`above one: at most ${STARTS_PER_TICK} start per tick`, async () => {
		const fixed = new FixedConcurrency(8, new TickingClock());
		const items = startAll(8, async () => await fixed.start());
		await settle();
		expect(items.through).toBe(STARTS_PER_TICK);
	});
});
