/**
 * The shared pace: one per service and key, by a digest of them, bounded and dropped when idle;
 * runs share its window but keep their own items in flight, given back however they end; the
 * trigger's, pickers' and tools' requests go before runs' items, and wait no longer than told;
 * a pace idle longer than a retransmission timeout starts afresh.
 */
import { runEachItem } from '../../nodes/DataIntegrationManagement/actions/router';
import {
	AUTO_MAX_CONCURRENCY,
	initialWindow,
	INITIAL_WINDOW,
	ROUND_TRIP_SAMPLES,
	type Window,
} from '../../nodes/DataIntegrationManagement/pacing/controller';
import { STARTS_PER_TICK } from '../../nodes/DataIntegrationManagement/pacing/pacer';
import {
	IDLE_MS,
	MAX_PACES,
	OPEN_ENDED_WAIT_MS,
	openEndedTurn,
	PaceBusyError,
	PaceRegistry,
	paceKey,
	SharedPace,
	type RunPace,
} from '../../nodes/DataIntegrationManagement/pacing/shared-pace';
import { FakeClock, settle } from '../helpers/fake-clock';

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

const at = async (clock: FakeClock, ms: number) => await clock.run(clock.sleep(ms - clock.now()));

/** A pace past slow start with a window of `size`, on a fake clock. */
function paceOf(size: number, more: Partial<Window> = {}) {
	const clock = new FakeClock();
	const shared = new SharedPace(clock);
	shared.window = { ...initialWindow(0, size), threshold: size, ...more };
	return { clock, shared };
}

/** Starts `count` of `run` at once; what each start resolved to, in order. */
function startAll(run: RunPace, count: number, waitMs?: number): string[] {
	const order: string[] = [];
	for (let item = 0; item < count; item++)
		void run.start(undefined, waitMs).then(
			() => order.push(`${item}`),
			(error: unknown) => order.push(error instanceof PaceBusyError ? 'busy' : 'failed'),
		);
	return order;
}

describe('runs sharing a pace', () => {
	it('share its window, each within its own Concurrency', async () => {
		const clock = new FakeClock();
		const shared = new SharedPace(clock);
		const [one, two] = [shared.join(6), shared.join(6)];
		await clock.run(Promise.all([...Array(6)].map(() => one.start())));
		await clock.run(Promise.all([...Array(4)].map(() => two.start())));
		expect([one.inFlight, two.inFlight, shared.inFlight]).toEqual([6, 4, INITIAL_WINDOW]);
		// The window is full: one more waits for an item to finish.
		let started = false;
		const eleventh = two.start().then(() => (started = true));
		await clock.run(clock.sleep(1000));
		expect(started).toBe(false);
		one.finish();
		await clock.run(eleventh);
		expect([one.inFlight, two.inFlight]).toEqual([5, 5]);
	});

	it('take their turns first come, first served', async () => {
		const { clock, shared } = paceOf(1);
		const [one, two] = [shared.join(), shared.join()];
		await clock.run(one.start());
		const order: string[] = [];
		void two.start().then(() => order.push('two'));
		void one.start().then(() => order.push('one'));
		one.finish();
		await clock.run(clock.sleep(10));
		two.finish();
		await clock.run(clock.sleep(10));
		expect(order).toEqual(['two', 'one']);
	});

	it("take a run's own items in the order they asked", async () => {
		const { clock, shared } = paceOf(1);
		const run = shared.join();
		await clock.run(run.start());
		const order = startAll(run, 3);
		for (let item = 0; item < 3; item++) {
			run.finish();
			await at(clock, 10 * (item + 1));
		}
		expect(order).toEqual(['0', '1', '2']);
	});

	it('give every turn that fits when a run leaves with several in flight', async () => {
		const { clock, shared } = paceOf(2);
		const [one, two] = [shared.join(), shared.join()];
		await clock.run(Promise.all([one.start(), one.start()]));
		const order = startAll(two, 2);
		one.leave();
		await at(clock, 1);
		expect(order).toEqual(['0', '1']);
	});

	it('keep what a run said is yet to start when a retried item asks without saying', async () => {
		const { clock, shared } = paceOf(10);
		const run = shared.join();
		await clock.run(run.start(5));
		await clock.run(run.start());
		expect(run.queued).toBe(3);
	});

	it('a run joins with Max Concurrency unset at the default ceiling', () => {
		expect(new SharedPace(new FakeClock()).join().max).toBe(AUTO_MAX_CONCURRENCY);
	});

	it('says a run is full (the router then reads ahead) while the window or its own Concurrency lets no item start', async () => {
		const { clock, shared } = paceOf(2);
		const run = shared.join(4);
		await clock.run(Promise.all([run.start(), run.start()]));
		expect(run.full).toBe(true);
		run.finish();
		expect(run.full).toBe(false);
		const capped = shared.join(1);
		await clock.run(capped.start());
		expect(capped.full).toBe(true);
		// Its own Concurrency: full at exactly that many in flight.
		const own = paceOf(10);
		const two = own.shared.join(2);
		await own.clock.run(two.start());
		expect(two.full).toBe(false);
		await own.clock.run(two.start());
		expect(two.full).toBe(true);
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
		run.leave();
		expect(shared.inFlight).toBe(0);
		run.finish();
		expect(shared.inFlight).toBe(0);
	});

	it('are told by each router how many of its items are yet to start', async () => {
		const clock = new FakeClock();
		const shared = new SharedPace(clock);
		const run = shared.join();
		const seen: Array<number | undefined> = [];
		await clock.run(
			runEachItem(
				3,
				run,
				async () => {
					seen.push(run.queued);
					await clock.sleep(10);
				},
				undefined,
				clock,
			),
		);
		expect(seen).toEqual([2, 1, 0]);
	});
});

describe('requests that say nothing of what follows them (the trigger, a picker, a tool)', () => {
	it("take the next free place before a run's items waiting for one", async () => {
		const { clock, shared } = paceOf(2);
		const run = shared.join();
		await clock.run(Promise.all([run.start(), run.start()]));
		const order = startAll(run, 3);
		const picker = shared.join(1, 3, true);
		void picker.start().then(() => order.push('picker'));
		run.finish();
		await clock.run(clock.sleep(1));
		expect(order).toEqual(['picker']);
		run.finish();
		await clock.run(clock.sleep(1));
		expect(order).toEqual(['picker', '0']);
	});

	it('take the next start the pace allows, not one booked after the starts runs booked', async () => {
		// One start a second (a 20 ms round trip, a window of 0.02): the run's next start is booked.
		const { clock, shared } = paceOf(0.02);
		shared.answered(20, 'GET users');
		const run = shared.join();
		await clock.run(run.start());
		run.finish();
		const order = startAll(run, 2);
		await clock.run(clock.sleep(1));
		const picker = shared.join(1, 3, true);
		let pickerAt = 0;
		void picker.start().then(() => (pickerAt = clock.now()));
		await at(clock, 5000);
		expect(pickerAt).toBeLessThanOrEqual(2000);
		expect(order).toEqual(['0']);
	});

	/** A pace of one, taken by a run's item, and an open-ended request beside it. */
	async function takenByRun() {
		const { clock, shared } = paceOf(1);
		const run = shared.join();
		await clock.run(run.start());
		return { clock, shared, run, poll: shared.join(1, 3, true) };
	}

	it('served before their deadline, take nothing from the turns that wait when it comes', async () => {
		const { clock, run, poll } = await takenByRun();
		const polled = startAll(poll, 1, 500);
		const order = startAll(run, 1);
		run.finish();
		await at(clock, 10);
		expect(polled).toEqual(['0']);
		await at(clock, 600);
		poll.finish();
		await at(clock, 610);
		expect(order).toEqual(['0']);
	});

	it.each([
		['until their deadline (a poll budget)', 700, 700],
		['without one (a picker), OPEN_ENDED_WAIT_MS', undefined, OPEN_ENDED_WAIT_MS],
	])(
		'wait for a turn %s: then it fails as busy and leaves the pace',
		async (_title, deadline, busyAt) => {
			const { clock, shared } = await takenByRun();
			const joined = [...shared['runs']];
			let failedAt: number | undefined;
			void openEndedTurn(shared, deadline, clock.now()).catch((error: unknown) => {
				if (error instanceof PaceBusyError) failedAt = clock.now();
			});
			await at(clock, busyAt - 1);
			expect(failedAt).toBeUndefined();
			await at(clock, busyAt + 1);
			expect(failedAt).toBe(busyAt);
			// A turn left behind would count as a run with items yet to start.
			expect([...shared['runs']]).toEqual(joined);
		},
	);

	it('wait no longer than they are told: then the start fails as busy, and leaves no place taken', async () => {
		const { clock, shared, run, poll } = await takenByRun();
		const order = startAll(poll, 1, 500);
		await at(clock, 499);
		expect(order).toEqual([]);
		await at(clock, 501);
		expect(order).toEqual(['busy']);
		run.finish();
		expect(shared.inFlight).toBe(0);
	});
});

describe('a pace idle longer than a retransmission timeout (RFC 5681, 4.1)', () => {
	/** A pace whose run learned a window of 40 past slow start against 10 ms answers, then left at 100. */
	async function learned(threshold = 40) {
		const { clock, shared } = paceOf(40, { threshold });
		const first = shared.join();
		await clock.run(first.start());
		for (let answer = 0; answer < ROUND_TRIP_SAMPLES; answer++) shared.answered(10, 'POST tags');
		await at(clock, 100);
		first.leave();
		return { clock, shared };
	}

	it('starts afresh: the window no larger than at first, slow start up to the threshold a refusal set', async () => {
		const { clock, shared } = await learned(30);
		await at(clock, 200);
		const run = shared.join();
		await clock.run(Promise.all([...Array(INITIAL_WINDOW)].map(() => run.start())));
		expect(shared.window).toMatchObject({ size: INITIAL_WINDOW, threshold: 30, decreasedAt: 200 });
		// The round trips are forgotten: 100 ms answers are the service's speed, not a queue over 10.
		for (let answer = 0; answer < ROUND_TRIP_SAMPLES + 4; answer++) {
			await at(clock, 300 + answer);
			shared.answered(100, 'POST tags');
		}
		expect(shared.window.size).toBeGreaterThan(INITIAL_WINDOW);
	});

	it.each([
		['a run right after another (back to back)', 101],
		['a run after a spell no longer than the timeout', 110],
	])('keeps what it learned: %s', async (_name, startAt) => {
		const { clock, shared } = await learned();
		await at(clock, startAt);
		await clock.run(shared.join().start());
		expect(shared.window.size).toBe(40);
	});

	it.each([
		['keeps what it learned within the smoothed round trip and 4 times its variation', 45, 40],
		['starts afresh past it', 50, INITIAL_WINDOW],
	])('with answers of 10, 30 and 30 ms (a timeout of 47.2 ms): %s', async (_name, spell, size) => {
		const { clock, shared } = paceOf(40);
		const run = shared.join();
		await clock.run(run.start());
		for (const ms of [10, 30, 30]) shared.answered(ms, 'POST tags');
		run.leave();
		await at(clock, spell);
		await clock.run(shared.join().start());
		expect(shared.window.size).toBe(size);
	});

	it('keeps it while starts wait their turn (a slow pace is not idle)', async () => {
		const { clock, shared } = paceOf(0.02);
		shared.answered(20, 'GET users');
		const run = shared.join();
		await clock.run(
			Promise.all([run.start(), run.start()].map(async (start) => (await start, run.finish()))),
		);
		expect(shared.window.size).toBe(0.02);
	});
});

describe('a pace found empty (no item in flight, none waiting)', () => {
	/** How many of 14 starts went by 1 ms, on a pace of `window` whose starts are 10 ms apart. */
	async function startedAtOnce(window: Partial<Window>) {
		const { clock, shared } = paceOf(16, window);
		// Slow start paces at 4 starts a window a round trip: 640 / 4 / 16 = 10 ms apart.
		shared.answered(window.threshold === Infinity ? 640 : 160, 'POST tags');
		const order = startAll(shared.join(), 14);
		await at(clock, 1);
		return order.length;
	}

	it('lets INITIAL_WINDOW start at once before pacing the rest (fq initial quantum)', async () => {
		// The burst, then one start late by an interval (the credit every start has).
		expect(await startedAtOnce({ threshold: Infinity })).toBe(INITIAL_WINDOW + 1);
	});

	it('paces every start once a refusal taught a limit (a token bucket takes no burst)', async () => {
		expect(await startedAtOnce({ threshold: 16 })).toBe(2);
	});

	it('gives the burst only when found empty, not to starts behind one in flight', async () => {
		const { clock, shared } = paceOf(16, { threshold: Infinity });
		shared.answered(640, 'POST tags');
		const run = shared.join();
		await clock.run(Promise.all([...Array(INITIAL_WINDOW)].map(() => run.start())));
		const order = startAll(run, 4);
		await at(clock, 1);
		expect(order).toEqual(['0']);
	});
});

describe('the pace, one event at a time', () => {
	it(`starts at most STARTS_PER_TICK (${STARTS_PER_TICK}) items a turn of the timers, as Fixed does`, async () => {
		const clock = new FakeClock();
		const shared = new SharedPace(clock);
		const run = shared.join();
		let started = 0;
		for (let item = 0; item < INITIAL_WINDOW; item++) void run.start().then(() => started++);
		await settle();
		expect(started).toBe(STARTS_PER_TICK);
		await clock.run(clock.sleep(0));
		expect(started).toBe(2 * STARTS_PER_TICK);
	});

	it('a start due now goes without waiting for a timer, later in time too', async () => {
		const clock = new FakeClock();
		const shared = new SharedPace(clock);
		await at(clock, 100);
		let started = 0;
		void shared
			.join()
			.start()
			.then(() => started++);
		await settle();
		expect(started).toBe(1);
	});

	it.each([
		['a round trip of 40 ms, a window of 4: one every 10 ms', 40, [0, 0, 10, 20]],
		['before any answer: at once', undefined, [0, 0, 0, 0]],
		['a round trip of 4 ms, a window of 4: one every ms', 4, [0, 0, 1, 2]],
	])('starts asked at once are spread over the round trip: %s', async (_t, ms, times) => {
		const { clock, shared } = paceOf(4);
		if (ms !== undefined) shared.answered(ms, 'POST tags');
		const run = shared.join();
		const started: number[] = [];
		await clock.run(
			Promise.all([...Array(4)].map(async () => (await run.start(), started.push(clock.now())))),
		);
		expect(started).toEqual(times);
	});

	it('counts the window in use when it was full since the request left, though items ended since', async () => {
		const { clock, shared } = paceOf(4);
		const run = shared.join();
		await clock.run(Promise.all([...Array(4)].map(() => run.start())));
		await at(clock, 20);
		run.finish();
		run.finish();
		shared.answered(20, 'POST tags');
		const grown = shared.window.size;
		expect(grown).toBeGreaterThan(4);
		// A request sent after the window was last full: it was not in use for it.
		await at(clock, 50);
		shared.answered(20, 'POST tags');
		expect(shared.window.size).toBe(grown);
	});

	/** Whether a full pace of `size` past slow start, answers after `ms`, grows with `queued` items yet to start. */
	async function growsWith(size: number, ms: number, queued: number, leftBehind = 0) {
		const { clock, shared } = paceOf(size);
		shared.answered(ms, 'POST tags');
		const gone = shared.join();
		gone.queued = leftBehind;
		gone.leave();
		const run = shared.join();
		await clock.run(Promise.all([...Array(size)].map(() => run.start())));
		run.queued = queued;
		shared.answered(ms, 'POST tags');
		return shared.window.size > size;
	}

	it.each([
		[
			'more than a second of items yet to start at its pace (5 ms apart): grows',
			4,
			20,
			997,
			0,
			true,
		],
		['those items fit in a second: grows no more', 4, 20, 100, 0, false],
		['exactly a second of them (10 ms apart): still grows', 10, 100, 100, 0, true],
		['a run that left with 1,000 yet to start: counts no more', 10, 100, 0, 1000, false],
	])('past slow start, %s', async (_name, size, ms, queued, leftBehind, grows) => {
		expect(await growsWith(size, ms, queued, leftBehind)).toBe(grows);
	});

	it('a second refusal of a request sent before the decrease: one less, not DECREASE again', async () => {
		const { clock, shared } = paceOf(8);
		const run = shared.join();
		await clock.run(Promise.all([...Array(8)].map(() => run.start())));
		await at(clock, 100);
		void shared.refused(run, 1000, 40);
		await at(clock, 101);
		void shared.refused(run, 1000, 40);
		expect(shared.window.size).toBe(7);
	});

	it('an open-ended request waits out a refusal in its place: it keeps its slot', async () => {
		const { clock, shared } = paceOf(4);
		const poll = shared.join(1, 3, true);
		await clock.run(poll.start());
		void shared.refused(poll, 1000, 20);
		await at(clock, 500);
		expect(shared.inFlight).toBe(1);
	});

	it('a refusal takes the window down; the item waits off its place, then takes one again', async () => {
		const { clock, shared } = paceOf(8);
		const run = shared.join();
		await clock.run(Promise.all([...Array(8)].map(() => run.start())));
		await at(clock, 100);
		const waiting = shared.refused(run, 1000, 40);
		// To DECREASE of itself (no more than the 8 in flight).
		expect(shared.window).toMatchObject({ size: 8 * 0.9, decreasedAt: 100 });
		expect(shared.inFlight).toBe(7);
		// The window is full: once an item ends, the waiting one takes its place, after its wait.
		run.finish();
		await clock.run(waiting);
		expect([clock.now(), shared.inFlight]).toEqual([1100, 7]);
	});

	it('compares each kind of request with its own baseline: a slow write after quick reads is no queue', async () => {
		const { shared } = paceOf(10);
		for (let answer = 0; answer < ROUND_TRIP_SAMPLES; answer++) shared.answered(5, 'GET users');
		for (let answer = 0; answer < 2 * ROUND_TRIP_SAMPLES; answer++)
			shared.answered(60, 'POST tags');
		expect(shared.window.size).toBe(10);
		expect(shared.window.probe).toBeUndefined();
	});
});
