import { NodeOperationError, type IDataObject, type IExecuteFunctions } from 'n8n-workflow';

import { MAX_JSON_CHARACTERS, MAX_JSON_DEPTH } from '../client/choices';
import { pathSegmentProblem } from '../client/endpoint';
import { parseInstant, toUtcIso } from '../shared/timestamps';

/**
 * Readers of the operations' parameters. Each is called on the execute context and takes its
 * arguments in one order: `readX.call(this, itemIndex, name, label, ...)`, where `name` is the
 * parameter's path and `label` what errors call it. Bad input fails here, naming the field and
 * the item, before any request is sent.
 */

/**
 * Whether the node runs as an AI tool: the `…Tool` type n8n derives from it, which an AI Agent or
 * the MCP Server Trigger calls with one item per call and whose output a model reads.
 */
export function runsAsTool(this: IExecuteFunctions): boolean {
	return this.getNode().type.endsWith('Tool');
}

/**
 * Reads a required text parameter (plain, or the value of a resource locator), failing with the
 * field's name when it is empty.
 */
export function readRequired(
	this: IExecuteFunctions,
	itemIndex: number,
	name: string,
	label: string,
): string {
	const value = this.getNodeParameter(name, itemIndex, '', { extractValue: true });
	const text = String(value ?? '').trim();
	if (!text) {
		throw new NodeOperationError(
			this.getNode(),
			`The field "${label}" is required (item ${itemIndex})`,
			{ itemIndex },
		);
	}
	return text;
}

/**
 * Reads a required id or name that the request puts in its path, failing with the field's name
 * when it is empty or could not stay one segment of the path ("..", "%2e" ...).
 */
export function readPathSegment(
	this: IExecuteFunctions,
	itemIndex: number,
	name: string,
	label: string,
): string {
	const text = readRequired.call(this, itemIndex, name, label);
	const problem = pathSegmentProblem(text);
	if (problem) {
		throw new NodeOperationError(
			this.getNode(),
			`The field "${label}" ${problem} (item ${itemIndex})`,
			{ itemIndex },
		);
	}
	return text;
}

/**
 * Reads a whole-number parameter of at least `min`, whatever gave it: the editor's number field,
 * or an expression's number or text of digits.
 */
function readWholeNumber(
	this: IExecuteFunctions,
	itemIndex: number,
	name: string,
	label: string,
	min: number,
): number {
	const value = this.getNodeParameter(name, itemIndex);
	const number =
		typeof value === 'number'
			? value
			: typeof value === 'string' && /^\s*\d+\s*$/.test(value)
				? Number(value)
				: Number.NaN;
	if (!Number.isSafeInteger(number) || number < min) {
		throw new NodeOperationError(
			this.getNode(),
			`The field "${label}" must be a whole number of at least ${min} (item ${itemIndex})`,
			{ itemIndex },
		);
	}
	return number;
}

/** How many results a listing returns: every one with Return All, else Limit (at least 1). */
export function readListLimit(this: IExecuteFunctions, itemIndex: number): number {
	if (this.getNodeParameter('returnAll', itemIndex, false)) return Infinity;
	return readWholeNumber.call(this, itemIndex, 'limit', 'Limit', 1);
}

/**
 * Reads a JSON-object parameter that the user may give as an object or as JSON text.
 * Empty text means "not given".
 */
export function readJsonObject(
	this: IExecuteFunctions,
	itemIndex: number,
	name: string,
	label: string,
): IDataObject | undefined {
	return parseJsonObject.call(this, itemIndex, label, this.getNodeParameter(name, itemIndex, ''));
}

function parseJsonObject(
	this: IExecuteFunctions,
	itemIndex: number,
	label: string,
	value: unknown,
): IDataObject | undefined {
	if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) {
		return undefined;
	}
	const tooLarge = () =>
		new NodeOperationError(
			this.getNode(),
			`The field "${label}" is larger than ${MAX_JSON_CHARACTERS} characters of JSON (item ${itemIndex})`,
			{ itemIndex },
		);
	let parsed = value;
	if (typeof value === 'string') {
		if (value.length > MAX_JSON_CHARACTERS) throw tooLarge();
		try {
			parsed = JSON.parse(value);
		} catch (error) {
			throw new NodeOperationError(
				this.getNode(),
				`The field "${label}" is not valid JSON (item ${itemIndex}): ${(error as Error).message}`,
				{ itemIndex, description: 'Give a JSON object such as {"host": "db.example.com"}.' },
			);
		}
	}
	if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
		throw new NodeOperationError(
			this.getNode(),
			`The field "${label}" must be a JSON object (item ${itemIndex})`,
			{ itemIndex, description: 'Give a JSON object such as {"host": "db.example.com"}.' },
		);
	}
	// Depth first: a cyclic object is then refused as too deep before JSON.stringify sees it.
	if (exceedsDepth(parsed, MAX_JSON_DEPTH)) {
		throw new NodeOperationError(
			this.getNode(),
			`The field "${label}" is nested more than ${MAX_JSON_DEPTH} levels deep (item ${itemIndex})`,
			{ itemIndex },
		);
	}
	if (typeof value !== 'string' && JSON.stringify(parsed).length > MAX_JSON_CHARACTERS) {
		throw tooLarge();
	}
	return parsed as IDataObject;
}

/** Whether objects and arrays nest more than `max` levels in `value` (a flat object is 1). */
function exceedsDepth(value: unknown, max: number): boolean {
	if (typeof value !== 'object' || value === null) return false;
	if (max === 0) return true;
	return Object.values(value).some((child) => exceedsDepth(child, max - 1));
}

/**
 * The fields set in a collection (Additional Fields, Update Fields) as the request body holds
 * them: text left empty is not sent, `connection` must be a JSON object, and a resource locator
 * (which n8n's `extractValue` does not reach inside a collection) is sent as its value.
 */
export function readCollection(
	this: IExecuteFunctions,
	itemIndex: number,
	name: string,
): IDataObject {
	const values = this.getNodeParameter(name, itemIndex, {}) as IDataObject;
	const body: IDataObject = {};
	for (const [field, value] of Object.entries(values)) {
		if (field === 'connection') {
			const connection = parseJsonObject.call(this, itemIndex, 'Connection', value);
			if (connection) body.connection = connection;
			continue;
		}
		const text = (isResourceLocator(value) ? value.value : value) as unknown;
		if (typeof text === 'string' && text.trim() !== '') body[field] = text;
	}
	return body;
}

function isResourceLocator(value: unknown): value is { __rl: true; value: unknown } {
	return typeof value === 'object' && value !== null && (value as { __rl?: unknown }).__rl === true;
}

/** Fails, before any request, when an edit operation was given nothing to change. */
export function requireSomeChange(
	this: IExecuteFunctions,
	itemIndex: number,
	body: IDataObject,
	labels: string[],
): void {
	if (Object.keys(body).length > 0) return;
	throw new NodeOperationError(
		this.getNode(),
		`Set at least one of ${labels.join(', ')} under "Update Fields" (item ${itemIndex})`,
		{ itemIndex },
	);
}

/**
 * Reads an optional date-time parameter as the UTC ISO string the API expects. A value without
 * a time zone is read in the workflow's time zone.
 */
export function readTimestamp(
	this: IExecuteFunctions,
	itemIndex: number,
	name: string,
	label: string,
): string | undefined {
	const value = this.getNodeParameter(name, itemIndex, '');
	if (value === undefined || value === null || value === '') return undefined;
	const instant = parseInstant(value, this.getTimezone());
	if (instant === undefined) {
		throw new NodeOperationError(
			this.getNode(),
			`The field "${label}" is not a valid date and time (item ${itemIndex})`,
			{ itemIndex, description: 'Give an ISO 8601 date-time such as 2026-11-01T09:30:00Z.' },
		);
	}
	return toUtcIso(instant);
}
