/**
 * Concurrency Fixed: up to a set number of items in flight, whatever the service says (the router
 * waits out a 429 in the item's place), and the waiting the router's loop shares with it.
 */
import {
	startGate,
	STARTS_PER_TICK,
	systemClock,
	type Clock,
	type Concurrency,
} from '../pacing/pacer';

/** Callers waiting for a slot, woken when one may be free. */
export class Waiters {
	private readonly waiting: Array<() => void> = [];

	async wait(): Promise<void> {
		await new Promise<void>((resolve) => this.waiting.push(resolve));
	}

	wakeAll(): void {
		for (const wake of this.waiting.splice(0)) wake();
	}
}

/** Up to `max` items in flight; a 429 is waited out in the item's slot. */
export class FixedConcurrency implements Concurrency {
	private inFlight = 0;
	private readonly waiters = new Waiters();
	private readonly gate: (() => Promise<void>) | undefined;

	constructor(
		readonly max: number,
		clock: Clock = systemClock,
	) {
		this.gate = max > 1 ? startGate(STARTS_PER_TICK, clock) : undefined;
	}

	get full(): boolean {
		return this.inFlight >= this.max;
	}

	async start(): Promise<void> {
		while (this.full) await this.waiters.wait();
		this.inFlight++;
		await this.gate?.();
	}

	finish(): void {
		this.inFlight--;
		this.waiters.wakeAll();
	}
}
