import type { IDataObject } from 'n8n-workflow';

/**
 * The most characters of JSON text one answer of the tool form holds. n8n hands a model the
 * JSON text of every output item's json, whole (docs/design.md, "What a tool answers").
 */
export const TOOL_ANSWER_CHARACTERS = 20_000;

/** The length of the JSON text of an array whose elements' texts are `sum` characters in all. */
const arrayText = (sum: number, count: number) => 2 + sum + Math.max(count - 1, 0);

/** The item closing a cut answer: what was left out, and what narrows the answer. */
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
 * `items` as the tool form answers them: as they are when their JSON text fits in `limit`
 * characters; else the first items that fit together with a closing note that says how many
 * items and characters were left out and, when `narrowWith` tells, which fields narrow the
 * answer. An item too large alone is left out with the rest: the note then stands alone.
 */
export function fitToolAnswer(
	items: IDataObject[],
	narrowWith?: (items: IDataObject[]) => string | undefined,
	limit = TOOL_ANSWER_CHARACTERS,
): IDataObject[] {
	const sizes = items.map((item) => JSON.stringify(item).length);
	const whole = arrayText(
		sizes.reduce((sum, size) => sum + size, 0),
		items.length,
	);
	if (whole <= limit) return items;
	const narrowing = narrowWith?.(items);
	const noteAfter = (given: number, givenSum: number) =>
		cutNote(
			{ given, all: items.length, charactersLeftOut: whole - arrayText(givenSum, given), limit },
			narrowing,
		);
	let given = 0;
	let givenSum = 0;
	while (given < items.length) {
		const sum = givenSum + sizes[given];
		const note = JSON.stringify(noteAfter(given + 1, sum)).length;
		if (arrayText(sum + note, given + 2) > limit) break;
		given++;
		givenSum = sum;
	}
	return [...items.slice(0, given), noteAfter(given, givenSum)];
}
