import { NodeApiError, type IDataObject } from 'n8n-workflow';

/**
 * The most characters of JSON text one answer of the tool form holds. n8n hands a model the
 * JSON text of every output item's json, whole (docs/design.md, "What a tool answers").
 */
export const TOOL_ANSWER_CHARACTERS = 20_000;

/**
 * What a read's answer cut after its first `given` items (by its size, or by Limit) tells the
 * model to set for the items left out, from what is set and what the whole answer, `items`,
 * holds; undefined: nothing but what the note says (for a Limit, raising it) can.
 */
export type Advice = (
	items: IDataObject[],
	given: number,
	cutBy: 'size' | 'limit',
) => string | undefined;

/** What a model reads after an error no value it gives can change. */
export const FOR_THE_USER =
	"Nothing in this tool's input changes this: do not retry it with other values; tell the user, who can fix the credential or the service.";

/** What a model reads after a 403: the key may lack the right to this record or operation alone. */
export const FOR_A_403 =
	'The key may be allowed other records or operations, not this one: do not retry it; tell the user, who can give the credential a key allowed to do this.';

/** What a model reads when the service did not answer: it may be down, or the Base URL wrong. */
export const FOR_NO_ANSWER =
	"Try once more; if it fails the same way, do not retry: tell the user, who can check the service and the credential's Base URL.";

/**
 * What the tool form adds to an error for the model, where the person's words do not fit it:
 * FOR_THE_USER where the error lies in the credential or n8n's settings (a key refused or empty,
 * a Base URL that leads nowhere: its 404, a redirect, another server's page; a setting
 * that kept the request from leaving; a query name of this package's the service refused), and
 * the two above.
 */
export function toolAdvice(error: unknown): string | undefined {
	if (!(error instanceof NodeApiError)) return undefined;
	const status = Number(error.httpCode ?? 0);
	const cause = error.failure?.cause;
	// The key; a setting or the service (no answer: a certificate, n8n's SSRF protection; an
	// off-spec answer; a redirect); the Base URL, or a proxy's or a sign-in page's answer.
	const outside =
		cause === 'credential-invalid' ||
		(status < 400 && cause === 'configuration-invalid') ||
		error.context.byAnotherServer === true ||
		error.context.routeMissing === true ||
		typeof error.context.refusedQueryName === 'string';
	if (outside) return FOR_THE_USER;
	if (status === 403) return FOR_A_403;
	// No answer, where a write cannot have been made (else its words say to check first).
	const noAnswer = !status && typeof error.errorResponse?.networkCode === 'string';
	return noAnswer && error.context.mayHaveActed !== true ? FOR_NO_ANSWER : undefined;
}

const size = (value: unknown) => JSON.stringify(value).length;

/** The length of the JSON text of an array whose elements' texts are `sum` characters in all. */
const arrayText = (sum: number, count: number) => 2 + sum + Math.max(count - 1, 0);

/**
 * The item closing a cut answer: what was left out (of the `read` items, past `given`; past
 * `listLimit` when the list reached its Limit), and what to set to get it.
 */
function cutNote(
	cut: {
		given: number;
		read: number;
		charactersLeftOut: number;
		limit: number;
		listLimit?: number;
	},
	narrowWith: string | undefined,
): IDataObject {
	const leftOut = cut.read - cut.given;
	const past =
		cut.listLimit === undefined ? '' : `more items may match past Limit (${cut.listLimit})`;
	const sized = leftOut > 0 && {
		itemsLeftOut: leftOut,
		charactersLeftOut: cut.charactersLeftOut,
		characterLimit: cut.limit,
	};
	const what = sized
		? `Cut to the tool answer limit of ${cut.limit} characters: ${leftOut} of ${cut.read} items (${cut.charactersLeftOut} characters) left out${past && `, and ${past}`}.`
		: `Limit reached: ${past}.`;
	const narrow = narrowWith ? `narrow the request: ${narrowWith}` : '';
	const how = sized
		? narrow
		: ['raise Limit or set Return All', narrow].filter(Boolean).join(', or ');
	return {
		truncated: true,
		itemsGiven: cut.given,
		...sized,
		...(past && { limitReached: true }),
		...(narrowWith && { narrowWith }),
		// Nothing to set: a record too large alone, entries at the one instant left in range.
		message: `${what}${how ? ` To get them, ${how}.` : ' Nothing this tool can set gives them in a smaller answer.'}`,
	};
}

/**
 * `items` as the tool form answers a read: as they are when they are fewer than `listLimit` (a
 * list's Limit: more may match once it is reached) and their JSON text fits in `characters`;
 * else the most first items that fit together with a closing note that says what was left out
 * and what `advice` tells to set for it. An item too large alone is left out with the rest: the
 * note then stands alone.
 */
export function fitToolAnswer(
	items: IDataObject[],
	advice?: Advice,
	{ listLimit = Infinity, characters = TOOL_ANSWER_CHARACTERS } = {},
): IDataObject[] {
	const sums = [0];
	for (const item of items) sums.push(sums[sums.length - 1] + size(item));
	const whole = arrayText(sums[items.length], items.length);
	const limitReached = items.length >= listLimit;
	if (whole <= characters && !limitReached) return items;
	const noteAfter = (given: number) =>
		cutNote(
			{
				given,
				read: items.length,
				charactersLeftOut: whole - arrayText(sums[given], given),
				limit: characters,
				listLimit: limitReached ? listLimit : undefined,
			},
			advice?.(items, given, given < items.length ? 'size' : 'limit'),
		);
	let given = 0;
	while (given < items.length && arrayText(sums[given + 1], given + 1) <= characters) given++;
	let note = noteAfter(given);
	while (given > 0 && arrayText(sums[given] + size(note), given + 1) > characters)
		note = noteAfter(--given);
	return [...items.slice(0, given), note];
}

/** How many of the fields a write's note leaves out it names (each at most NAME_CHARACTERS). */
const NAMED_AT_MOST = 20;
const NAME_CHARACTERS = 60;
/** The note's own fields: a service's field of one of these names is left out, not overwritten. */
const NOTE_FIELDS = ['truncated', 'leftOut', 'message'];

/** A field's name as a note names it: cut after NAME_CHARACTERS. */
const nameOf = (key: string) =>
	key.length > NAME_CHARACTERS ? `${key.slice(0, NAME_CHARACTERS)}…` : key;

/** What a note says of field `key` left out: its name, or of a list, how many entries. */
const cutOf = (key: string, value: unknown, given = 0) =>
	Array.isArray(value)
		? `${value.length - given} of the ${value.length} entries of ${nameOf(key)}`
		: nameOf(key);

/** A write's note: what was left out (the first NAMED_AT_MOST named, the rest counted). */
function writeNote(leftOut: string[], limit: number, readAgain?: string): IDataObject {
	const named = leftOut.slice(0, NAMED_AT_MOST);
	const more = leftOut.length - named.length;
	const counted = more ? [`${more} more fields`] : [];
	const again = readAgain ? ` ${readAgain} gives ${leftOut.length > 1 ? 'them' : 'it'} again.` : '';
	return {
		truncated: true,
		leftOut: [...named, ...counted],
		message: `The change was made. Left out to stay within ${limit} characters: ${named.join('; ')}${more ? ` and ${counted[0]}` : ''}.${again}`,
	};
}

/**
 * A write's answer in the tool form: `changeMade: true` (the node's, whatever the service sent),
 * then what the operation gives. When that is larger than `limit`, its fields in order while they
 * fit (of a list, its first entries), then what was left out and, from `readAgain`, the read that
 * gives it again.
 */
export function writeAnswer(
	answer: IDataObject,
	readAgain?: string,
	limit = TOOL_ANSWER_CHARACTERS,
): IDataObject {
	// The warning of an answer off the API first: a cut keeps it.
	const first = { changeMade: true, ...('warning' in answer && { warning: answer.warning }) };
	const stated: IDataObject = { ...first, ...answer, changeMade: true };
	if (size(stated) <= limit) return stated;
	const fields = Object.entries(stated);
	// Room for the note at its largest: naming the longest of what it could leave out.
	const longest = fields.map(([key, value]) => cutOf(key, value));
	longest.sort((a, b) => b.length - a.length);
	const room = limit - size(writeNote(longest, limit, readAgain));
	const given: IDataObject = {};
	const leftOut: string[] = [];
	// The JSON text of `given` with one more field whose value's text is `valueText` long.
	let text = 2;
	const withField = (key: string, valueText: number) =>
		text + Math.sign(text - 2) + size(key) + 1 + valueText;
	for (const [key, value] of fields) {
		const whole = withField(key, size(value));
		if (NOTE_FIELDS.includes(key)) leftOut.push(cutOf(key, value));
		else if (whole <= room) [given[key], text] = [value, whole];
		else if (!Array.isArray(value)) leftOut.push(cutOf(key, value));
		else {
			// The entries before the first that would not fit: their texts and commas, added up.
			let entries = withField(key, 2);
			const count = value.findIndex((entry, i) => (entries += size(entry) + Math.sign(i)) > room);
			given[key] = value.slice(0, count);
			text = withField(key, size(given[key]));
			leftOut.push(cutOf(key, value, count));
		}
	}
	return { ...given, ...writeNote(leftOut, limit, readAgain) };
}
