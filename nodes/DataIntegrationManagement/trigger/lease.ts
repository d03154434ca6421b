/**
 * One poll at a time per trigger node. n8n starts a poll on every tick without waiting for the
 * previous one: its default scheduler on every cron tick, its durable scheduler for every Poll
 * Times entry due (two entries of one node fall in the same second at the top of each hour). Both
 * polls would read the same stored cursor and emit the same entries, and under the durable
 * scheduler each poll even has its own copy of the static data. So a poll first takes this
 * lease, held in the n8n process for the workflow's node; a poll that finds it held by another,
 * unexpired, emits nothing (the running poll, or the next one, emits what is new). Nothing here
 * awaits, so two polls cannot both take it.
 *
 * The lease expires, so a poll that hangs holds the trigger back for at most one lease duration.
 * The holder renews it as it reads, and checks that no other poll took it over before it stores
 * its cursor and emits: a poll that outlived its lease and was overtaken leaves both to the poll
 * that took over.
 *
 * A poll that finds the lease held waits for it to be free before it returns (`untilFree`): n8n
 * 2.x releases the workflow's expression isolate when any of its polls ends, also one that did
 * not acquire it, and the running poll's next request then fails (docs/n8n-schedulers.md).
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
