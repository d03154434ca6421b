import { NodeApiError, type INodeProperties } from 'n8n-workflow';

import { displayNameOf } from './descriptions';

/** A value as a not-found description shows it: quoted, and cut short when long. */
function quoted(value: string): string {
	return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
}

/** "A", "A and B", "A, B and C". */
function listed(parts: string[]): string {
	return parts.length === 1
		? parts[0]
		: `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

/** The error, its description naming `fields` (label → value) when the service found nothing. */
function namingFields(error: unknown, fields: Record<string, string>): unknown {
	if (!(error instanceof NodeApiError) || error.httpCode !== '404') return error;
	const named = Object.entries(fields).map(([label, value]) => `${label} ${quoted(value)}`);
	const labels = Object.keys(fields);
	error.description =
		labels.length === 1
			? `The service found nothing for ${named[0]}. Check that the ${labels[0]} names one that exists.`
			: `The service found nothing for ${listed(named)}. Check that ${listed(labels)} name one that exists.`;
	return error;
}

/**
 * Runs a request of an operation or a picker; when the service answers that what it names does
 * not exist, the error's description names the fields that named it: `sent` maps a field's name
 * among `properties` to the value sent, and the description shows the field's display name.
 */
export async function namingFieldsIfNotFound<T>(
	properties: INodeProperties[],
	sent: Record<string, string>,
	request: Promise<T>,
): Promise<T> {
	try {
		return await request;
	} catch (error) {
		const fields = Object.fromEntries(
			Object.entries(sent).map(([name, value]) => [displayNameOf(properties, name), value]),
		);
		throw namingFields(error, fields);
	}
}
