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

/** `failure` with the key (apiKeyOf) replaced where the service's words repeat it ("Invalid key …"). */
export function withoutKey(failure: RequestFailure, key: string): RequestFailure {
	const hide = keyHider(key);
	const said = { ...failure };
	for (const field of ['apiMessage', 'apiCode', 'location'] as const)
		if (said[field] !== undefined) said[field] = hide(said[field]);
	return said;
}

/** What an answer shows where it repeated the key. */
export const KEY_MARKER = '[API key]';

/** How many times the words are read for escapes: a URL in a redirect's query, itself in one. */
const DECODINGS = 3;

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
	const parts = new Set(plain.flatMap((part) => [part, decoded(part) ?? part]));
	return (text) => {
		const hidden = new Array<boolean>(text.length);
		for (const { read, from, to } of readingsOf(text))
			for (const part of parts)
				for (let at = read.indexOf(part); at >= 0; at = read.indexOf(part, at + 1))
					hidden.fill(true, from[at], to[at + part.length - 1]);
		if (!hidden.includes(true)) return text;
		return text.replace(/[^]/g, (char, at: number) =>
			!hidden[at] ? char : hidden[at - 1] ? '' : KEY_MARKER,
		);
	};
}

/** A text as read, and where in the original each of its characters starts and ends. */
type Reading = { read: string; from: Int32Array; to: Int32Array };

/** `text` as it is, and its escapes read once to DECODINGS times, a + kept or read as a space. */
function readingsOf(text: string): Reading[] {
	const from = Int32Array.from({ length: text.length }, (_, at) => at);
	const readings: Reading[] = [{ read: text, from, to: from.map((at) => at + 1) }];
	for (const plus of [false, true]) {
		const more = plus ? /%[\da-f]{2}|\+/i : /%[\da-f]{2}/i;
		let last = readings[0];
		for (let depth = 0; depth < DECODINGS && more.test(last.read); depth++)
			readings.push((last = unescaped(last, plus)));
	}
	return readings;
}

/** Each escaped UTF-8 character read alone (no escape, or no UTF-8, stays); + a space if `plus`. */
function unescaped({ read: text, from, to }: Reading, plus: boolean): Reading {
	const next = { read: '', from: new Int32Array(text.length), to: new Int32Array(text.length) };
	for (let at = 0; at < text.length; ) {
		const escaped = text[at] === '%';
		const length = escaped ? 3 * utf8Bytes(parseInt(text.slice(at + 1, at + 3), 16)) : 1;
		const escapes = escaped ? decoded(text.slice(at, at + length)) : undefined;
		const taken = escapes === undefined ? 1 : length;
		for (const unit of (escapes ?? (plus && text[at] === '+' ? ' ' : text[at])).split('')) {
			next.from[next.read.length] = from[at];
			next.to[next.read.length] = to[at + taken - 1];
			next.read += unit;
		}
		at += taken;
	}
	return next;
}

/** The bytes of a UTF-8 character whose first byte is `lead` (an invalid one does not decode). */
const utf8Bytes = (lead: number) => (lead < 0x80 ? 1 : lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : 2);

function decoded(escapes: string): string | undefined {
	try {
		return decodeURIComponent(escapes);
	} catch {
		return undefined;
	}
}
