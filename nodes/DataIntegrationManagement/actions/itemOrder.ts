/**
 * Items are rows: of two items changing one record, the later wins, whatever the concurrency.
 * Pure decisions the router applies: which record an item changes, which item starts next.
 */

/**
 * The record an item changes: its `record` value trimmed and in lower case, as a service might
 * take " tag_1" and "TAG_1" for one; none for a value the item will fail on before any request.
 */
export function recordKey(value: unknown): string | undefined {
	if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean')
		return undefined;
	const key = String(value).trim().toLowerCase();
	return key === '' ? undefined : key;
}

/**
 * Which item starts next: items are admitted in input order with their record (none for reads),
 * each ready once no earlier item on its record is left; the lowest ready item starts.
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
