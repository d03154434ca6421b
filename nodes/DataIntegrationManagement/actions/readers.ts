import { NodeOperationError, type IDataObject, type IExecuteFunctions } from 'n8n-workflow';

import { parseInstant, toUtcIso } from '../shared/timestamps';

/**
 * Readers of the operations' parameters. Each is called on the execute context and takes its
 * arguments in one order: `readX.call(this, itemIndex, name, label, ...)`, where `name` is the
 * parameter's path and `label` what errors call it. Bad input fails here, naming the field and
 * the item, before any request is sent.
 */

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
	let parsed = value;
	if (typeof value === 'string') {
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
	return parsed as IDataObject;
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
