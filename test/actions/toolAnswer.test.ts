import type { IDataObject } from 'n8n-workflow';

import {
	fitToolAnswer,
	TOOL_ANSWER_CHARACTERS,
	writeAnswer,
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
		expect(fitToolAnswer(answer, () => 'never asked', { characters: limit })).toBe(answer);
	});

	it.each([
		['one character over the limit', items(10), textOf(items(10)) - 1],
		['a long list', items(5_000), TOOL_ANSWER_CHARACTERS],
		['a long list, a small limit', items(200), 2_000],
		['one item too large alone', [{ schemas: 'y'.repeat(50_000) }], TOOL_ANSWER_CHARACTERS],
		['a first item too large, then small ones', [{ big: 'y'.repeat(50_000) }, ...items(3)], 5_000],
	])('cuts %s: the first items that fit, then a note, within the limit', (_label, all, limit) => {
		const answer = fitToolAnswer(all, () => 'set Schema', { characters: limit });
		const note = answer[answer.length - 1];
		const given = answer.slice(0, -1);

		expect(textOf(answer)).toBeLessThanOrEqual(limit);
		expect(given).toEqual(all.slice(0, given.length));
		expect(note).toEqual({
			truncated: true,
			itemsGiven: given.length,
			itemsLeftOut: all.length - given.length,
			charactersLeftOut: textOf(all) - textOf(given),
			characterLimit: limit,
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
			`Cut to the tool answer limit of ${TOOL_ANSWER_CHARACTERS} characters: 1 of 1 items (30010 characters) left out. Nothing this tool can set gives them in a smaller answer.`,
		);
	});

	it('asks what narrows the answer only when it cuts, with the whole answer and the items given', () => {
		const all = items(500);
		const advice = jest.fn(() => 'set Search');
		fitToolAnswer(items(3), advice);
		expect(advice).not.toHaveBeenCalled();
		const answer = fitToolAnswer(all, advice);
		expect(advice).toHaveBeenLastCalledWith(all, answer.length - 1, 'size');
	});

	it('gives fewer items when the advice for them is longer, and stays within the limit', () => {
		const all = items(100);
		const advice = (_: IDataObject[], given: number) => 'x'.repeat(given * 20);
		const answer = fitToolAnswer(all, advice, { characters: 3_000 });
		const given = answer.length - 1;
		expect(textOf(answer)).toBeLessThanOrEqual(3_000);
		expect(answer[given].narrowWith).toBe('x'.repeat(given * 20));
		// One more item, with its longer advice (in the note and its message), would not have fitted.
		const [shorter, longer] = [given, given + 1].map((count) => 'x'.repeat(count * 20));
		const more = [
			...all.slice(0, given + 1),
			{
				...answer[given],
				narrowWith: longer,
				message: (answer[given].message as string).replace(shorter, longer),
			},
		];
		expect(textOf(more)).toBeGreaterThan(3_000);
	});
});

describe('fitToolAnswer: a list that reached its Limit, which more items may match', () => {
	it('gives fewer items than Limit as they are, with no note', () => {
		const answer = items(4);
		expect(fitToolAnswer(answer, () => 'never asked', { listLimit: 5 })).toBe(answer);
	});

	it('gives Limit items, then a note that more may match and how to get them', () => {
		const all = items(5);
		const advice = jest.fn(() => 'set Until to 2026-11-01T00:00:00.001Z');
		const answer = fitToolAnswer(all, advice, { listLimit: 5 });

		expect(answer.slice(0, -1)).toEqual(all);
		expect(answer[5]).toEqual({
			truncated: true,
			itemsGiven: 5,
			limitReached: true,
			narrowWith: 'set Until to 2026-11-01T00:00:00.001Z',
			message:
				'Limit reached: more items may match past Limit (5). To get them, raise Limit or set Return All, or narrow the request: set Until to 2026-11-01T00:00:00.001Z.',
		});
		expect(advice).toHaveBeenLastCalledWith(all, 5, 'limit');
	});

	it('without advice, says to raise Limit or set Return All', () => {
		const [note] = fitToolAnswer(items(2), undefined, { listLimit: 2 }).slice(-1);
		expect(note).not.toHaveProperty('narrowWith');
		expect(note.message).toBe(
			'Limit reached: more items may match past Limit (2). To get them, raise Limit or set Return All.',
		);
	});

	it('cut by size too: counts what the size left out, says more may match past Limit, and advises narrowing only', () => {
		const all = items(200);
		const advice = jest.fn(() => 'set Search');
		const answer = fitToolAnswer(all, advice, { listLimit: 200, characters: 2_000 });
		const given = answer.length - 1;
		const charactersLeftOut = textOf(all) - textOf(all.slice(0, given));

		expect(textOf(answer)).toBeLessThanOrEqual(2_000);
		expect(advice).toHaveBeenLastCalledWith(all, given, 'size');
		expect(answer[given]).toEqual({
			truncated: true,
			itemsGiven: given,
			itemsLeftOut: 200 - given,
			charactersLeftOut,
			characterLimit: 2_000,
			limitReached: true,
			narrowWith: 'set Search',
			message: `Cut to the tool answer limit of 2000 characters: ${200 - given} of 200 items (${charactersLeftOut} characters) left out, and more items may match past Limit (200). To get them, narrow the request: set Search.`,
		});
	});
});

describe("writeAnswer: a write's tool answer, saying the change was made", () => {
	it('gives the answer whole, after changeMade, when it fits', () => {
		expect(writeAnswer({ id: 'tag_1', name: 'PII' }, 'never said')).toEqual({
			changeMade: true,
			id: 'tag_1',
			name: 'PII',
		});
	});

	it('gives an answer exactly as long as the limit whole', () => {
		const bare = JSON.stringify({ changeMade: true, id: 'x', pad: '' }).length;
		const answer = { id: 'x', pad: 'y'.repeat(100 - bare) };
		expect(writeAnswer(answer, undefined, 100)).toEqual({ changeMade: true, ...answer });
		expect(writeAnswer(answer, undefined, 99)).toMatchObject({ truncated: true });
	});

	it.each([
		['a large map', { id: 'x', changed: [{ c: 1 }], map: { big: 'y'.repeat(30_000) } }, 'map'],
		['a large scalar', { id: 'x', changed: [{ c: 1 }], map: 'y'.repeat(30_000) }, 'map'],
	])('leaves out %s, names it and the read that gives it again', (_label, answer, leftOut) => {
		const given = writeAnswer(answer, 'Integration → Get Schemas with Integration ID "x"');
		expect(textOf([given])).toBeLessThanOrEqual(TOOL_ANSWER_CHARACTERS);
		expect(given).toEqual({
			changeMade: true,
			id: 'x',
			changed: [{ c: 1 }],
			truncated: true,
			leftOut: [leftOut],
			message: `The change was made. Left out to stay within ${TOOL_ANSWER_CHARACTERS} characters: ${leftOut}. Integration → Get Schemas with Integration ID "x" gives it again.`,
		});
	});

	it('keeps the warning of an answer off the API, whatever its place, before the fields it cuts', () => {
		const fields = Object.fromEntries(Array.from({ length: 3_000 }, (_, n) => [`f_${n}`, 'value']));
		const warning = 'The answer is not what the API describes.';
		const given = writeAnswer({ id: 'x', ...fields, warning });

		expect(textOf([given])).toBeLessThanOrEqual(TOOL_ANSWER_CHARACTERS);
		expect(Object.keys(given).slice(0, 3)).toEqual(['changeMade', 'warning', 'id']);
		expect(given).toMatchObject({ changeMade: true, warning, truncated: true });
		expect(writeAnswer({ id: 'x' })).toEqual({ changeMade: true, id: 'x' });
	});

	it('gives the first entries of a list too large, the fields after it that fit, and says how many it left out', () => {
		const changed = Array.from({ length: 1_000 }, (_, n) => ({ column: `c${n}`, hashed: true }));
		const given = writeAnswer({ id: 'x', changed, map: { a: 1 } }, undefined, 5_000);
		const part = given.changed as IDataObject[];

		expect(textOf([given])).toBeLessThanOrEqual(5_000);
		expect(part).toEqual(changed.slice(0, part.length));
		expect(part.length).toBeGreaterThan(100);
		// A field after the list still comes when it fits.
		expect(given).toMatchObject({
			changeMade: true,
			id: 'x',
			map: { a: 1 },
			leftOut: [`${1_000 - part.length} of the 1000 entries of changed`],
			message: `The change was made. Left out to stay within 5000 characters: ${1_000 - part.length} of the 1000 entries of changed.`,
		});
	});
});
