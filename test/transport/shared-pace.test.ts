/**
 * The shared pace: one per service and key, by a digest of them, bounded and dropped when idle;
 * runs share what it learned but keep their own items in flight, given back however they end.
 */
import { runEachItem } from '../../nodes/DataIntegrationManagement/actions/router';
import {
	AUTO_START,
	DELIVERY_WINDOW_MS,
	GROWTH_PER_SECOND,
	initialPace,
	type PaceState,
} from '../../nodes/DataIntegrationManagement/transport/aimd';
import {
	AUTO_MAX_CONCURRENCY,
	initialLimit,
	ROUND_TRIP_SAMPLES,
} from '../../nodes/DataIntegrationManagement/transport/overload';
import { STARTS_PER_TICK } from '../../nodes/DataIntegrationManagement/transport/pacer';
import {
	IDLE_MS,
	MAX_PACES,
	PaceRegistry,
	paceKey,
	SharedPace,
	type RunPace,
} from '../../nodes/DataIntegrationManagement/transport/shared-pace';
import { FakeClock, settle } from './fake-clock';

describe('the key of a pace', () => {
	it('is a SHA-256 digest of base URL and key: the key never appears, each pair has its own', () => {
		const key = paceKey('https://api.example.com/v1', 'secret-key-123');
		expect(key).toMatch(/^[0-9a-f]{64}$/);
		expect(key).not.toContain('secret');
		expect(paceKey('https://api.example.com/v1', 'secret-key-123')).toBe(key);
		expect(paceKey('https://api.example.com/v1', 'other-key')).not.toBe(key);
		expect(paceKey('https://other.example.com/v1', 'secret-key-123')).not.toBe(key);
	});
});

describe('the registry of paces', () => {
	it('gives every run of one key the same pace, another key its own', () => {
		const registry = new PaceRegistry(new FakeClock());
		expect(registry.pace('a')).toBe(registry.pace('a'));
		expect(registry.pace('b')).not.toBe(registry.pace('a'));
	});

	it('drops a pace idle for IDLE_MS, not one with items in flight', async () => {
		const clock = new FakeClock();
		const registry = new PaceRegistry(clock);
		const idle = registry.pace('idle');
		const busy = registry.pace('busy');
		await clock.run(busy.join(4).start());
		await clock.run(clock.sleep(IDLE_MS + 1));
		expect(registry.pace('busy')).toBe(busy);
		expect(registry.pace('idle')).not.toBe(idle);
	});

	it('keeps a pace idle for exactly IDLE_MS', async () => {
		const clock = new FakeClock();
		const registry = new PaceRegistry(clock);
		// Last used a second in: idle is counted from then, not from the clock's zero.
		await clock.run(clock.sleep(1000));
		const pace = registry.pace('key');
		await clock.run(clock.sleep(IDLE_MS));
		expect(registry.pace('key')).toBe(pace);
	});

	it(`keeps at most ${MAX_PACES}, dropping the least recently used`, () => {
		const registry = new PaceRegistry(new FakeClock());
		const first = registry.pace('key 0');
		const second = registry.pace('key 1');
		registry.pace('key 0');
		for (let index = 2; index <= MAX_PACES; index++) registry.pace(`key ${index}`);
		expect(registry.size).toBe(MAX_PACES);
		expect(registry.pace('key 0')).toBe(first);
		expect(registry.pace('key 1')).not.toBe(second);
	});
});

describe('runs sharing a pace', () => {
	it('share its window, each within its own Concurrency', async () => {
		const clock = new FakeClock();
		const shared = new SharedPace(clock);
		const [one, two] = [shared.join(3), shared.join(3)];
		await clock.run(Promise.all([one.start(), one.start(), one.start(), two.start()]));
		expect([one.inFlight, two.inFlight, shared.inFlight]).toEqual([3, 1, AUTO_START]);
		// The window is full: a fifth start waits for an item to finish.
		let started = false;
		const fifth = two.start().then(() => (started = true));
		await clock.run(clock.sleep(1000));
		expect(started).toBe(false);
		one.finish();
		await clock.run(fifth);
		expect([one.inFlight, two.inFlight]).toEqual([2, 2]);
	});

	/** A pace whose run `first` learned a limit of `limit` past slow start, a 10 ms baseline, a rate. */
	function learned(limit = 40, state: PaceState = { ...initialPace(), phase: 'paced', rate: 100 }) {
		const clock = new FakeClock();
		const shared = new SharedPace(clock);
		const first = shared.join();
		shared.limit = { ...initialLimit(limit), slowStart: false };
		for (let answer = 0; answer < ROUND_TRIP_SAMPLES; answer++) shared.answered(10, 'POST tags');
		shared.state = state;
		return { clock, shared, first };
	}

	it('a run that finds no other measures the limit afresh, as a new process would; the rate a 429 set stays', async () => {
		const { clock, shared, first } = learned();
		const rate = shared.state;
		first.leave();
		const run = shared.join();
		expect([shared.limit, shared.state]).toEqual([initialLimit(AUTO_START), rate]);
		// The round trips are forgotten too: 100 ms answers are the service's speed now, not a
		// queue over 10 ms. Slow start grows on them, where the old baseline would halve the limit.
		shared.state = { ...initialPace(), window: Infinity };
		for (let item = 0; item < AUTO_START; item++) await clock.run(run.start());
		for (let answer = 0; answer < ROUND_TRIP_SAMPLES; answer++) shared.answered(100, 'POST tags');
		expect(shared.limit).toMatchObject({ limit: AUTO_START + ROUND_TRIP_SAMPLES, slowStart: true });
	});

	it.each<[string, number, PaceState, PaceState]>([
		['a limit cut below AUTO_START restarts there, in slow start', 2, initialPace(), initialPace()],
		[
			'a rate no 429 has set starts again (its slow start grew on every answer)',
			40,
			{ ...initialPace(), window: 300 },
			initialPace(),
		],
	])('a run that finds no other: %s', (_t, limit, state, after) => {
		const { shared, first } = learned(limit, state);
		first.leave();
		first.leave(); // a second leave counts once
		shared.join();
		expect([shared.limit, shared.state]).toEqual([
			initialLimit(Math.min(limit, AUTO_START)),
			after,
		]);
	});

	it.each([
		['not started an item yet', async () => {}],
		['an item in flight', async (first: RunPace) => await first.start()],
		['items waiting to start', async (first: RunPace) => (await first.start(5), first.finish())],
		[
			'its last item waiting out a 503 off its slot',
			async (first: RunPace) => (await first.start(1), void first.overloaded(1000, 40)),
		],
	])('a run that joins while another has %s shares what the pace learned', async (_t, busy) => {
		const { clock, shared, first } = learned();
		await clock.run(busy(first));
		const limit = shared.limit;
		shared.join();
		expect(shared.limit).toBe(limit);
		expect(limit.limit).toBeGreaterThan(AUTO_START);
	});

	it('gets back every slot of a run that failed, through the router loop', async () => {
		const clock = new FakeClock();
		const shared = new SharedPace(clock);
		const run = shared.join(4);
		const never = new Promise<void>(() => {});
		void runEachItem(
			10,
			run,
			async (itemIndex) => {
				if (itemIndex !== 1) await never;
				await clock.sleep(5);
				throw new Error('failed');
			},
			undefined,
			clock,
		);
		await clock.run(clock.sleep(10));
		// Item 1 failed, so no new item started; items 0, 2 and 3 hang (as in a cancelled run).
		expect(shared.inFlight).toBe(3);
		// Item 4 had its slot when the router stopped; items 5 to 9 were yet to start.
		expect(shared.queued).toBe(5);
		run.leave();
		expect([shared.inFlight, shared.queued]).toEqual([0, 0]);
		run.finish();
		expect(shared.inFlight).toBe(0);
	});

	it('are told by each router how many of its items are yet to start, all runs together', async () => {
		const clock = new FakeClock();
		const shared = new SharedPace(clock);
		const [one, two] = [shared.join(Infinity), shared.join(Infinity)];
		const seen: number[] = [];
		const items = async (run: RunPace, count: number) =>
			await runEachItem(
				count,
				run,
				async () => {
					seen.push(shared.queued);
					await clock.sleep(100);
				},
				undefined,
				clock,
			);
		const first = items(one, 6);
		await clock.run(clock.sleep(50));
		// Four went (AUTO_START); the fifth waits for a slot, and counts among those yet to start.
		expect([seen, shared.queued]).toEqual([[5, 4, 3, 2], 2]);
		const second = items(two, 2);
		await clock.run(clock.sleep(10));
		expect(shared.queued).toBe(2 + 2);
		await clock.run(Promise.all([first, second]));
		expect([seen.length, shared.queued]).toEqual([8, 0]);
		// A 429 sends its item back to wait for the pace: the router's count stays.
		void one.start();
		expect([shared.queued, shared.openEnded]).toEqual([0, 0]);
	});
});

describe('the shared pace, one event at a time', () => {
	const paced = (rate: number): PaceState => ({
		...initialPace(),
		phase: 'paced',
		rate,
		base: rate,
		decreasedAt: 0,
	});
	const holding = (): PaceState => ({ ...initialPace(), phase: 'holding', window: 12 });
	const at = async (clock: FakeClock, ms: number) => await clock.run(clock.sleep(ms - clock.now()));

	/** 10 answers from `from` + 10 ms to `from` + 100 ms, then at `from` + 200 ms a 429 to a request sent 50 ms before. */
	async function tenAnswersThen429(clock: FakeClock, run: RunPace, from: number) {
		for (let answer = 1; answer <= 10; answer++) {
			await at(clock, from + answer * 10);
			run.shared.answered(20, 'POST tags');
		}
		await at(clock, from + 200);
		void run.shared.rateLimited(run, 0, 50);
	}

	/** When each of `count` starts asked at once goes; the limit on what is in flight `limit`. */
	async function startTimes(shared: SharedPace, clock: FakeClock, count: number, limit?: number) {
		const run = shared.join(count);
		if (limit !== undefined) shared.limit = initialLimit(limit);
		const times: number[] = [];
		const starts = Array.from(
			{ length: count },
			async () => (await run.start(), times.push(clock.now())),
		);
		await clock.run(Promise.all(starts));
		return times;
	}

	it.each([
		[100, 3, [0, 0, 10]],
		[1000, 3, [0, 0, 1]],
		// Under a millisecond apart: no timer, they go at once.
		[3000, 5, [0, 0, 0, 0, 1]],
	])('paced at %i/s, %i starts asked at once go one interval apart', async (rate, count, times) => {
		const clock = new FakeClock();
		const shared = new SharedPace(clock);
		shared.state = paced(rate);
		expect(await startTimes(shared, clock, count, AUTO_MAX_CONCURRENCY)).toEqual(times);
	});

	it.each<[string, number | undefined, number[]]>([
		["the last answer's round trip 40 ms, a window of 4: one every 10 ms", 40, [0, 0, 10, 20]],
		['before any answer: at once', undefined, [0, 0, 0, 0]],
	])('holding, starts asked at once are spread over a round trip: %s', async (_t, ms, times) => {
		const clock = new FakeClock();
		const shared = new SharedPace(clock);
		if (ms !== undefined) shared.answered(ms, 'POST tags');
		shared.state = { ...initialPace(), phase: 'holding', window: 4 };
		expect(await startTimes(shared, clock, 4)).toEqual(times);
	});

	it.each([
		[100, 1, [500]],
		[3000, 3, [500, 500, 500]],
	])('paced at %i/s, %i starts asked after a pause go at once', async (rate, count, times) => {
		const clock = new FakeClock();
		const shared = new SharedPace(clock);
		shared.state = paced(rate);
		await startTimes(shared, clock, 3, AUTO_MAX_CONCURRENCY);
		await at(clock, 500);
		expect(await startTimes(shared, clock, count)).toEqual(times);
	});

	it.each([
		[
			'starts booked ahead, over a second of items yet to start: the pace grows',
			2,
			101,
			100 + GROWTH_PER_SECOND,
		],
		['starts booked ahead, a second of items yet to start: it stays', 2, 100, 100],
		['none booked ahead: it stays', 1, 1000, 100],
	])('paced at 100/s, an answer, %s', async (_title, starts, queued, rate) => {
		const clock = new FakeClock();
		const shared = new SharedPace(clock);
		shared.state = paced(100);
		const run = shared.join(Infinity);
		for (let left = queued + starts; left > queued; left--) await clock.run(run.start(left));
		expect(shared.queued).toBe(queued);
		shared.answered(20, 'POST tags');
		expect(shared.state.rate).toBeCloseTo(rate, 9);
	});

	it('paced at 100/s, an answer while requests that say nothing of what is left are in flight (the trigger, a picker): the pace grows', async () => {
		const clock = new FakeClock();
		const shared = new SharedPace(clock);
		shared.state = paced(100);
		const [page, picker] = [shared.join(1), shared.join(1)];
		await clock.run(Promise.all([page.start(), picker.start()]));
		expect([shared.openEnded, shared.queued]).toEqual([2, 0]);
		shared.answered(20, 'POST tags');
		expect(shared.state.rate).toBeCloseTo(100 + GROWTH_PER_SECOND, 9);
		page.leave();
		expect(shared.openEnded).toBe(1);
		picker.finish();
		expect(shared.openEnded).toBe(0);
		// Nothing in flight may be followed by more, and no run has items left: it stays.
		shared.answered(20, 'POST tags');
		expect(shared.state.rate).toBeCloseTo(100 + GROWTH_PER_SECOND, 9);
	});

	it(`starts at most STARTS_PER_TICK (${STARTS_PER_TICK}) items a turn of the timers, as Fixed does`, async () => {
		const clock = new FakeClock();
		const shared = new SharedPace(clock);
		const run = shared.join();
		let started = 0;
		for (let item = 0; item < AUTO_START; item++) void run.start().then(() => started++);
		await settle();
		expect(started).toBe(STARTS_PER_TICK);
		await clock.run(clock.sleep(0));
		expect(started).toBe(AUTO_START);
	});

	it('in slow start, an answer that widens the window lets a waiting start go', async () => {
		const clock = new FakeClock();
		const shared = new SharedPace(clock);
		const run = shared.join(AUTO_START + 1);
		// Two starts a tick: the timers' turns pass on the fake clock.
		for (let item = 0; item < AUTO_START; item++) await clock.run(run.start());
		let started = false;
		void run.start().then(() => (started = true));
		await clock.run(clock.sleep(1));
		expect(started).toBe(false);
		shared.answered(20, 'POST tags');
		await clock.run(clock.sleep(1));
		expect(started).toBe(true);
	});

	/**
	 * Holding: 10 answers from `from` + 10 ms to `from` + 100 ms, then a 429 at `from` + 200 ms to a
	 * request sent 50 ms before. The pace is set to what got through: counted from the start of
	 * the busy spell when the pace was idle longer than DELIVERY_WINDOW_MS, over the window if not.
	 */
	it.each([
		['after a long idle spell: counted from its start', 5000, 50],
		[
			`after an idle spell of exactly ${DELIVERY_WINDOW_MS} ms: over the window`,
			DELIVERY_WINDOW_MS,
			10,
		],
	])('holding, a 429 %s', async (_title, from, rate) => {
		const clock = new FakeClock();
		const shared = new SharedPace(clock);
		shared.state = holding();
		const run = shared.join(4);
		await at(clock, from);
		await clock.run(run.start());
		await tenAnswersThen429(clock, run, from);
		expect(shared.state).toMatchObject({ phase: 'paced', rate });
	});

	it('holding, a 429 after an idle spell shorter than the window: the same busy spell, counted from its start', async () => {
		const clock = new FakeClock();
		const shared = new SharedPace(clock);
		shared.state = holding();
		const run = shared.join(4);
		// A busy spell from 2000 ms: one answer, then nothing in flight from 2010 to 2500 ms.
		await at(clock, 2000);
		await clock.run(run.start());
		await at(clock, 2010);
		shared.answered(20, 'POST tags');
		run.finish();
		await at(clock, 2500);
		await clock.run(run.start());
		await tenAnswersThen429(clock, run, 2500);
		// 11 answers since the spell began at 2000 ms.
		expect(shared.state.phase).toBe('paced');
		expect(shared.state.rate).toBeCloseTo(11_000 / 700, 9);
	});

	it('holding, a 429 after 5 s without an answer while an item stayed in flight: no new spell, over the window', async () => {
		const clock = new FakeClock();
		const shared = new SharedPace(clock);
		shared.state = holding();
		const run = shared.join(4);
		await clock.run(run.start());
		await at(clock, 5000);
		await clock.run(run.start());
		await tenAnswersThen429(clock, run, 5000);
		expect(shared.state).toMatchObject({ phase: 'paced', rate: 10 });
	});

	it('the 429 that ends slow start counts what got through from then on, not the 429s of its round', async () => {
		const clock = new FakeClock();
		const shared = new SharedPace(clock);
		const run = shared.join(4);
		const answersEvery10ms = async (from: number, to: number) => {
			for (let time = from; time <= to; time += 10) {
				await at(clock, time);
				shared.answered(20, 'POST tags');
			}
		};
		await clock.run(run.start());
		await answersEvery10ms(10, 100);
		void shared.rateLimited(run, 0, 10);
		expect(shared.state.phase).toBe('holding');
		await clock.run(run.start());
		await answersEvery10ms(110, 150);
		// Another 429 of the round that ended slow start: one off the window, nothing else.
		void shared.rateLimited(run, 0, 60);
		await clock.run(run.start());
		await answersEvery10ms(160, 200);
		await at(clock, 300);
		void shared.rateLimited(run, 0, 50);
		// 10 answers over the 200 ms since slow start ended.
		expect(shared.state).toMatchObject({ phase: 'paced', rate: 50 });
	});
});

describe('the shared pace under signs of overload (503s, a standing queue)', () => {
	const at = async (clock: FakeClock, ms: number) => await clock.run(clock.sleep(ms - clock.now()));

	/** A pace with `count` items of one run in flight (at most `max`), at time 0. */
	async function inFlight(count: number, max = AUTO_MAX_CONCURRENCY) {
		const clock = new FakeClock();
		const shared = new SharedPace(clock);
		const run = shared.join(max);
		// The rate's slow start as wide: only the limit holds starts back.
		shared.state = { ...initialPace(), window: Infinity };
		shared.limit = initialLimit(count);
		for (let item = 0; item < count; item++) await clock.run(run.start());
		return { clock, shared, run };
	}

	it('a run joins with Max Concurrency unset at the default ceiling, whatever the signs say', () => {
		expect(new SharedPace(new FakeClock()).join().max).toBe(AUTO_MAX_CONCURRENCY);
	});

	it('a fresh pace never full is not in use: its quick answers add nothing', async () => {
		const clock = new FakeClock();
		const shared = new SharedPace(clock);
		shared.state = { ...initialPace(), window: Infinity };
		const run = shared.join();
		for (let item = 0; item < AUTO_START - 1; item++) await clock.run(run.start());
		await at(clock, 20);
		shared.answered(20, 'POST tags');
		expect(shared.limit.limit).toBe(AUTO_START);
	});

	it('starts no item past the limit, and one more once the limit grows', async () => {
		const { clock, shared, run } = await inFlight(4);
		let started = false;
		void run.start().then(() => (started = true));
		await clock.run(clock.sleep(10));
		expect(started).toBe(false);
		// An answer as quick as the first, with every place in use: slow start adds one.
		shared.answered(20, 'POST tags');
		await clock.run(clock.sleep(10));
		expect([shared.limit.limit, started]).toEqual([5, true]);
	});

	it('says a run is full (the router then reads ahead) while the limit or its own Concurrency lets no item start', async () => {
		const atLimit = await inFlight(4);
		expect(atLimit.run.full).toBe(true);
		atLimit.run.finish();
		expect(atLimit.run.full).toBe(false);
		const atMax = await inFlight(2, 2);
		expect(atMax.shared.limit.limit).toBe(2);
		atMax.shared.limit = initialLimit(8);
		expect(atMax.run.full).toBe(true);
	});

	it('counts the limit in use when it was full since the request left, though items ended since', async () => {
		const { clock, shared, run } = await inFlight(4);
		// Full at 0; two items end, their next ones still waiting their turn to start here.
		await at(clock, 20);
		run.finish();
		run.finish();
		shared.answered(20, 'POST tags');
		expect(shared.limit.limit).toBe(5);
		// A request sent after the limit was last full: the limit was not in use for it.
		await at(clock, 50);
		shared.answered(20, 'POST tags');
		expect(shared.limit.limit).toBe(5);
	});

	it('a 503 in slow start halves the limit; the item waits off its place, then takes one again', async () => {
		const { clock, shared, run } = await inFlight(8);
		await at(clock, 100);
		const waiting = shared.overloaded(run, 1000, 40);
		expect(shared.limit).toMatchObject({ limit: 4, slowStart: false, decreasedAt: 100 });
		expect(shared.inFlight).toBe(7);
		// Other 503s of requests sent before that decrease say nothing more.
		void shared.overloaded(run, 1000, 40);
		expect([shared.limit.limit, shared.inFlight]).toEqual([4, 6]);
		// Three items end: the first to have waited takes the fourth place, after its wait.
		for (let item = 0; item < 3; item++) run.finish();
		await clock.run(waiting);
		expect([clock.now(), shared.inFlight]).toEqual([1100, 4]);
	});

	it('a standing queue (every one of the last ROUND_TRIP_SAMPLES answers over twice the baseline), a first sign: the limit halved', async () => {
		const { clock, shared } = await inFlight(10);
		shared.limit = { ...initialLimit(10), slowStart: false };
		for (let answer = 0; answer < ROUND_TRIP_SAMPLES; answer++) shared.answered(20, 'POST tags');
		const limit = shared.limit.limit;
		for (let answer = 1; answer <= ROUND_TRIP_SAMPLES; answer++) {
			await at(clock, 100 + answer);
			shared.answered(50, 'POST tags');
		}
		expect(shared.limit.limit).toBeCloseTo(limit / 2);
		expect(shared.limit.decreasedAt).toBe(100 + ROUND_TRIP_SAMPLES);
	});

	it('compares each kind of request with its own baseline: a slow write after quick reads is no queue', async () => {
		const { shared } = await inFlight(10);
		shared.limit = { ...initialLimit(10), slowStart: false };
		for (let answer = 0; answer < ROUND_TRIP_SAMPLES; answer++) shared.answered(5, 'GET users');
		for (let answer = 0; answer < 2 * ROUND_TRIP_SAMPLES; answer++)
			shared.answered(60, 'POST tags');
		expect(shared.limit.limit).toBeGreaterThan(10);
	});

	it('a suspected queue whose delay does not fall with the limit is the speed of the service: the limit comes back, the delay becomes the baseline', async () => {
		const { clock, shared } = await inFlight(10);
		shared.limit = { ...initialLimit(40), slowStart: false };
		for (let answer = 0; answer < ROUND_TRIP_SAMPLES; answer++) shared.answered(10, 'POST tags');
		// The service now answers in 100 ms whatever is in flight: a queue is suspected, the limit
		// halved, and the next round trip's answers have not fallen with it.
		const limits: number[] = [];
		for (let round = 1; round <= 5; round++) {
			for (let answer = 0; answer < ROUND_TRIP_SAMPLES; answer++) {
				await at(clock, 1000 * round + answer);
				shared.answered(100, 'POST tags');
			}
			limits.push(shared.limit.limit);
		}
		expect(limits.map(Math.round)).toEqual([20, 40, 40, 40, 40]);
		expect(shared.limit.suspect).toBeUndefined();
		// 100 ms is the baseline now: more of them cut nothing.
		for (let answer = 0; answer < 2 * ROUND_TRIP_SAMPLES; answer++) {
			await at(clock, 30_000 + answer);
			shared.answered(100, 'POST tags');
		}
		expect(shared.limit.limit).toBeGreaterThanOrEqual(40);
	});
});
