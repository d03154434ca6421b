import {
	NodeOperationError,
	type IDataObject,
	type INode,
	type INodeProperties,
	type INodePropertyOptions,
} from 'n8n-workflow';

import { parseInstant, toUtcIso } from './timestamps';

/**
 * Both nodes' parameter values checked against what their fields declare (type, options, bounds),
 * before any request: bad input fails naming the field and the item. n8n's validateFieldType is
 * looser (fractions and "0x10" as numbers, no bounds, objects as JSON text).
 */

/**
 * Ours, on the JSON fields (Connection, Schemas): enough for any settings, and a clear failure here
 * rather than along the way. A flat object is 1 deep; size is the JSON text's length.
 */
export const MAX_JSON_DEPTH = 32;
export const MAX_JSON_CHARACTERS = 1_000_000;

/** Where a value was read: the node, and the input item (the trigger reads none). */
export interface Origin {
	node: INode;
	itemIndex?: number;
	/** The workflow's time zone: a date-time without a zone is read in it. */
	timeZone?: string;
}

/** Which input item an error is of: " (item <n>)"; nothing in the tool form (a call is one item). */
export const ofItem = (node: INode, itemIndex: number | undefined): string =>
	itemIndex === undefined || node.type.endsWith('Tool') ? '' : ` (item ${itemIndex})`;

/** The error for what the node was given: `<message> (item <n>)`, naming the item if any. */
export function configurationError(
	origin: Origin,
	message: string,
	description?: string,
): NodeOperationError {
	return new NodeOperationError(origin.node, `${message}${ofItem(origin.node, origin.itemIndex)}`, {
		itemIndex: origin.itemIndex,
		...(description ? { description } : {}),
		// What the user (or an expression, or a model) set or gave: someone must change it.
		failure: { cause: 'configuration-invalid' },
	});
}

/** The error for a field's value: `The field "<label>" <problem> (item <n>)`. */
export const fieldError = (origin: Origin, label: string, problem: string, description?: string) =>
	configurationError(origin, `The field "${label}" ${problem}`, description);

/** What an expression that found no value gives. */
export const isNothing = (value: unknown): value is null | undefined =>
	value === null || value === undefined;

/** Whether `value` is a plain object: not null, not a list. */
export const isObject = (value: unknown): value is Record<string, unknown> =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

/** A value as an error message shows it: short, and never the text of an object. */
function shown(value: unknown): string {
	if (typeof value === 'string')
		return value.length > 40 ? `${JSON.stringify(value.slice(0, 40))}…` : JSON.stringify(value);
	if (Array.isArray(value)) return 'a list';
	if (value === null) return 'null';
	if (typeof value === 'object') return 'an object';
	if (typeof value === 'function' || typeof value === 'symbol') return `a ${typeof value}`;
	return String(value);
}

/** A text field's value as text: numbers and true/false as they print, null as empty. */
export function asText(origin: Origin, label: string, value: unknown): string {
	if (typeof value === 'string') return value;
	if (isNothing(value)) return '';
	if (Number.isFinite(value) || typeof value === 'boolean' || typeof value === 'bigint')
		return String(value);
	throw fieldError(
		origin,
		label,
		`must be text, not ${shown(value)}`,
		'Give text, a number or true/false. To use one field of an object, name it in the expression, e.g. {{ $json.id }}.',
	);
}

/** An options field's value, when it is one of the values the field lists. */
export function asOption<T extends string | number | boolean = string>(
	origin: Origin,
	property: INodeProperties,
	value: unknown,
): T {
	const options = (property.options ?? []) as INodePropertyOptions[];
	if (options.some((option) => option.value === value)) return value as T;
	const allowed = options.map((option) => `"${String(option.value)}" (${option.name})`).join(', ');
	throw fieldError(origin, property.displayName, `must be one of ${allowed}, not ${shown(value)}`);
}

/** A boolean field's value: true or false, or that as text. */
function asBoolean(origin: Origin, label: string, value: unknown): boolean {
	if (typeof value === 'boolean') return value;
	if (value === 'true' || value === 'false') return value === 'true';
	throw fieldError(origin, label, `must be true or false, not ${shown(value)}`);
}

/** A whole number within the field's `minValue` and `maxValue`: a number, or text of digits. */
function asWholeNumber(origin: Origin, property: INodeProperties, value: unknown): number {
	const min = (property.typeOptions?.minValue as number | undefined) ?? 0;
	const max = property.typeOptions?.maxValue as number | undefined;
	const number =
		typeof value === 'number'
			? value
			: typeof value === 'string' && /^\s*\d+\s*$/.test(value)
				? Number(value)
				: Number.NaN;
	if (!Number.isSafeInteger(number) || number < min || (max !== undefined && number > max)) {
		const range = max === undefined ? `of at least ${min}` : `from ${min} to ${max}`;
		throw fieldError(
			origin,
			property.displayName,
			`must be a whole number ${range}, not ${shown(value)}`,
		);
	}
	return number;
}

/**
 * A value checked against its field and turned into what is sent; undefined: not sent (a JSON or
 * date field left empty). Empty text is sent: that is how a value is cleared.
 */
export function checkValue(origin: Origin, property: INodeProperties, value: unknown): unknown {
	const label = property.displayName;
	switch (property.type) {
		case 'options':
			return asOption(origin, property, value);
		case 'resourceLocator': {
			const text = asText(origin, label, isResourceLocator(value) ? value.value : value).trim();
			if (!text) throw fieldError(origin, label, 'is empty: pick one, or remove the field');
			return text;
		}
		case 'json':
			return parseJsonObject(origin, property, value);
		case 'number':
			return asWholeNumber(origin, property, value);
		case 'boolean':
			return asBoolean(origin, label, value);
		case 'dateTime':
			return asTimestamp(origin, property, value);
		default:
			return asText(origin, label, value);
	}
}

function isResourceLocator(value: unknown): value is { __rl: true; value: unknown } {
	return typeof value === 'object' && value !== null && (value as { __rl?: unknown }).__rl === true;
}

/** The fields set in a collection, each checked against its description (see readCollection). */
export function checkCollection(
	origin: Origin,
	collection: INodeProperties,
	values: unknown,
): IDataObject {
	if (!isObject(values))
		throw fieldError(
			origin,
			collection.displayName,
			`must be a set of fields, not ${shown(values)}`,
		);
	const body: IDataObject = {};
	for (const field of (collection.options ?? []) as INodeProperties[]) {
		if (!Object.hasOwn(values, field.name)) continue;
		const value = checkValue(origin, field, (values as IDataObject)[field.name]);
		if (value !== undefined) body[field.name] = value as IDataObject[string];
	}
	return body;
}

/** A JSON-object field's value, given as an object or as JSON text; empty is not sent. */
function parseJsonObject(
	origin: Origin,
	{ displayName: label, placeholder }: INodeProperties,
	value: unknown,
): IDataObject | undefined {
	if (isNothing(value) || (typeof value === 'string' && value.trim() === '')) return undefined;
	// The field's own example (its placeholder, "e.g. …").
	const example = `Give a JSON object${placeholder ? `, ${placeholder}` : ''}.`;
	const tooLarge = () =>
		fieldError(origin, label, `is larger than ${MAX_JSON_CHARACTERS} characters of JSON`);
	let parsed: unknown = value;
	if (typeof value === 'string') {
		if (value.length > MAX_JSON_CHARACTERS) throw tooLarge();
		try {
			parsed = JSON.parse(value) as unknown;
		} catch (error) {
			const problem = (error as Error).message;
			throw fieldError(origin, label, 'is not valid JSON', `${problem}. ${example}`);
		}
	}
	if (!isObject(parsed))
		throw fieldError(origin, label, 'must be a JSON object', `It is ${shown(parsed)}. ${example}`);
	// Depth first: a cyclic object is then refused as too deep before JSON.stringify sees it.
	if (exceedsDepth(parsed, MAX_JSON_DEPTH))
		throw fieldError(origin, label, `is nested more than ${MAX_JSON_DEPTH} levels deep`);
	if (typeof value !== 'string' && JSON.stringify(parsed).length > MAX_JSON_CHARACTERS)
		throw tooLarge();
	return parsed as IDataObject;
}

/** Whether objects and arrays nest more than `max` levels in `value` (a flat object is 1). */
function exceedsDepth(value: unknown, max: number): boolean {
	if (typeof value !== 'object' || value === null) return false;
	if (max === 0) return true;
	return Object.values(value).some((child) => exceedsDepth(child, max - 1));
}

/** A date-time as UTC ISO (zone-less: in the workflow's zone); undefined when optional and empty. */
function asTimestamp(
	origin: Origin,
	property: INodeProperties,
	value: unknown,
): string | undefined {
	const empty = isNothing(value) || value === '';
	if (empty && !property.required) return undefined;
	const instant = parseInstant(value, origin.timeZone);
	if (instant === undefined) {
		throw fieldError(
			origin,
			property.displayName,
			empty ? 'is empty' : 'is not a valid date and time',
			'Pick a date and time, or give an ISO 8601 date-time such as 2026-11-01T09:30:00Z.',
		);
	}
	return toUtcIso(instant);
}
