/**
 * What a failed request means: what the service answered (status, Retry-After, code, message,
 * where a redirect points), or, with no answer, the network's code or n8n's SSRF refusal; why
 * (./failureCause.ts); and the NodeApiError a user reads.
 */
import { NodeApiError, type INode, type JsonObject } from 'n8n-workflow';

import { MAX_RETRY_AFTER_SECONDS } from '../pacing/pacer';
import {
	BASE_URL_FORM,
	notFoundOf,
	notFoundWords,
	redirectTarget,
	VERSION_SEGMENT,
	type RequestAddress,
} from './addresses';
import {
	CERTIFICATE_ERROR,
	CERTIFICATE_FAULTS,
	declaring,
	failureCause,
	INVALID_URL,
	NOT_TLS,
	NETWORK_WORDS,
	NO_API_KEY,
	type RequestFailure,
} from './failureCause';

export type { RequestFailure } from './failureCause';

/** What a request that found no turn of the shared pace in time says (./shared-pace.ts). */
export const PACE_BUSY = 'PACE_BUSY';

/** An answer as n8n's HTTP helper returns it with `returnFullResponse`. */
export interface FullResponse {
	statusCode: number;
	headers?: Record<string, unknown>;
	body?: unknown;
}

/** What an error answer (400 or more) or a redirect (3xx, never followed) says; else undefined. */
export function failureOfAnswer(answer: FullResponse): RequestFailure | undefined {
	const { statusCode, headers, body } = answer;
	if (!(statusCode >= 300)) return undefined;
	const text = typeof body === 'string' ? body.trim() : '';
	const location = headers?.location;
	const fields = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
	return {
		status: statusCode,
		retryAfterSeconds: parseRetryAfter(headers?.['retry-after']),
		apiCode: serviceText(fields.code),
		apiMessage: serviceText(fields.message),
		...(statusCode < 400 && typeof location === 'string' && { location }),
		...(statusCode >= 400 &&
			text && { page: /^<(!doctype html|html|head|body)\b/i.test(text) ? 'a web page' : 'text' }),
	};
}

/** The most of the service's message or code an error shows; the key is looked for in twice that. */
export const MAX_SERVICE_TEXT = 2000;
/** The service's message or code (a list's texts joined), unless blank, cut at `most` between characters. */
function serviceText(value: unknown, most = 2 * MAX_SERVICE_TEXT): string | undefined {
	const parts = [value].flat().filter((part) => /string|number/.test(typeof part));
	const text = parts.filter((part) => String(part).trim()).join('; ');
	if (!text) return undefined;
	return text.length <= most ? text : `${text.slice(0, most).replace(/[\uD800-\uDBFF]$/, '')}…`;
}

/** The names of the errors n8n 2.x's SSRF protection throws (package @n8n/backend-network). */
const SSRF_ERRORS: readonly unknown[] = ['SsrfBlockedIpError', 'SsrfBlockedHostnameError'];
/** How far down an error's causes the transport looks. */
const MAX_CAUSES = 5;

/** The error and its causes, outermost first, at most MAX_CAUSES deep. */
function causesOf(error: unknown): Array<Record<string, unknown>> {
	const chain: Array<Record<string, unknown>> = [];
	for (let level = error; typeof level === 'object' && level !== null; ) {
		if (chain.length === MAX_CAUSES || chain.includes(level as Record<string, unknown>)) break;
		chain.push(level as Record<string, unknown>);
		level = (level as { cause?: unknown }).cause;
	}
	return chain;
}

/**
 * What a request with no answer says, from the error n8n threw: its SSRF refusal, or the network's
 * code (n8n 2.x: on a cause's `code`; n8n 1.x: in `httpCode`).
 */
export function failureOfError(error: unknown): RequestFailure {
	const chain = causesOf(error);
	const blocked = chain.find(({ name }) => SSRF_ERRORS.includes(name));
	if (blocked) return { blockedAddress: String(blocked.ip ?? blocked.hostname ?? 'the address') };
	// The causes first: the outermost error is n8n's own, whose fields are not the network's.
	const code = [...chain.slice(1), chain[0]]
		.map((level) => level?.code)
		.find((value) => typeof value === 'string' && value !== '');
	// n8n 1.x's httpCode: a status (it starts with a digit) or a network code (ECONNREFUSED).
	const httpCode = chain[0]?.httpCode;
	const networkCode =
		(code as string | undefined) ??
		(typeof httpCode === 'string' && !/^\d/.test(httpCode) ? httpCode : undefined);
	return networkCode ? { networkCode } : {};
}

/** The codes n8n's HTTP client (axios) gives a request its timeout ended. */
const TIMEOUT_CODES: ReadonlyArray<string | undefined> = ['ECONNABORTED', 'ETIMEDOUT'];

/** Whether the request's timeout ended it, with no answer. */
export function timedOut(failure: RequestFailure): boolean {
	return failure.status === undefined && TIMEOUT_CODES.includes(failure.networkCode);
}

/** Retry-After as seconds from now: a number of seconds, or an HTTP date. */
function parseRetryAfter(value: unknown): number | undefined {
	if (typeof value !== 'string' && typeof value !== 'number') return undefined;
	const seconds = Number(value);
	if (Number.isFinite(seconds)) return Math.max(0, seconds);
	const date = Date.parse(String(value));
	return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

/** One plain sentence per class of failure but 404, under the API's own message; `write`: a change was asked. */
function describeStatus(failure: RequestFailure, { write, field }: ErrorOptions): string {
	const { status, networkCode } = failure;
	if (networkCode === NOT_TLS)
		return 'If the service takes plain HTTP only, set the Base URL in the credential to http://…; if it takes https://, its TLS may be too old for n8n: ask its owner.';
	const notReached = `could not be reached or closed the connection${networkCode ? ` (network error ${networkCode})` : ''}`;
	if (status === undefined)
		return `The service ${timedOut(failure) ? 'did not answer in time' : notReached}. Check the Base URL in the credential and that the service is up${write && mayHaveActed(failure) ? '' : ', then try again'}.`;
	// In text: a 401 or 403 may be a proxy's; byAnotherServer says which other 4xx are not the API's.
	const inFront = failure.page
		? ", or a server in front of the API refused it (a proxy, a firewall blocking n8n's address: ask whoever runs the service)"
		: '';
	if (byAnotherServer(failure) && ![401, 403].includes(status))
		return 'A server other than the API may have answered (a proxy, a sign-in page, http:// to an https:// port). Check the Base URL in the credential: its scheme, host, port and path.';
	if (status === 400)
		return 'The service rejected the request as invalid. Check the fields the message names, or the values set in the node when it names none.';
	if (status === 401)
		return `The API key was refused${inFront}. Check the API Key in the credential.`;
	if (status === 403)
		return `The API key lacks permission for this request${inFront}. Use a key that is allowed to do it, or ask the workspace admin to grant it.`;
	const asked = failure.retryAfterSeconds;
	const lower = field ? `, or lower Options → ${field}` : '';
	if (status === 429)
		return `The service is limiting the rate of requests${asked ? ` and asked to wait ${asked} s` : ''}. Wait ${asked ? 'that long' : 'a moment'}${lower}, then try again.`;
	if (status === 503)
		return `The service is overloaded and turned the request away${write ? ', so it changed nothing' : ''}. ${(asked ?? 0) > MAX_RETRY_AFTER_SECONDS ? `It asked to wait ${asked} s, longer than the node waits (${MAX_RETRY_AFTER_SECONDS} s), so it was not sent again` : 'It was sent again after each wait the node allows'}; try again later${lower}.`;
	if (status >= 500) return 'The service had an internal problem. Try again later.';
	return "The service refused the request. Check the node's fields and the credential, then try again.";
}

/** An error answer in text, whose 4xx the API would give in JSON (these mean the same from any server). */
const byAnotherServer = ({ page, status = 0 }: RequestFailure) =>
	page !== undefined && status < 500 && ![404, 408, 413, 414, 429, 431].includes(status);

/** The network codes of a request that never reached the service. */
const NEVER_SENT = ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', INVALID_URL, NO_API_KEY, PACE_BUSY];

/**
 * Whether the service may have acted: a 5xx but 501 and 503, or sent with nothing back (a timeout,
 * a dropped connection). 429 and 503 say it did not; a refused connection, an unknown host, a
 * certificate, an answer not in TLS (NOT_TLS) or n8n's SSRF refusal mean it never arrived.
 */
export function mayHaveActed({ status, networkCode, blockedAddress }: RequestFailure): boolean {
	// A 303 answers a request acted on with where to read the result ("see other").
	if (status !== undefined)
		return (status >= 500 && status !== 501 && status !== 503) || status === 303;
	if (blockedAddress !== undefined || NEVER_SENT.includes(networkCode ?? '')) return false;
	return !CERTIFICATE_ERROR.test(networkCode ?? '') && networkCode !== NOT_TLS;
}

/** What a write's error adds when the change may have been made (see mayHaveActed). */
export const MAY_HAVE_ACTED =
	'The change may have been made before this failure, so the node did not send it again: check before running it again, or it may be made twice.';

/** `field`: the field of Options that sets the concurrency of the run that sent it, if any. */
type ErrorOptions = { waitMs?: number; write?: boolean; address?: RequestAddress; field?: string };

/**
 * The error a user reads for `failure`, declaring why it failed; `waitMs`: the wait not waited
 * out; `write`: after a failure that may have acted, the error says the change may be made;
 * `address`: the request its words name; a 404's words and context, what it is of (./addresses.ts).
 */
export function toNodeApiError(
	node: INode,
	failure: RequestFailure,
	said: ErrorOptions = {},
): NodeApiError {
	const { write, address } = said;
	const notFound = failure.status === 404 ? notFoundOf(failure, address) : undefined;
	const { errorResponse, ...options } =
		connectionError(failure) ?? redirectError(failure, address) ?? serviceError(failure, said);
	if (notFound) options.description = notFoundWords(notFound, address);
	const acted = write && mayHaveActed(failure);
	if (acted) options.description = `${options.description}\n\n${MAY_HAVE_ACTED}`;
	const cause = failureCause(failure, said.waitMs);
	const error = declaring(new NodeApiError(node, errorResponse, options), cause);
	// Ours, not n8n's for a network code ("You can retry the request immediately", after a write too).
	error.message = options.message;
	error.messages = [...new Set(error.messages)];
	const byAnother = byAnotherServer(failure) && { byAnotherServer: true };
	Object.assign(error.context, notFound, acted && { mayHaveActed: true }, byAnother);
	// An answer with no words of the service's: a caller says so in its own words.
	if ((failure.status ?? 0) >= 400 && !failure.apiMessage && !failure.page)
		error.context.withoutMessage = true;
	return error;
}

interface ErrorWords {
	/** The raw record n8n keeps beside the message. */
	errorResponse: JsonObject;
	message: string;
	description: string;
	httpCode?: string;
}

/** Errors raised before the service answered, which the credential or n8n's settings can fix. */
function connectionError({ blockedAddress, networkCode }: RequestFailure): ErrorWords | undefined {
	if (blockedAddress) {
		return {
			errorResponse: { message: 'Blocked by SSRF protection', networkCode: 'SSRF_BLOCKED' },
			message: `n8n blocked the request to ${blockedAddress}: its SSRF protection does not allow this address`,
			description: `n8n's SSRF protection blocks private and local addresses, and those an administrator blocked. Set the Base URL in the credential to an address of the service that n8n may reach; on self-hosted n8n, an administrator can instead add the Base URL's host name to N8N_SSRF_ALLOWED_HOSTNAMES${/^[\d.]+$|:/.test(blockedAddress) ? ` (where it is a name, not an address), or a range holding ${blockedAddress} to N8N_SSRF_ALLOWED_IP_RANGES` : ''}.`,
		};
	}
	if (networkCode && CERTIFICATE_ERROR.test(networkCode)) {
		return {
			errorResponse: { message: 'Certificate not trusted', networkCode },
			message: `The service's certificate could not be verified (${networkCode})`,
			description:
				CERTIFICATE_FAULTS[networkCode] ??
				'If the service uses a certificate your company signs itself, turn on Ignore SSL Issues (Insecure) in the credential; on self-hosted n8n, an administrator can instead trust that certificate authority with NODE_EXTRA_CA_CERTS, which is safer.',
		};
	}
	if (networkCode === INVALID_URL) {
		return {
			errorResponse: { message: 'Base URL not a URL', networkCode },
			message:
				'The Base URL in the credential is not a plain http:// or https:// address: nothing was sent',
			description: `Set it to ${BASE_URL_FORM}, with its scheme and without a query (?), fragment (#) or space: e.g. https://api.example.com${VERSION_SEGMENT}.`,
		};
	}
	if (networkCode === NO_API_KEY) {
		return {
			errorResponse: { message: 'No API key', networkCode },
			message: 'The API Key in the credential is empty: nothing was sent',
			description: "Paste the service's API key into the credential's API Key field.",
		};
	}
	if (networkCode === PACE_BUSY) {
		return {
			errorResponse: { message: 'Busy with a run', networkCode },
			message: 'A run on this credential uses every request the service allows: nothing was sent',
			description:
				"Concurrency Mode Auto shares the pace the service allows among everything that uses this credential in this n8n, and this request found no turn in time while a run used it. Try again when the run has finished (a trigger's next poll reads again from where it was), or give that run a lower Options → Max Concurrency.",
		};
	}
	return undefined;
}

/** A redirect (3xx), never followed: where it points, and the Base URL to set or check. */
function redirectError(
	{ status, location }: RequestFailure,
	address?: RequestAddress,
): ErrorWords | undefined {
	if (status === undefined || status < 300 || status >= 400) return undefined;
	const { shown, baseUrl } = redirectTarget(location, address);
	const fix = baseUrl
		? `If the service has moved there, set the Base URL in the credential to ${baseUrl}.`
		: `Check the Base URL in the credential: it must be ${BASE_URL_FORM}.`;
	return {
		errorResponse: { message: 'Redirected', ...(shown && { location: shown }) },
		message: `The service at the Base URL ${shown ? `redirected the request to ${shown}` : `answered with a redirect (HTTP ${status}) that named no address`}, and the node follows no redirect`,
		description: `${fix} The node sends the API key only to the Base URL: nothing was sent where the redirect points.`,
		httpCode: String(status),
	};
}

/** What the service answered, or that it did not answer. */
function serviceError(failure: RequestFailure, said: ErrorOptions): ErrorWords {
	const { status, networkCode } = failure;
	const apiCode = serviceText(failure.apiCode, MAX_SERVICE_TEXT);
	const apiMessage = serviceText(failure.apiMessage, MAX_SERVICE_TEXT);
	const code = apiCode ? ` [${apiCode}]` : '';
	const message = apiMessage
		? `${apiMessage}${code}`
		: status
			? `The service answered with ${failure.page ? `${failure.page} (HTTP ${status}), not the API's JSON` : `an error but gave no message${code}`}`
			: `The service ${NETWORK_WORDS[networkCode ?? ''] ?? 'did not answer'}`;
	return {
		errorResponse: {
			message: apiMessage ?? (status ? `HTTP ${status}` : 'No response'),
			...(apiCode ? { code: apiCode } : {}),
			...(networkCode ? { networkCode } : {}),
		},
		message,
		description: describeStatus(failure, said),
		...(status ? { httpCode: String(status) } : {}),
	};
}
