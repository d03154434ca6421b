/**
 * The shared pace: one per service and key, by a digest of them, bounded and dropped when idle;
 * runs share what it learned but keep their own items in flight, given back however they end.
 */
import { runEachItem } from '../../nodes/DataIntegrationManagement/actions/router';
import { AUTO_START } from '../../nodes/DataIntegrationManagement/transport/aimd';
import {
	IDLE_MS,
	MAX_PACES,
	PaceRegistry,
	paceKey,
	SharedPace,
} from '../../nodes/DataIntegrationManagement/transport/shared-pace';
import { FakeClock } from './fake-clock';

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

	it('gets back every slot of a run that failed, through the router loop', async () => {
		const clock = new FakeClock();
		const shared = new SharedPace(clock);
		const run = shared.join(4);
		const never = new Promise<void>(() => {});
		void runEachItem(10, run, async (itemIndex) => {
			if (itemIndex !== 1) await never;
			await clock.sleep(5);
			throw new Error('failed');
		});
		await clock.run(clock.sleep(10));
		// Item 1 failed, so no new item started; items 0, 2 and 3 hang (as in a cancelled run).
		expect(shared.inFlight).toBe(3);
		run.leave();
		expect(shared.inFlight).toBe(0);
		run.finish();
		expect(shared.inFlight).toBe(0);
	});
});
