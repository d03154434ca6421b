/**
 * A write the service acknowledged (a success status) never fails its item: the change took
 * effect, and a failed item would make it again when the workflow is run again. When the answer
 * is not what the API describes, the item holds what the service sent and a `warning` naming the
 * request and what differs, the same field in every write operation; a write of a record holds the
 * fields it sent too, under what the service sent, as it does on the spec (actions/written.ts). Each write operation runs
 * through n8n-core against the emulator's chosen answers; the writes are walked from the node's
 * own table, so a new one is covered. Reads keep failing on such answers (./error-words.test.ts,
 * ./hostile.test.ts, test/properties/answers.property.test.ts).
 */
import type { IDataObject } from 'n8n-workflow';

import { useEmulator } from '../helpers/emulator';
import { runActionNode } from '../helpers/n8n';
import { SUCCESS_CODE } from '../emulator/choices';
import { OPERATIONS, operationsOf } from './error-walk';
import { workingParametersOf } from './working-parameters';

const { emulator, credentials } = useEmulator();

const WRITES = OPERATIONS.filter(
	({ resource, operation }) => operationsOf[resource][operation].changesData,
);

/** What `data` holds in an answer off the spec, by operation: a field of the wrong type. */
const WRONG_DATA: Record<string, { data: IDataObject; problem: string }> = {
	'tag.create': { data: { id: 42 }, problem: 'data.id should be a string' },
	'tag.update': { data: { id: 7, name: 'PII' }, problem: 'data.id should be a string' },
	'asset.create': { data: { id: null, name: 'A' }, problem: 'data.id should be a string' },
	'asset.update': { data: { name: 'A' }, problem: 'data.id should be a string' },
	'connector.create': { data: { id: ['c'] }, problem: 'data.id should be a string' },
	'integration.updateSchemas': {
		data: { schemas: { public: 'on' } },
		problem:
			'data.schemas should be an object of schema names to objects, their tables and columns objects too',
	},
};

/** The writes whose item is the record as written: the fields sent, the service's answer over them. */
const RECORD_WRITES = [
	'tag.create',
	'tag.update',
	'asset.create',
	'asset.update',
	'connector.create',
];

/** The operation run once with its working parameters, the request it sent and its body. */
async function runWrite(key: string, options: { continueOnFail?: boolean } = {}) {
	const [resource, operation] = key.split('.');
	const result = await runActionNode({
		credentials: credentials(),
		parameters: workingParametersOf(resource, operation),
		...options,
	});
	expect(emulator().requests).toHaveLength(1);
	const [{ method, path, body }] = emulator().requests;
	return { ...result, request: `${method} ${path}`, body: body as IDataObject };
}

/** The one item of a write that did not fail, with its warning. */
function warnedItem(result: Awaited<ReturnType<typeof runWrite>>, problem: string): IDataObject {
	expect(result.error).toBeUndefined();
	expect(result.items).toHaveLength(1);
	const [{ json, pairedItem }] = result.items;
	expect(pairedItem).toEqual({ item: 0 });
	expect(json.warning).toBe(
		`The service reported success for ${result.request}, but its answer is not what the API describes: ${problem}. The change counts as made, so this item holds what the service sent; running the item again would make the change again.`,
	);
	return json;
}

test('the writes are the six operations that change data', () => {
	expect(WRITES.map(({ key }) => key).sort()).toEqual(
		[...Object.keys(WRONG_DATA), 'tag.deleteRelation'].sort(),
	);
});

describe.each(WRITES.map(({ key }) => [key]))('%s', (key) => {
	/** What the item holds of the request it sent: a record's fields, else nothing. */
	const sentFields = (body: IDataObject) => (RECORD_WRITES.includes(key) ? body : {});

	it('answered as the API describes: its usual item, without a warning', async () => {
		const result = await runWrite(key);

		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(1);
		expect(result.items[0].json).not.toHaveProperty('warning');
	});

	if (RECORD_WRITES.includes(key)) {
		it("answered as the API describes: the record as written, the service's values over the fields sent", async () => {
			const data = { id: 'rec_1', name: 'As the service named it', extra: 1 };
			emulator().answerWith({ body: { code: SUCCESS_CODE, message: 'Done', data } });

			const { items, body } = await runWrite(key);

			expect(items[0].json).toEqual({ ...body, ...data });
			expect(Object.keys(items[0].json).slice(0, 3)).toEqual(['id', 'name', 'extra']);
		});
	}

	if (WRONG_DATA[key]) {
		it('answered 200 with data off the spec (a field of the wrong type): the fields as sent, and a warning', async () => {
			const { data, problem } = WRONG_DATA[key];
			emulator().answerWith({ body: { code: SUCCESS_CODE, message: 'Done', data } });

			const result = await runWrite(key);
			const item = warnedItem(result, problem);

			expect(item).toEqual({ ...sentFields(result.body), ...data, warning: item.warning });
		});

		it('answered 201 without data: a warning, even without "Continue On Fail"', async () => {
			emulator().answerWith({ status: 201, body: { code: SUCCESS_CODE, message: 'Created' } });

			const result = await runWrite(key);
			const item = warnedItem(result, 'it has no data object');

			expect(Object.keys(item)).toEqual([...Object.keys(sentFields(result.body)), 'warning']);
		});

		it('answered 200 with data that is a list: the list under data, and a warning', async () => {
			emulator().answerWith({ body: { code: SUCCESS_CODE, data: ['x', 1] } });

			const result = await runWrite(key);
			const item = warnedItem(result, 'it has no data object');

			expect(item).toEqual({ data: ['x', 1], ...sentFields(result.body), warning: item.warning });
		});
	} else {
		it('answered 200 without data or message, which is its answer: no warning', async () => {
			emulator().answerWith({ body: { code: SUCCESS_CODE } });

			const result = await runWrite(key);

			expect(result.error).toBeUndefined();
			expect(result.items[0].json).toMatchObject({ deleted: true, message: '' });
			expect(result.items[0].json).not.toHaveProperty('warning');
		});
	}

	it('answered 200 with a body that is not the envelope: the body under data, and a warning', async () => {
		emulator().answerWith({ body: ['not', 'an envelope'] });

		const item = warnedItem(
			await runWrite(key, { continueOnFail: true }),
			'it is not the JSON object the API promises',
		);

		expect(item.data).toEqual(['not', 'an envelope']);
	});

	it('answered 204, with no body: a warning, and no data the service did not send', async () => {
		emulator().answerWith({ status: 204, body: null });

		const result = await runWrite(key);
		const item = warnedItem(result, 'it is empty');

		expect(item).not.toHaveProperty('data');
		expect(item).toMatchObject(sentFields(result.body));
	});

	it('answered 200 with a body cut off mid-way: the text under data, and a warning', async () => {
		emulator().injectFault({ kind: 'malformed' });

		const item = warnedItem(await runWrite(key), 'it is not the JSON object the API promises');

		expect(item.data).toEqual(expect.stringContaining(`"code":"${SUCCESS_CODE}"`));
	});
});
