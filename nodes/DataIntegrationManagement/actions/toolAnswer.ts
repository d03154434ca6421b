import type { IDataObject } from 'n8n-workflow';

/**
 * The most characters of JSON text one answer of the tool form holds. n8n hands a model the
 * JSON text of every output item's json, whole (docs/design.md, "What a tool answers").
 */
export const TOOL_ANSWER_CHARACTERS = 20_000;

/**
 * What a read's answer cut after its first `given` items tells the model to set for the items
 * left out, from what is set and what the whole answer, `items`, holds; undefined: nothing can.
 */
export type Advice = (items: IDataObject[], given: number) => string | undefined;

const size = (value: unknown) => JSON.stringify(value).length;

/** The length of the JSON text of an array whose elements' texts are `sum` characters in all. */
const arrayText = (sum: number, count: number) => 2 + sum + Math.max(count - 1, 0);

/** The item closing a cut answer: what was left out, and what to set to get it. */
function cutNote(
	counts: { given: number; all: number; charactersLeftOut: number; limit: number },
	narrowWith: string | undefined,
): IDataObject {
	const leftOut = counts.all - counts.given;
	return {
		truncated: true,
		itemsGiven: counts.given,
		itemsLeftOut: leftOut,
		charactersLeftOut: counts.charactersLeftOut,
		limit: counts.limit,
		...(narrowWith && { narrowWith }),
		message: `Cut to the tool answer limit of ${counts.limit} characters: ${leftOut} of ${counts.all} items (${counts.charactersLeftOut} characters) left out.${narrowWith ? ` To get them, narrow the request: ${narrowWith}.` : ''}`,
	};
}

/**
 * `items` as the tool form answers a read: as they are when their JSON text fits in `limit`
 * characters; else the most first items that fit together with a closing note that says how
 * many items and characters were left out and what `advice` tells to set for them. An item too
 * large alone is left out with the rest: the note then stands alone.
 */
export function fitToolAnswer(
	items: IDataObject[],
	advice?: Advice,
	limit = TOOL_ANSWER_CHARACTERS,
): IDataObject[] {
	const sums = [0];
	for (const item of items) sums.push(sums[sums.length - 1] + size(item));
	const whole = arrayText(sums[items.length], items.length);
	if (whole <= limit) return items;
	const noteAfter = (given: number) =>
		cutNote(
			{
				given,
				all: items.length,
				charactersLeftOut: whole - arrayText(sums[given], given),
				limit,
			},
			advice?.(items, given),
		);
	let given = 0;
	while (arrayText(sums[given + 1], given + 1) <= limit) given++;
	let note = noteAfter(given);
	while (given > 0 && arrayText(sums[given] + size(note), given + 1) > limit)
		note = noteAfter(--given);
	return [...items.slice(0, given), note];
}

/**
 * A write's answer in the tool form: `changeMade: true`, then what the operation gives. When that
 * is larger than `limit`, its fields in order while they fit (of a list, its first entries), then
 * what was left out and, from `readAgain`, the read that gives it again.
 */
export function writeAnswer(
	answer: IDataObject,
	readAgain?: string,
	limit = TOOL_ANSWER_CHARACTERS,
): IDataObject {
	const stated: IDataObject = { changeMade: true, ...answer };
	if (size(stated) <= limit) return stated;
	const noteOf = (leftOut: string[]) => ({
		truncated: true,
		leftOut,
		message: `The change was made. Left out to stay within ${limit} characters: ${leftOut.join('; ')}.${readAgain ? ` ${readAgain} gives ${leftOut.length > 1 ? 'them' : 'it'} again.` : ''}`,
	});
	const cutOf = (key: string, value: unknown, given = 0) =>
		Array.isArray(value) ? `${value.length - given} of the ${value.length} entries of ${key}` : key;
	// Room for the note, were every field left out.
	const room =
		limit - size(noteOf(Object.entries(stated).map(([key, value]) => cutOf(key, value))));
	const given: IDataObject = {};
	const leftOut: string[] = [];
	for (const [key, value] of Object.entries(stated)) {
		if (size({ ...given, [key]: value }) <= room) given[key] = value;
		else if (!Array.isArray(value)) leftOut.push(key);
		else {
			// The entries before the first that would not fit: their texts and commas, added up.
			let text = size({ ...given, [key]: [] });
			const count = value.findIndex((entry, i) => (text += size(entry) + Math.sign(i)) > room);
			given[key] = value.slice(0, count);
			leftOut.push(cutOf(key, value, count));
		}
	}
	return { ...given, ...noteOf(leftOut) };
}
