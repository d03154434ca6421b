/** The credential the nodes call the service with, as the transport and the shared pace read it. */
import type { RequestFailure } from './failureCause';

export const CREDENTIAL_TYPE = 'dataIntegrationManagementApi';

/** The credential's fields the transport reads; the key for the shared pace's digest, and to keep it out of errors. */
export type ServiceCredentials = Partial<Record<'baseUrl' | 'apiKey' | 'ignoreSSLIssues', unknown>>;

/** The credential's key as it is sent: without spaces or a line break around it (a pasted key). */
export const apiKeyOf = (credentials: { apiKey?: unknown }): string =>
	String(credentials.apiKey ?? '').trim();

/** The credential's base URL, without spaces around it or a trailing slash. */
export const baseUrlOf = (credentials: { baseUrl?: unknown }): string =>
	String(credentials.baseUrl).trim().replace(/\/+$/, '');

/**
 * `failure` with the API key (as sent: apiKeyOf) replaced where the service's words repeat it
 * ("Invalid key …"), as it is or percent-encoded (a Location's path), whole or in part.
 */
export function withoutKey(failure: RequestFailure, key: string): RequestFailure {
	const hide = keyHider(key ? [key, encodeURIComponent(key)] : []);
	const said = { ...failure };
	for (const field of ['apiMessage', 'apiCode', 'location'] as const)
		if (said[field] !== undefined) said[field] = hide(said[field]);
	return said;
}

/**
 * Hides any part of a form of the key as long as half of it, 8 characters at least (the whole of a
 * shorter key): what stays unsaid cannot be guessed, and a service's hint (a prefix, the last
 * four) stays readable.
 */
function keyHider(forms: string[]): (text: string) => string {
	const parts = forms.flatMap((form) => {
		const size = Math.max(Math.min(form.length, 8), Math.ceil(form.length / 2));
		return Array.from({ length: form.length - size + 1 }, (_, at) => form.slice(at, at + size));
	});
	return (text) => {
		const hidden = new Array<boolean>(text.length);
		for (const part of parts)
			for (let at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1))
				hidden.fill(true, at, at + part.length);
		return text.replace(/[^]/g, (char, at: number) =>
			!hidden[at] ? char : hidden[at - 1] ? '' : '[API key]',
		);
	};
}
