import { NodeApiError, type INode, type INodeProperties } from 'n8n-workflow';

import { displayNameOf } from './descriptions';
import { declaredError, listed } from './failures';

/** A value as a not-found description shows it: quoted, and cut short when long. */
const quoted = (value: string) =>
	JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);

const GUESS = ' If both are right, the service may not offer this operation.';

/**
 * A not-found answer's description, naming `fields` (label → value) that named what is missing,
 * and the Base URL, which a request with IDs also depends on.
 */
function notFoundDescription(fields: Record<string, string>): string {
	const named = Object.entries(fields).map(([label, value]) => `${label} ${quoted(value)}`);
	const labels = Object.keys(fields);
	const check = labels.length === 1 ? `the ${labels[0]}` : `each of ${listed(labels)}`;
	return `The service found nothing for ${listed(named)}. Check that ${check} names one that exists, and that the Base URL in the credential is the API's address, ending in /v1.`;
}

/**
 * Runs a request of an operation or a picker of `node`; when the service answers that what it
 * names does not exist, the error's description names the fields that named it: `sent` maps a field's name
 * among `properties` to the value sent, and the description shows the field's display name. A
 * 404 the transport found to be of an unknown address (`routeMissing`) keeps its Base URL words;
 * one whose words quote a reference the body sent (`missingField`) names that field alone. `more`
 * follows the description (what else the request names that may be missing); `references`: other
 * records the body names (an owner), named when the words quote them or quote nothing sent.
 */
export async function namingFieldsIfNotFound<T>(
	node: INode,
	properties: INodeProperties[],
	sent: Record<string, string>,
	request: Promise<T>,
	more = '',
	references: Record<string, string> = {},
): Promise<T> {
	try {
		return await request;
	} catch (error) {
		const notFound = error instanceof NodeApiError && error.httpCode === '404';
		// A reference the words quote: that field alone; else `sent` and the references transport named.
		const { missingField: field, references: suspects = [] } = notFound ? error.context : {};
		const named = Object.entries({ ...sent, ...references }).filter(([name]) =>
			field === undefined ? name in sent || (suspects as string[]).includes(name) : name === field,
		);
		// A request with no ID whose words quote nothing (a create's): the address may be what is missing.
		const guess = field === undefined && !Object.keys(sent).length ? GUESS : '';
		if (notFound && !error.context.routeMissing && named.length) {
			error.description = `${notFoundDescription(
				Object.fromEntries(named.map(([name, value]) => [displayNameOf(properties, name), value])),
			)}${guess}${more}`;
		}
		throw declaredError(node, error);
	}
}
