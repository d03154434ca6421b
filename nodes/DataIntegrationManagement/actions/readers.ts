import {
	NodeError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeProperties,
} from 'n8n-workflow';

import { pathSegmentProblem } from '../client/endpoint';
import {
	asText,
	checkCollection,
	checkValue,
	configurationError,
	fieldError,
	isNothing,
	isObject,
	type Origin,
} from '../shared/checks';
import { displayNameOf, limitField, returnAllField } from '../shared/descriptions';

/** The action node's parameters, read for an item and checked by ../shared/checks.ts. */

export function originOf(context: IExecuteFunctions, itemIndex: number): Origin {
	return { node: context.getNode(), itemIndex, timeZone: context.getTimezone() };
}

/** The checked value of the parameter `property` at `path` (its name, or `collection.field`). */
export function readParameter(
	this: IExecuteFunctions,
	itemIndex: number,
	property: INodeProperties,
	path = property.name,
): unknown {
	const value = this.getNodeParameter(path, itemIndex, property.default, {
		extractValue: property.type === 'resourceLocator',
	});
	return checkValue(originOf(this, itemIndex), property, value);
}

/**
 * An error n8n threw running a field's expression, said of that field (its label) and the item:
 * n8n names the field in the error's context, or gives only the field's raw value as its `cause`.
 */
export function inField(
	this: IExecuteFunctions,
	itemIndex: number,
	properties: INodeProperties[],
	error: unknown,
): unknown {
	if (!(error instanceof Error) || error instanceof NodeError) return error;
	const { context, cause } = error as { context?: { parameter?: unknown }; cause?: unknown };
	const { parameters } = this.getNode();
	const named = String(context?.parameter ?? '').split('.')[0];
	// A raw value is a field's text, or its collection of fields: n8n's, so JSON.
	const raw = typeof cause === 'string' || (isObject(cause) && !(cause instanceof Error));
	const text = raw ? jsonOf(cause) : undefined;
	const same = (value: unknown) => text !== undefined && jsonOf(value ?? null) === text;
	const field =
		properties.find(({ name }) => name === named) ??
		properties.find(({ name }) => same(parameters[name]));
	if (!field) return error;
	const option = failingOption.call(this, itemIndex, field);
	const label = option ? `${field.displayName} → ${option.displayName}` : field.displayName;
	const hint = /syntax/i.test(error.message)
		? ' An expression ends at its first }}: give an object inside one with spaces, {{ { a: 1 } }}.'
		: '';
	return fieldError(
		originOf(this, itemIndex),
		label,
		`could not be read: ${error.message}`,
		`${(error as { description?: string }).description ?? ''} Fix the expression in the field.${hint}`.trim(),
	);
}

/** The field of `collection` whose expression n8n cannot run, read alone. */
function failingOption(
	this: IExecuteFunctions,
	itemIndex: number,
	collection: INodeProperties,
): INodeProperties | undefined {
	if (collection.type !== 'collection') return undefined;
	return (collection.options as INodeProperties[]).find(({ name }) => {
		try {
			this.getNodeParameter(`${collection.name}.${name}`, itemIndex, undefined);
			return false;
		} catch {
			return true;
		}
	});
}

/** `value` as JSON text, or undefined where it has none (a cycle). */
function jsonOf(value: unknown): string | undefined {
	try {
		return JSON.stringify(value);
	} catch {
		return undefined;
	}
}

/** Whether the node runs as an AI tool: the `…Tool` type n8n derives, one item per call. */
export function runsAsTool(this: IExecuteFunctions): boolean {
	return this.getNode().type.endsWith('Tool');
}

/** The raw value of the text parameter `name` (or a locator's value): its expression runs again. */
export function readText(this: IExecuteFunctions, itemIndex: number, name: string): unknown {
	return this.getNodeParameter(name, itemIndex, '', { extractValue: true });
}

/** The `value` of the required text parameter `name` among `properties`, as text. */
export function requiredText(
	this: IExecuteFunctions,
	itemIndex: number,
	properties: INodeProperties[],
	name: string,
	value: unknown,
): string {
	const label = displayNameOf(properties, name);
	const origin = originOf(this, itemIndex);
	const text = asText(origin, label, value).trim();
	if (text) return text;
	// n8n saves an expression with a leading "=": then it left the field empty (a model's: required).
	const saved = this.getNode().parameters[name];
	const expression = String(isObject(saved) ? (saved as IDataObject).value : saved).startsWith('=');
	const spaces = typeof value === 'string' && value !== '';
	if (!expression || runsAsTool.call(this))
		throw fieldError(origin, label, spaces ? 'is blank' : 'is required');
	const gave = spaces ? 'only spaces' : 'no value';
	throw fieldError(origin, label, `is empty: its expression gave ${gave}`, EXPRESSION_FIX);
}

const EXPRESSION_FIX = 'Check that the expression finds a value for this item, or type the value.';

/** Reads the required text parameter `name` (plain, or a locator's value). */
export function readRequired(
	this: IExecuteFunctions,
	itemIndex: number,
	properties: INodeProperties[],
	name: string,
): string {
	return requiredText.call(this, itemIndex, properties, name, readText.call(this, itemIndex, name));
}

/** The `value` of a required id or name the request puts in its path: one segment of it. */
export function pathSegment(
	this: IExecuteFunctions,
	itemIndex: number,
	properties: INodeProperties[],
	name: string,
	value: unknown,
): string {
	const text = requiredText.call(this, itemIndex, properties, name, value);
	const problem = pathSegmentProblem(text);
	if (problem)
		throw fieldError(originOf(this, itemIndex), displayNameOf(properties, name), problem);
	return text;
}

/** Reads a required id or name that the request puts in its path (see pathSegment). */
export function readPathSegment(
	this: IExecuteFunctions,
	itemIndex: number,
	properties: INodeProperties[],
	name: string,
): string {
	return pathSegment.call(this, itemIndex, properties, name, readText.call(this, itemIndex, name));
}

/** How many results a listing returns: every one with Return All, else Limit (at least 1). */
export function readListLimit(this: IExecuteFunctions, itemIndex: number): number {
	if (readParameter.call(this, itemIndex, returnAllField) as boolean) return Infinity;
	return readParameter.call(this, itemIndex, limitField) as number;
}

/**
 * The fields set in a collection, checked, as the request holds them (see checkCollection); a
 * field of `neverEmpty` may not be added and left empty (a name: nothing may be cleared to it).
 * A field whose expression gave nothing is left out, as a model that did not give it means; in a
 * workflow, where it may be a mistake, `strict` refuses it (refuseNoValue): sent, an edit would
 * clear what the record holds; left out, a search would match everything.
 */
export function readCollection(
	this: IExecuteFunctions,
	itemIndex: number,
	collection: INodeProperties,
	{ neverEmpty = [], strict = false }: { neverEmpty?: INodeProperties[]; strict?: boolean } = {},
): IDataObject {
	const origin = originOf(this, itemIndex);
	const given: unknown = this.getNodeParameter(collection.name, itemIndex, {});
	if (strict)
		refuseNoValue.call(this, origin, collection.options as INodeProperties[], given, {
			clearable: (field) => field.type === 'string' && !neverEmpty.includes(field),
		});
	const sent = isObject(given)
		? Object.fromEntries(Object.entries(given).filter(([, value]) => !isNothing(value)))
		: given;
	const values = checkCollection(origin, collection, sent);
	// A field nothing may be cleared to (a name, a search): left blank is a mistake.
	for (const field of neverEmpty)
		if (typeof values[field.name] === 'string' && !(values[field.name] as string).trim())
			throw fieldError(origin, field.displayName, 'is empty: give a value, or remove the field');
	return values;
}

/**
 * In a workflow, refuses a field of `options` set in `fields` whose expression gave null or
 * undefined (a misspelt $json field): left out, an edit would keep a value, a filter match
 * everything. A model that did not give a field means it left out (the tool form).
 */
export function refuseNoValue(
	this: IExecuteFunctions,
	origin: Origin,
	options: INodeProperties[],
	fields: unknown,
	{
		clearable = () => false,
		under = '',
	}: { clearable?: (field: INodeProperties) => boolean; under?: string } = {},
): void {
	if (!isObject(fields) || runsAsTool.call(this)) return;
	const unresolved = options.find(
		({ name }) => Object.hasOwn(fields, name) && isNothing(fields[name]),
	);
	if (unresolved)
		throw fieldError(
			origin,
			`${under}${unresolved.displayName}`,
			'has no value: its expression gave null or undefined',
			`Fix the expression${clearable(unresolved) ? ", end it in ?? '' to send it empty," : ''} or remove the field.`,
		);
}

/** Fails, before any request, when an edit operation was given nothing to change. */
export function requireSomeChange(
	this: IExecuteFunctions,
	itemIndex: number,
	body: IDataObject,
	collection: INodeProperties,
): void {
	if (Object.keys(body).length > 0) return;
	const labels = ((collection.options ?? []) as INodeProperties[]).map((f) => f.displayName);
	const message = `Set at least one of ${labels.join(', ')} under "${collection.displayName}"`;
	throw configurationError(originOf(this, itemIndex), message);
}
