import type { IDataObject } from 'n8n-workflow';

/**
 * One poll at a time per trigger node. n8n's default scheduler starts a poll on every cron tick
 * without waiting for the previous one, and overlapping polls share the node's static data: each
 * would read the same stored cursor and emit the same entries. So a poll first takes this lease,
 * kept in that same static data; a poll that finds it held by another, unexpired, emits nothing
 * (the running poll, or the next one, emits what is new). Nothing here awaits, so taking the lease
 * cannot interleave with another poll taking it.
 *
 * The lease expires, so one left behind (n8n killed while it was held, and the static data saved
 * meanwhile) holds the trigger back for at most one lease duration. The holder renews it as it
 * reads, and checks that no other poll took it over before it stores its cursor and emits: a
 * poll that outlived its lease and was overtaken leaves both to the poll that took over.
 */
export class PollLease {
	private constructor(
		private readonly store: IDataObject,
		private readonly key: string,
		private readonly token: string,
		private readonly durationMs: number,
		private readonly now: () => number,
	) {}

	/** The lease, or undefined when another poll holds it. */
	static take(
		store: IDataObject,
		key: string,
		durationMs: number,
		now: () => number = Date.now,
	): PollLease | undefined {
		const current = store[key] as { expiresAt?: unknown } | undefined;
		const expiresAt = typeof current === 'object' && current !== null ? current.expiresAt : 0;
		if (typeof expiresAt === 'number' && expiresAt > now()) return undefined;
		const token = `${now().toString(36)}-${Math.random().toString(36).slice(2)}`;
		const lease = new PollLease(store, key, token, durationMs, now);
		lease.write();
		return lease;
	}

	/**
	 * Whether no other poll took the lease over. Past its expiry it is still held until another
	 * poll takes it: nobody else has read meanwhile.
	 */
	get held(): boolean {
		const current = this.store[this.key] as { token?: unknown } | undefined;
		return typeof current === 'object' && current !== null && current.token === this.token;
	}

	/** Extends the lease by its duration from now, if this poll still holds it. */
	renew(): void {
		if (this.held) this.write();
	}

	/** Gives the lease up, if this poll still holds it. */
	release(): void {
		if (this.held) delete this.store[this.key];
	}

	private write(): void {
		this.store[this.key] = { token: this.token, expiresAt: this.now() + this.durationMs };
	}
}
