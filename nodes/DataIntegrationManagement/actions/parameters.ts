import { NodeOperationError, type IDataObject, type IExecuteFunctions } from 'n8n-workflow';
import { parseInstant, toUtcIso } from '../timestamps';

/**
 * Reads a JSON-object parameter that the user may give as an object or as JSON text.
 * Empty text means "not given". Anything else fails before a request is sent.
 */
export function readJsonObject(
	this: IExecuteFunctions,
	value: unknown,
	field: string,
	itemIndex: number,
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
				`The field "${field}" is not valid JSON (item ${itemIndex}): ${(error as Error).message}`,
				{ itemIndex, description: 'Give a JSON object such as {"host": "db.example.com"}.' },
			);
		}
	}
	if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
		throw new NodeOperationError(
			this.getNode(),
			`The field "${field}" must be a JSON object (item ${itemIndex})`,
			{ itemIndex, description: 'Give a JSON object such as {"host": "db.example.com"}.' },
		);
	}
	return parsed as IDataObject;
}

/** Reads a string parameter that may be a resource locator (`{ __rl, mode, value }`) or plain text. */
export function readLocator(this: IExecuteFunctions, name: string, itemIndex: number): string {
	const value = this.getNodeParameter(name, itemIndex, '', { extractValue: true });
	return String(value ?? '').trim();
}

/** Reads a required text parameter, failing with the field's name when it is empty. */
export function readRequired(
	this: IExecuteFunctions,
	name: string,
	itemIndex: number,
	label: string,
	value: unknown = this.getNodeParameter(name, itemIndex, '', { extractValue: true }),
): string {
	const text = String(value ?? '').trim();
	if (!text) {
		throw new NodeOperationError(this.getNode(), `The field "${label}" is required (item ${itemIndex})`, {
			itemIndex,
		});
	}
	return text;
}

/** Copies the given optional text fields into `body`, skipping those left empty. */
export function copyTextFields(source: IDataObject, names: string[], body: IDataObject): void {
	for (const name of names) {
		const value = source[name];
		if (typeof value === 'string' && value !== '') body[name] = value;
	}
}

/** Fails, before any request, when an edit operation was given nothing to change. */
export function requireSomeChange(
	this: IExecuteFunctions,
	body: IDataObject,
	labels: string[],
	itemIndex: number,
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
	value: unknown,
	label: string,
	itemIndex: number,
): string | undefined {
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
