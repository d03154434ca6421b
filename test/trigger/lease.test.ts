/**
 * The poll lease (trigger/lease.ts) on a fake clock: who holds it, when it expires, and that a
 * poll overtaken after its lease ran out cannot take the lease back or remove its successor's.
 */
import { PollLease, type LeaseRecord } from '../../nodes/DataIntegrationManagement/trigger/lease';

const KEY = 'lease';
const DURATION = 45_000;

function fakeClock(start = 1_000_000) {
	let now = start;
	return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe('PollLease', () => {
	it('is taken by one poll at a time, and free again once released', () => {
		const clock = fakeClock();
		const store = new Map<string, LeaseRecord>();
		const first = PollLease.take(store, KEY, DURATION, clock.now)!;

		expect(first.held).toBe(true);
		expect(PollLease.take(store, KEY, DURATION, clock.now)).toBeUndefined();
		first.release();
		expect(store.has(KEY)).toBe(false);
		expect(first.held).toBe(false);
		expect(PollLease.take(store, KEY, DURATION, clock.now)).toBeDefined();
	});

	it('expires one duration after it was taken or last renewed', () => {
		const clock = fakeClock();
		const store = new Map<string, LeaseRecord>();
		const holder = PollLease.take(store, KEY, DURATION, clock.now)!;

		clock.advance(DURATION - 1);
		holder.renew();
		clock.advance(DURATION - 1);
		expect(PollLease.take(store, KEY, DURATION, clock.now)).toBeUndefined();
		clock.advance(1);
		expect(PollLease.take(store, KEY, DURATION, clock.now)).toBeDefined();
	});

	it('stays held past its expiry while no other poll takes it', () => {
		const clock = fakeClock();
		const holder = PollLease.take(new Map(), KEY, DURATION, clock.now)!;
		clock.advance(10 * DURATION);
		expect(holder.held).toBe(true);
	});

	it('once overtaken, is no longer held, cannot be renewed back, and leaves the successor alone', () => {
		const clock = fakeClock();
		const store = new Map<string, LeaseRecord>();
		const overtaken = PollLease.take(store, KEY, DURATION, clock.now)!;
		clock.advance(DURATION);
		const successor = PollLease.take(store, KEY, DURATION, clock.now)!;

		expect(overtaken.held).toBe(false);
		overtaken.renew();
		overtaken.release();
		expect(successor.held).toBe(true);
		expect(PollLease.take(store, KEY, DURATION, clock.now)).toBeUndefined();
	});

	it('is held per key: polls of other nodes are not held back', () => {
		const clock = fakeClock();
		const store = new Map<string, LeaseRecord>();
		expect(PollLease.take(store, 'workflow-1:node-1', DURATION, clock.now)).toBeDefined();
		expect(PollLease.take(store, 'workflow-1:node-2', DURATION, clock.now)).toBeDefined();
		expect(PollLease.take(store, 'workflow-2:node-1', DURATION, clock.now)).toBeDefined();
		expect(PollLease.take(store, 'workflow-1:node-1', DURATION, clock.now)).toBeUndefined();
	});

	describe('untilFree (what a poll that found the lease held waits for before it returns)', () => {
		/** Whether `promise` has settled after a few turns of the microtask queue. */
		async function hasSettled(promise: Promise<void>): Promise<boolean> {
			let settled = false;
			void promise.then(() => (settled = true));
			for (let turn = 0; turn < 10; turn++) await Promise.resolve();
			return settled;
		}

		it('settles at once when no poll holds the lease', async () => {
			expect(await hasSettled(PollLease.untilFree(new Map(), KEY))).toBe(true);
		});

		it('settles when the holder releases the lease, not before', async () => {
			const clock = fakeClock();
			const store = new Map<string, LeaseRecord>();
			const holder = PollLease.take(store, KEY, DURATION, clock.now)!;
			const waiting = PollLease.untilFree(store, KEY);

			holder.renew();
			expect(await hasSettled(waiting)).toBe(false);
			holder.release();
			expect(await hasSettled(waiting)).toBe(true);
		});

		it('after a takeover, waits for the poll that took the lease over', async () => {
			const clock = fakeClock();
			const store = new Map<string, LeaseRecord>();
			PollLease.take(store, KEY, DURATION, clock.now);
			const waiting = PollLease.untilFree(store, KEY);
			clock.advance(DURATION);
			const successor = PollLease.take(store, KEY, DURATION, clock.now)!;

			expect(await hasSettled(waiting)).toBe(false);
			successor.release();
			expect(await hasSettled(waiting)).toBe(true);
		});
	});
});
