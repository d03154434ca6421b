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
 * ("Invalid key …"), as it is, percent- or form-encoded (a Location), whole or in part.
 */
export function withoutKey(failure: RequestFailure, key: string): RequestFailure {
	const hide = keyHider(key);
	const said = { ...failure };
	for (const field of ['apiMessage', 'apiCode', 'location'] as const)
		if (said[field] !== undefined) said[field] = hide(said[field]);
	return said;
}

/** What an answer shows where it repeated the key. */
export const KEY_MARKER = '[API key]';

/**
 * Hides any one part of the key as long as half of it, 8 characters at least (the whole of a
 * shorter key), as it is, percent-encoded or form-encoded: what one part leaves unsaid cannot be guessed, and a
 * service's hint (a prefix, the last four) stays readable.
 */
function keyHider(key: string): (text: string) => string {
	const size = Math.max(Math.min(key.length, 8), Math.ceil(key.length / 2));
	const plain = Array.from({ length: key ? key.length - size + 1 : 0 }, (_, at) =>
		key.slice(at, at + size),
	);
	// Escapes in upper case, in the parts as in the text searched (a key may hold a literal %2f).
	const upper = (text: string) => text.replace(/%[\da-f]{2}/gi, (escape) => escape.toUpperCase());
	const parts = new Set(plain.flatMap((part) => [part, ...encodings(part)].map(upper)));
	return (text) => {
		const hidden = new Array<boolean>(text.length);
		// %2f as %2F: the same length, so positions hold.
		const seen = upper(text);
		for (const part of parts)
			for (let at = seen.indexOf(part); at >= 0; at = seen.indexOf(part, at + 1))
				hidden.fill(true, at, at + part.length);
		if (!hidden.includes(true)) return text;
		return text.replace(/[^]/g, (char, at: number) =>
			!hidden[at] ? char : hidden[at - 1] ? '' : KEY_MARKER,
		);
	};
}

/** `part` as a URL's path and a form (space as +, ~!'() escaped) carry it; not a lone surrogate. */
function encodings(part: string): string[] {
	try {
		const encoded = encodeURIComponent(part);
		return [encoded, new URLSearchParams([['', part]]).toString().slice(1)];
	} catch {
		return [];
	}
}
