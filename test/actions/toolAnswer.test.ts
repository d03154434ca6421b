import type { IDataObject } from 'n8n-workflow';

import {
	fitToolAnswer,
	TOOL_ANSWER_CHARACTERS,
} from '../../nodes/DataIntegrationManagement/actions/toolAnswer';

/** `count` items of the same size (each `{"n":…,"pad":"xx…"}`). */
const items = (count: number, pad = 80): IDataObject[] =>
	Array.from({ length: count }, (_, n) => ({ n, pad: 'x'.repeat(pad) }));
const textOf = (answer: IDataObject[]) => JSON.stringify(answer).length;

describe('fitToolAnswer: a tool answer within its limit of JSON text', () => {
	it.each([
		['no items', 0, 100],
		['items well within', 3, 1_000],
		['items exactly at the limit', 10, textOf(items(10))],
	])('gives %s as they are', (_label, count, limit) => {
		const answer = items(count);
		expect(fitToolAnswer(answer, () => 'never asked', limit)).toBe(answer);
	});

	it.each([
		['one character over the limit', items(10), textOf(items(10)) - 1],
		['a long list', items(5_000), TOOL_ANSWER_CHARACTERS],
		['a long list, a small limit', items(200), 2_000],
		['one item too large alone', [{ schemas: 'y'.repeat(50_000) }], TOOL_ANSWER_CHARACTERS],
		['a first item too large, then small ones', [{ big: 'y'.repeat(50_000) }, ...items(3)], 5_000],
	])('cuts %s: the first items that fit, then a note, within the limit', (_label, all, limit) => {
		const answer = fitToolAnswer(all, () => 'set Schema', limit);
		const note = answer[answer.length - 1];
		const given = answer.slice(0, -1);

		expect(textOf(answer)).toBeLessThanOrEqual(limit);
		expect(given).toEqual(all.slice(0, given.length));
		expect(note).toEqual({
			truncated: true,
			itemsGiven: given.length,
			itemsLeftOut: all.length - given.length,
			charactersLeftOut: textOf(all) - textOf(given),
			limit,
			narrowWith: 'set Schema',
			message: `Cut to the tool answer limit of ${limit} characters: ${all.length - given.length} of ${all.length} items (${textOf(all) - textOf(given)} characters) left out. To get them, narrow the request: set Schema.`,
		});
		// One more item would not have fitted: the answer is within an item of the limit.
		const next = all[given.length];
		if (given.length && next) expect(textOf(answer) + textOf([next])).toBeGreaterThan(limit);
	});

	it('cuts in the first item too large alone, giving no item but the note', () => {
		const answer = fitToolAnswer([{ schemas: 'y'.repeat(50_000) }], () => 'set Schema');
		expect(answer).toHaveLength(1);
		expect(answer[0]).toMatchObject({ truncated: true, itemsGiven: 0, itemsLeftOut: 1 });
	});

	it('says nothing of narrowing when the operation has no field that narrows it', () => {
		const [note] = fitToolAnswer([{ big: 'y'.repeat(30_000) }]).slice(-1);
		expect(note).not.toHaveProperty('narrowWith');
		expect(note.message).toBe(
			`Cut to the tool answer limit of ${TOOL_ANSWER_CHARACTERS} characters: 1 of 1 items (30010 characters) left out.`,
		);
	});

	it('asks what narrows the answer only when it cuts, with the whole answer', () => {
		const all = items(500);
		const narrowWith = jest.fn(() => 'lower Limit');
		fitToolAnswer(items(3), narrowWith);
		expect(narrowWith).not.toHaveBeenCalled();
		fitToolAnswer(all, narrowWith);
		expect(narrowWith).toHaveBeenCalledWith(all);
	});
});
