/**
 * Why a request failed, as n8n reads it: the `failure` a node declares on its error (n8n-workflow
 * 2.41's `Failure`). n8n's durable scheduler backs a failing poll off by it: a timed cause waits
 * at least the wait declared, a cause someone must act on holds the trigger for 30 minutes. One
 * pure decision for every request the nodes, their pickers and the trigger send; docs/design.md
 * ("Why a request failed") gives the table and the reasons. n8n 1.x has no such field: the
 * declaration sits on the error unread.
 */
import type { Failure } from 'n8n-workflow';

/** What the service answered, or why nothing was answered: what ./failures.ts reads. */
export interface RequestFailure {
	status?: number;
	retryAfterSeconds?: number;
	apiCode?: string;
	apiMessage?: string;
	/** Network-level error code (ECONNRESET, ECONNREFUSED, ...) when nothing was answered. */
	networkCode?: string;
	/** The host name or address n8n's SSRF protection refused to send the request to. */
	blockedAddress?: string;
	/** A redirect's (3xx) Location header as sent: never followed, shown without its query. */
	location?: string;
	/** An error answer in text, not the API's JSON: often another server's (a proxy, a sign-in page). */
	page?: 'a web page' | 'text';
}

/** The network codes of Node's TLS (OpenSSL's) for a certificate that could not be verified. */
export const CERTIFICATE_ERROR = /CERT|SELF_SIGNED|UNABLE_TO_|INVALID_(CA|PURPOSE)|PATH_LEN/;
/** What a certificate's own fault, by its code, asks (trusting another authority cannot help). */
export const CERTIFICATE_FAULTS: Record<string, string> = {
	CERT_HAS_EXPIRED: "The certificate has expired: ask the service's owner to renew it.",
	CERT_NOT_YET_VALID: "The certificate is not valid yet: check n8n's clock, or ask its owner.",
	ERR_TLS_CERT_ALTNAME_INVALID: 'The certificate is for another host: check the Base URL.',
};
/** Node's code for a URL it cannot read; also a Base URL the transport refuses before sending. */
export const INVALID_URL = 'ERR_INVALID_URL';
/** TLS's code for an answer that is not TLS: an https:// Base URL to a plain http:// service. */
export const NOT_TLS = 'EPROTO';
/** A credential whose API Key is empty once trimmed (spaces only): the transport sends nothing. */
export const NO_API_KEY = 'NO_API_KEY';

/**
 * What a network code says happened, in words: a message naming the code gets n8n's words in its
 * place wherever n8n wraps the error again (the AI tool form: "You can retry the request immediately").
 */
export const NETWORK_WORDS: Record<string, string> = {
	ECONNREFUSED: 'refused the connection',
	ECONNRESET: 'closed the connection before answering',
	ETIMEDOUT: 'did not answer in time',
	ECONNABORTED: 'did not answer in time',
	ENOTFOUND: 'was not found: no address is known for its host name',
	EAI_AGAIN: 'was not found: looking up its host name failed',
	[NOT_TLS]: 'could not start TLS with n8n, as the https:// Base URL asks: nothing was sent',
};

/** `error` declaring `failure`, set on it: n8n 1.x's errors drop the constructor's option. */
export const declaring = <E extends { failure?: Failure }>(error: E, failure: Failure): E =>
	Object.assign(error, { failure });

/** A timed cause, with the wait when there is one to declare. */
const timed = (cause: 'rate-limited' | 'temporarily-unavailable', retryAfterMs = 0): Failure =>
	retryAfterMs > 0 ? { cause, retryAfterMs } : { cause };

/**
 * Why `failure` happened. `waitMs`: the backoff the transport computed for a 429 it did not wait
 * out, declared when the service named no wait (Retry-After).
 */
export function failureCause(failure: RequestFailure, waitMs?: number): Failure {
	const { status, networkCode, blockedAddress } = failure;
	if (blockedAddress !== undefined) return { cause: 'configuration-invalid' };
	if (networkCode === NO_API_KEY) return { cause: 'credential-invalid' };
	if (status === undefined) {
		const code = networkCode ?? '';
		const setting = CERTIFICATE_ERROR.test(code) || [INVALID_URL, NOT_TLS].includes(code);
		return { cause: setting ? 'configuration-invalid' : 'temporarily-unavailable' };
	}
	const serviceWaitMs = failure.retryAfterSeconds && failure.retryAfterSeconds * 1000;
	if (status === 429) return timed('rate-limited', serviceWaitMs ?? waitMs);
	if (status === 408 || status >= 500) return timed('temporarily-unavailable', serviceWaitMs);
	if (status === 401) return { cause: 'credential-invalid' };
	// Any other: a redirect (the Base URL moved), a 404 (the Base URL or an ID), a refused value.
	return { cause: 'configuration-invalid' };
}
