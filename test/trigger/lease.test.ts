/**
 * The poll lease (trigger/lease.ts) on a fake clock: who holds it, when it expires, and that a
 * poll overtaken after its lease ran out cannot take the lease back or remove its successor's.
 */
import type { IDataObject } from 'n8n-workflow';

import { PollLease } from '../../nodes/DataIntegrationManagement/trigger/lease';

const KEY = 'lease';
const DURATION = 45_000;

function fakeClock(start = 1_000_000) {
	let now = start;
	return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe('PollLease', () => {
	it('is taken by one poll at a time, and free again once released', () => {
		const clock = fakeClock();
		const store: IDataObject = {};
		const first = PollLease.take(store, KEY, DURATION, clock.now)!;

		expect(first.held).toBe(true);
		expect(PollLease.take(store, KEY, DURATION, clock.now)).toBeUndefined();
		first.release();
		expect(store[KEY]).toBeUndefined();
		expect(PollLease.take(store, KEY, DURATION, clock.now)).toBeDefined();
	});

	it('expires one duration after it was taken or last renewed', () => {
		const clock = fakeClock();
		const store: IDataObject = {};
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
		const holder = PollLease.take({}, KEY, DURATION, clock.now)!;
		clock.advance(10 * DURATION);
		expect(holder.held).toBe(true);
	});

	it('once overtaken, is no longer held, cannot be renewed back, and leaves the successor alone', () => {
		const clock = fakeClock();
		const store: IDataObject = {};
		const overtaken = PollLease.take(store, KEY, DURATION, clock.now)!;
		clock.advance(DURATION);
		const successor = PollLease.take(store, KEY, DURATION, clock.now)!;

		expect(overtaken.held).toBe(false);
		overtaken.renew();
		overtaken.release();
		expect(successor.held).toBe(true);
		expect(PollLease.take(store, KEY, DURATION, clock.now)).toBeUndefined();
	});

	it('takes over anything in its place that is not a lease with a future expiry', () => {
		const clock = fakeClock();
		for (const left of [null, 'text', 42, [], { expiresAt: 'soon' }, { token: 'x' }]) {
			expect(
				PollLease.take({ [KEY]: left } as IDataObject, KEY, DURATION, clock.now),
			).toBeDefined();
		}
	});
});
