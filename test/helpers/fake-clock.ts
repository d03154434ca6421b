/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * A clock for simulations: time moves only when every pending promise callback has run and the
 * earliest sleeper is woken, so a run is the same every time and takes no real time.
 */
import type { Clock } from '../../nodes/DataIntegrationManagement/pacing/pacer';

interface Sleeper {
	at: number;
	order: number;
	wake: () => void;
}

/** Lets every promise callback queued so far (and those they queue) run. */
export const settle = async () => await new Promise<void>((resolve) => setImmediate(resolve));

export class FakeClock implements Clock {
	private time = 0;
	private order = 0;
	private sleepers: Sleeper[] = [];

	now(): number {
		return this.time;
	}

	async sleep(ms: number): Promise<void> {
		await new Promise<void>((wake) =>
			this.sleepers.push({ at: this.time + Math.max(0, ms), order: this.order++, wake }),
		);
	}

	/** Runs the clock until `work` settles, and returns what it gave. */
	async run<T>(work: Promise<T>): Promise<T> {
		let settled = false;
		const watched = work.finally(() => (settled = true));
		for (;;) {
			await settle();
			if (settled) return await watched;
			if (!this.sleepers.length) throw new Error('the simulation is stuck: nothing sleeps');
			const next = this.sleepers.reduce((a, b) =>
				b.at < a.at || (b.at === a.at && b.order < a.order) ? b : a,
			);
			this.sleepers = this.sleepers.filter((sleeper) => sleeper !== next);
			this.time = next.at;
			next.wake();
		}
	}
}

export { seededRandom } from './random';
