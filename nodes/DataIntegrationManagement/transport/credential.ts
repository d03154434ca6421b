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
 * ("Invalid key …"), as it is or URL-encoded (a Location), whole or in part.
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
 * shorter key), as it is or with its escapes read (%2F, + as a space: any mix of URL encodings).
 * What one part leaves unsaid cannot be guessed, and a hint (a prefix, the last four) stays.
 */
function keyHider(key: string): (text: string) => string {
	const size = Math.max(Math.min(key.length, 8), Math.ceil(key.length / 2));
	const plain = Array.from({ length: key ? key.length - size + 1 : 0 }, (_, at) =>
		key.slice(at, at + size),
	);
	// A key may hold a literal escape (%2f): its parts are read as the text is.
	const parts = new Set(plain.flatMap((part) => [part, decoded(part)]));
	return (text) => {
		const hidden = new Array<boolean>(text.length);
		for (const { read, spans } of [unescaped(text, false), unescaped(text, true)])
			for (const part of parts)
				for (let at = read.indexOf(part); at >= 0; at = read.indexOf(part, at + 1))
					hidden.fill(true, spans[at][0], spans[at + part.length - 1][1]);
		if (!hidden.includes(true)) return text;
		return text.replace(/[^]/g, (char, at: number) =>
			!hidden[at] ? char : hidden[at - 1] ? '' : KEY_MARKER,
		);
	};
}

/**
 * `text` with each run of escapes decoded (as it is if not UTF-8), and `plus` as a space; the
 * span of `text` each of its characters came from.
 */
function unescaped(text: string, plus: boolean) {
	let read = '';
	const spans: Array<readonly [number, number]> = [];
	for (const { 0: piece, index } of text.matchAll(/(?:%[\da-f]{2})+|[^]/gi)) {
		const units = piece.length > 1 ? decoded(piece) : plus && piece === '+' ? ' ' : piece;
		read += units;
		spans.push(...units.split('').map(() => [index, index + piece.length] as const));
	}
	return { read, spans };
}

function decoded(escapes: string): string {
	try {
		return decodeURIComponent(escapes);
	} catch {
		return escapes;
	}
}
