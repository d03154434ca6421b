/**
 * One poll at a time per trigger node: n8n starts a poll on every tick (and the durable scheduler
 * one per Poll Times entry due) without waiting for the last, and both would emit the same
 * entries. A poll first takes this lease in the n8n process; one that finds it held emits nothing,
 * and waits until it is free before it returns (docs/n8n-schedulers.md). The lease expires, so a
 * hung poll holds the trigger back for one lease duration; the holder renews it as it reads.
 */
export interface LeaseRecord {
	token: string;
	expiresAt: number;
	/** Settles once the holder gives the lease up, or another poll takes it over. */
	ended: Promise<void>;
	end: () => void;
}

export class PollLease {
	/** Settles when this poll is over (see LeaseRecord). */
	private readonly ended: Promise<void>;

	private readonly end: () => void;

	private constructor(
		private readonly holders: Map<string, LeaseRecord>,
		private readonly key: string,
		private readonly token: string,
		private readonly durationMs: number,
		private readonly now: () => number,
	) {
		let end!: () => void;
		this.ended = new Promise<void>((resolve) => (end = resolve));
		this.end = end;
	}

	/** The lease on `key`, or undefined while another poll holds it. */
	static take(
		holders: Map<string, LeaseRecord>,
		key: string,
		durationMs: number,
		now: () => number = Date.now,
	): PollLease | undefined {
		const current = holders.get(key);
		if (current && current.expiresAt > now()) return undefined;
		current?.end();
		const token = `${now().toString(36)}-${Math.random().toString(36).slice(2)}`;
		const lease = new PollLease(holders, key, token, durationMs, now);
		lease.write();
		return lease;
	}

	/** Settles once no poll holds the lease on `key`, waiting for each holder in turn. */
	static async untilFree(holders: Map<string, LeaseRecord>, key: string): Promise<void> {
		for (let current = holders.get(key); current; current = holders.get(key)) await current.ended;
	}

	/**
	 * Whether no other poll took the lease over. Past its expiry it is still held until another
	 * poll takes it: nobody else has read meanwhile.
	 */
	get held(): boolean {
		return this.holders.get(this.key)?.token === this.token;
	}

	/** Extends the lease by its duration from now, if this poll still holds it. */
	renew(): void {
		if (this.held) this.write();
	}

	/** Gives the lease up, if this poll still holds it; either way this poll is over. */
	release(): void {
		if (this.held) this.holders.delete(this.key);
		this.end();
	}

	private write(): void {
		const { token, ended, end } = this;
		this.holders.set(this.key, { token, expiresAt: this.now() + this.durationMs, ended, end });
	}
}
