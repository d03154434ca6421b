/**
 * Generators of hostile input for the property suite, and the rules the node is held to: which
 * ids and names it must refuse, and which JSON values and numbers it must take.
 */
import fc from 'fast-check';

import { SEED } from '../emulator';

/** Names that mean something to JavaScript objects rather than to the service. */
const OBJECT_NAMES = [
	'__proto__',
	'constructor',
	'prototype',
	'hasOwnProperty',
	'toString',
	'valueOf',
	'__defineGetter__',
];

/** Dot segments as typed and in the encodings a URL parser folds into them. */
const DOT_SEGMENTS = ['.', '..', '%2e', '%2E', '%2e%2e', '%2E%2e', '.%2e', '%2e.', ' .. '];

/** Pieces that change a path when they are not encoded. */
const PATH_PIECES = ['.', '..', '%2e', '%2E', '/', '%2F', '\\', '?', '#', '%', ' ', 'a', '&', '='];

/** Ids and names of the seed, so that some cases reach real entries. */
const SEED_NAMES = [
	SEED.integrations.ordersToSnowflake,
	SEED.tags.pii,
	SEED.users.maya,
	'public',
	'customers',
	'Order Details',
];

/** Any id or name a person, an expression or an AI agent could pass. */
export const hostileName: fc.Arbitrary<string> = fc.oneof(
	{ arbitrary: fc.constantFrom(...OBJECT_NAMES), weight: 3 },
	{ arbitrary: fc.constantFrom(...DOT_SEGMENTS), weight: 3 },
	{ arbitrary: fc.constantFrom(...SEED_NAMES), weight: 2 },
	{
		arbitrary: fc.array(fc.constantFrom(...PATH_PIECES), { maxLength: 5 }).map((p) => p.join('')),
		weight: 3,
	},
	{ arbitrary: fc.constantFrom('', ' ', '\t\n', '\u00a0'), weight: 1 },
	{ arbitrary: fc.string({ unit: 'grapheme', maxLength: 12 }), weight: 2 },
	// Code units, lone surrogates included: text that is not valid Unicode.
	{ arbitrary: fc.string({ unit: 'binary', maxLength: 6 }), weight: 1 },
	{ arbitrary: fc.string({ minLength: 300, maxLength: 1200 }), weight: 1 },
);

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const DOT_SEGMENT = /^(\.|%2e){1,2}$/i;

/**
 * Why the node must refuse this value as a path segment, or undefined when it must send it.
 * Blank (after trimming), a dot segment in any form a URL parser folds, or text that cannot be
 * percent-encoded.
 */
export function segmentRefusal(value: string): string | undefined {
	const text = value.trim();
	if (text === '') return 'blank';
	if (DOT_SEGMENT.test(text)) return 'dot segment';
	if (LONE_SURROGATE.test(text)) return 'not valid Unicode';
	return undefined;
}

/** The path segment the node must send for an accepted value. */
export function segment(value: string): string {
	return encodeURIComponent(value.trim());
}

/** JSON text with sorted keys, own keys only (`__proto__` included), to compare bodies. */
export function canonicalJson(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
	if (typeof value === 'object' && value !== null) {
		const keys = Object.keys(value).sort();
		const record = value as Record<string, unknown>;
		return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`).join(',')}}`;
	}
	return JSON.stringify(value);
}

/** A JSON object nested `depth` levels deep (a flat object is depth 1), keys from hostile names. */
export const nestedObject = (depth: number): fc.Arbitrary<Record<string, unknown>> =>
	fc
		.tuple(
			fc.array(hostileName, { minLength: depth, maxLength: depth }),
			fc.jsonValue({ maxDepth: 0 }),
		)
		.map(([keys, leaf]) => {
			let value: unknown = leaf;
			for (const key of keys) {
				// defineProperty, so `__proto__` is an own key as JSON.parse would make it.
				const level = {};
				Object.defineProperty(level, key, {
					value,
					enumerable: true,
					writable: true,
					configurable: true,
				});
				value = level;
			}
			return value as Record<string, unknown>;
		});

/** A value an expression may give a numeric parameter. */
export const numericInput: fc.Arbitrary<unknown> = fc.oneof(
	fc.integer({ min: -1000, max: 1000 }),
	fc.integer({ min: -3, max: 12 }),
	fc.double({ noNaN: false }),
	fc.constantFrom(0, -5, 1, 2.5, Number.NaN, Infinity, -Infinity, Number.MAX_SAFE_INTEGER + 2),
	fc.constantFrom('5', ' 7 ', '', 'abc', '-1', '1e2', '0x10', '3.0', null, true, [], {}),
);

/**
 * The whole number the node must read from a Limit value, or undefined when it must refuse it:
 * a safe integer of at least 1, given as a number or as text of digits.
 */
export function wholeNumberAtLeastOne(value: unknown): number | undefined {
	const number =
		typeof value === 'number'
			? value
			: typeof value === 'string' && /^\s*\d+\s*$/.test(value)
				? Number(value)
				: undefined;
	return number !== undefined && Number.isSafeInteger(number) && number >= 1 ? number : undefined;
}

export interface DateParts {
	year: number;
	month: number;
	day: number;
	hour: number;
	minute: number;
	second: number;
	/** How the value is written: a UTC date-time, a date-time without zone (the date picker's form), or a date. */
	form: 'utc' | 'local' | 'date';
}

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/** Date parts around the edges of real calendar dates (Feb 29/30, month 13, 24:61 ...). */
export const dateParts: fc.Arbitrary<DateParts> = fc.record({
	year: fc.oneof(
		fc.constantFrom(2024, 2025, 2026, 2100, 2000),
		fc.integer({ min: 1970, max: 2200 }),
	),
	month: fc.integer({ min: 0, max: 13 }),
	day: fc.oneof(fc.integer({ min: 0, max: 32 }), fc.constantFrom(28, 29, 30, 31)),
	hour: fc.oneof(fc.integer({ min: 0, max: 25 }), fc.constant(23)),
	minute: fc.oneof(fc.integer({ min: 0, max: 61 }), fc.constant(59)),
	second: fc.oneof(fc.integer({ min: 0, max: 61 }), fc.constant(59)),
	form: fc.constantFrom('utc', 'local', 'date'),
});

export function formatDate(parts: DateParts): string {
	const date = `${pad(parts.year, 4)}-${pad(parts.month)}-${pad(parts.day)}`;
	if (parts.form === 'date') return date;
	const time = `${pad(parts.hour)}:${pad(parts.minute)}:${pad(parts.second)}`;
	return `${date}T${time}${parts.form === 'utc' ? 'Z' : ''}`;
}

/** Whether the parts name a real calendar date and clock time (no leap seconds, no 24:00). */
export function isRealDate(parts: DateParts): boolean {
	const { year, month, day, hour, minute, second } = parts;
	const date = new Date(Date.UTC(year, month - 1, day));
	const realDay =
		month >= 1 &&
		month <= 12 &&
		date.getUTCFullYear() === year &&
		date.getUTCMonth() === month - 1 &&
		date.getUTCDate() === day;
	if (parts.form === 'date') return realDay;
	return realDay && hour < 24 && minute < 60 && second < 60;
}

// ----- Answers around one the service gave -----

const DROPPED = Symbol('dropped');

/** Any JSON value, at most two levels deep: what a field may hold in place of its own. */
const anyJson: fc.Arbitrary<unknown> = fc.jsonValue({ maxDepth: 2 });

/** Every key and every object or list inside `value` (itself left out). */
function partsOf(value: unknown): { keys: string[]; values: unknown[] } {
	const keys: string[] = [];
	const values: unknown[] = [];
	const visit = (part: unknown) => {
		if (typeof part !== 'object' || part === null) return;
		for (const [key, child] of Object.entries(part)) {
			if (!Array.isArray(part)) keys.push(key);
			if (typeof child === 'object' && child !== null) values.push(child);
			visit(child);
		}
	};
	visit(value);
	return { keys: [...new Set(keys)], values };
}

/**
 * Values around `base`, an answer the service gave: each key kept (itself varied) or left out,
 * each list's elements likewise, each value now and then replaced by any JSON value, and new keys
 * added (names found in `base`, or hostile ones) holding any JSON value or a varied copy of a part
 * of `base` below them. So a schema comes without `tables`, a map empty, a flag as text, a table
 * named `__proto__`. Objects are built with own keys only, as JSON.parse builds them.
 */
export function aroundAnswer(base: unknown): fc.Arbitrary<unknown> {
	const replaced = { weight: 1, arbitrary: anyJson };
	if (typeof base !== 'object' || base === null) {
		return fc.oneof({ weight: 6, arbitrary: fc.constant(base) }, replaced);
	}
	const kept = (value: unknown) =>
		fc.oneof(
			{ weight: 3, arbitrary: aroundAnswer(value) },
			{ weight: 1, arbitrary: fc.constant(DROPPED) },
		);
	const entries = Object.entries(base);
	const varied = fc.tuple(...entries.map(([, value]) => kept(value)));
	if (Array.isArray(base)) {
		return fc.oneof(
			{ weight: 40, arbitrary: varied.map((values) => values.filter((v) => v !== DROPPED)) },
			replaced,
		);
	}
	const { keys, values } = partsOf(base);
	const added = fc.tuple(
		keys.length ? fc.oneof(fc.constantFrom(...keys), hostileName) : hostileName,
		values.length
			? fc.oneof(
					anyJson,
					fc.constantFrom(...values).chain((value) => aroundAnswer(value)),
				)
			: anyJson,
	);
	// Most objects get no key more: each added key is one more place for a value of any type.
	const addedKeys = fc.oneof(
		{ weight: 5, arbitrary: fc.constant([]) },
		{ weight: 1, arbitrary: fc.array(added, { minLength: 1, maxLength: 2 }) },
	);
	return fc.oneof(
		{
			weight: 40,
			arbitrary: fc
				.tuple(varied, addedKeys)
				.map(([kept, extra]) =>
					Object.fromEntries([
						...entries.map(([key], index) => [key, kept[index]]).filter(([, v]) => v !== DROPPED),
						...extra,
					]),
				),
		},
		replaced,
	);
}

/**
 * Answers around `base` that `accepts` takes: the node's own rule for an endpoint's answer, so
 * that a looser check lets more through, and this draws those too.
 */
export function acceptedAnswer(
	base: unknown,
	accepts: (body: unknown) => boolean,
): fc.Arbitrary<unknown> {
	return aroundAnswer(base).filter(accepts);
}
