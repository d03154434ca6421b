/**
 * Items are rows: where two items change the same record, the later one wins, whatever the
 * concurrency. Pure decisions, no I/O: which record an item changes (`recordKey`), and which
 * item may start next (`ItemOrder`). The router's loop applies them.
 */

/**
 * The record an item changes, from the value of the operation's `record` parameter (an id, or a
 * create's name): that value as text, trimmed and in lower case, so that ids or names a service
 * might take for one (" tag_1", "TAG_1") are kept in order too. Undefined (no order to keep)
 * when the value is not text, a number or true/false, or is empty: the item then fails on its
 * own, before any request.
 */
export function recordKey(value: unknown): string | undefined {
	if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean')
		return undefined;
	const key = String(value).trim().toLowerCase();
	return key === '' ? undefined : key;
}

/**
 * Which item starts next. An item is admitted in input order with the record it changes (or
 * none, for reads); it is ready at once unless an earlier item on its record is still admitted
 * and not done, and then waits for that one. The next to start is always the lowest ready item.
 */
export class ItemOrder {
	/** Per record, the admitted items not done yet, in input order: the first is ready or running. */
	private readonly byRecord = new Map<string, number[]>();

	private readonly recordOf = new Map<number, string>();

	/** Ready to start, lowest first. */
	private readonly ready: number[] = [];

	/** How many admitted items wait for an earlier item on their record. */
	waiting = 0;

	get hasReady(): boolean {
		return this.ready.length > 0;
	}

	admit(itemIndex: number, record: string | undefined): void {
		if (record === undefined) return this.makeReady(itemIndex);
		this.recordOf.set(itemIndex, record);
		const queue = this.byRecord.get(record);
		if (!queue) {
			this.byRecord.set(record, [itemIndex]);
			return this.makeReady(itemIndex);
		}
		queue.push(itemIndex);
		this.waiting++;
	}

	/** Takes the lowest ready item, or undefined when none is. */
	next(): number | undefined {
		return this.ready.shift();
	}

	/** `itemIndex` ended (answered, failed or skipped): the next item on its record becomes ready. */
	done(itemIndex: number): void {
		const record = this.recordOf.get(itemIndex);
		if (record === undefined) return;
		this.recordOf.delete(itemIndex);
		const queue = this.byRecord.get(record)!;
		queue.shift();
		if (!queue.length) {
			this.byRecord.delete(record);
			return;
		}
		this.waiting--;
		this.makeReady(queue[0]);
	}

	private makeReady(itemIndex: number): void {
		let at = this.ready.length;
		while (at > 0 && this.ready[at - 1] > itemIndex) at--;
		this.ready.splice(at, 0, itemIndex);
	}
}
