/**
 * The decisions that keep items on one record in item order (actions/itemOrder.ts), rule by rule:
 * which record each operation's items change, what counts as the same record, and which item
 * starts next.
 */
import { ItemOrder, recordKey } from '../../nodes/DataIntegrationManagement/actions/itemOrder';
import { operationsByResource } from '../../nodes/DataIntegrationManagement/actions/router';

describe('which record an operation changes', () => {
	const recordParameters = Object.fromEntries(
		Object.entries(operationsByResource).flatMap(([resource, operations]) =>
			Object.entries(operations).map(([name, operation]) => [
				`${resource}.${name}`,
				operation.record,
			]),
		),
	);

	it.each([
		['asset.update', 'assetId'],
		['tag.update', 'tagId'],
		['tag.deleteRelation', 'tagId'],
		['integration.updateSchemas', 'integrationId'],
		// Creates of one name run in order: a service that refuses a second tag of one name then
		// refuses the same item as one at a time would.
		['tag.create', 'name'],
		['asset.create', 'name'],
		['connector.create', 'name'],
		// Reads are never held back.
		['integration.get', undefined],
		['integration.getSchemas', undefined],
		['integration.getColumns', undefined],
		['user.getAll', undefined],
		['auditLog.getAll', undefined],
	])('%s: %s', (operation, parameter) => {
		expect(recordParameters[operation]).toBe(parameter);
	});

	it('the table above names every operation of the node', () => {
		expect(Object.keys(recordParameters)).toHaveLength(12);
	});

	it('every operation that changes data names its record, and no read does', () => {
		for (const operations of Object.values(operationsByResource))
			for (const operation of Object.values(operations) as Array<{
				changesData: boolean;
				record?: string;
			}>)
				expect(operation.record !== undefined).toBe(operation.changesData);
	});

	it('names a parameter the operation has', () => {
		for (const operations of Object.values(operationsByResource))
			for (const { record, properties } of Object.values(operations) as Array<{
				record?: string;
				properties: Array<{ name: string }>;
			}>)
				if (record) expect(properties.map(({ name }) => name)).toContain(record);
	});
});

describe('the same record', () => {
	it.each<[unknown, string | undefined]>([
		['tag_1', 'tag_1'],
		// Spaces around and case: a service may take these for one id or name.
		['  tag_1 ', 'tag_1'],
		['TAG_1', 'tag_1'],
		// A number or true/false is sent as its text, so it names the record its text names.
		[42, '42'],
		[true, 'true'],
		// Nothing to keep in order: the item fails on its own before any request.
		['', undefined],
		['   ', undefined],
		[undefined, undefined],
		[null, undefined],
		[{ id: 'tag_1' }, undefined],
		[['tag_1'], undefined],
	])('%j → %j', (value, key) => {
		expect(recordKey(value)).toBe(key);
	});
});

describe('which item starts next', () => {
	it('an item on a record no earlier item holds is ready at once, lowest first', () => {
		const order = new ItemOrder();
		order.admit(0, 'a');
		order.admit(1, 'b');
		order.admit(2, undefined);
		expect([order.next(), order.next(), order.next(), order.next()]).toEqual([0, 1, 2, undefined]);
		expect(order.waiting).toBe(0);
	});

	it('an item on a record an earlier item holds waits, even once that one has started', () => {
		const order = new ItemOrder();
		order.admit(0, 'a');
		expect(order.next()).toBe(0);
		order.admit(1, 'a');
		expect([order.hasReady, order.waiting]).toEqual([false, 1]);
	});

	it('reads never wait, whatever is in flight', () => {
		const order = new ItemOrder();
		order.admit(0, 'a');
		order.admit(1, undefined);
		order.admit(2, undefined);
		expect([order.next(), order.next(), order.next()]).toEqual([0, 1, 2]);
	});

	it('the end of an item makes the next item on its record ready, and only that one', () => {
		const order = new ItemOrder();
		[0, 1, 2].forEach((itemIndex) => order.admit(itemIndex, 'a'));
		expect(order.next()).toBe(0);
		order.done(0);
		expect([order.next(), order.next(), order.waiting]).toEqual([1, undefined, 1]);
		order.done(1);
		expect([order.next(), order.waiting]).toEqual([2, 0]);
	});

	it('a released item goes before later ready items', () => {
		const order = new ItemOrder();
		order.admit(0, 'a');
		order.admit(1, 'a');
		order.admit(2, 'b');
		order.admit(3, 'c');
		expect(order.next()).toBe(0);
		order.done(0);
		expect([order.next(), order.next(), order.next()]).toEqual([1, 2, 3]);
	});

	it('a record is free again once its last item ended', () => {
		const order = new ItemOrder();
		order.admit(0, 'a');
		expect(order.next()).toBe(0);
		order.done(0);
		order.admit(1, 'a');
		expect(order.next()).toBe(1);
	});

	it('the end of a read releases nothing', () => {
		const order = new ItemOrder();
		order.admit(0, undefined);
		order.admit(1, 'a');
		order.admit(2, 'a');
		expect([order.next(), order.next()]).toEqual([0, 1]);
		order.done(0);
		expect([order.hasReady, order.waiting]).toEqual([false, 1]);
	});
});
