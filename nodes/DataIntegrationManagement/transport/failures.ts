/**
 * What a failed request means: the service's status, message and Retry-After, or the network's
 * code, read from the error n8n's HTTP helper threw, and the NodeApiError a user reads for it.
 */
import { NodeApiError, type INode, type JsonObject } from 'n8n-workflow';

export interface Failure {
	status?: number;
	retryAfterSeconds?: number;
	apiCode?: string;
	apiMessage?: string;
	/** Network-level error code (ECONNRESET, ECONNREFUSED, ...) when nothing was answered. */
	networkCode?: string;
	/** The host name or address n8n's SSRF protection refused to send the request to. */
	blockedAddress?: string;
}

/** The names of the errors n8n 2.x's SSRF protection throws (package @n8n/backend-network). */
const SSRF_ERRORS = ['SsrfBlockedIpError', 'SsrfBlockedHostnameError'];

/** The address n8n's SSRF protection blocked, found along the error's chain of causes. */
function ssrfBlockedAddress(error: unknown): string | undefined {
	for (let cause = error, depth = 0; cause && depth < 5; depth++) {
		const { name, hostname, ip } = cause as { name?: unknown; hostname?: unknown; ip?: unknown };
		if (typeof name === 'string' && SSRF_ERRORS.includes(name))
			return String(hostname ?? ip ?? 'the address');
		cause = (cause as { cause?: unknown }).cause;
	}
	return undefined;
}

/**
 * Reads what the service (or the network) said, from the error n8n's HTTP helper threw. n8n 2.x
 * keeps the HTTP client's error as its `cause` (status, headers and body under `response`). n8n
 * 1.x keeps only the status (`httpCode`, or the network code such as ECONNREFUSED there) and the
 * body (`context.data`): no headers, so no Retry-After.
 */
export function describeFailure(error: unknown): Failure {
	const err = error as {
		httpCode?: string | null;
		cause?: unknown;
		code?: string;
		context?: { data?: unknown };
		response?: { status?: number; headers?: Record<string, unknown>; data?: unknown };
	};
	const blockedAddress = ssrfBlockedAddress(error);
	if (blockedAddress) return { blockedAddress };
	const inner = (err.cause ?? err) as typeof err & { cause?: { code?: string } };
	const response = inner.response ?? err.response;
	const httpCode = err.httpCode ? String(err.httpCode) : undefined;
	const httpStatus =
		response?.status ?? (httpCode && /^\d{3}$/.test(httpCode) ? Number(httpCode) : undefined);
	const status = Number.isFinite(httpStatus) ? httpStatus : undefined;
	const data = response?.data ?? err.context?.data;
	const body = (typeof data === 'object' && data !== null ? data : {}) as {
		code?: unknown;
		message?: unknown;
	};
	return {
		status,
		retryAfterSeconds: parseRetryAfter(response?.headers?.['retry-after']),
		apiCode: typeof body.code === 'string' ? body.code : undefined,
		apiMessage: typeof body.message === 'string' ? body.message : undefined,
		// With an answer, the HTTP client's own code (ERR_BAD_REQUEST, ...) says nothing more.
		networkCode:
			status === undefined
				? (inner.code ??
					inner.cause?.code ??
					err.code ??
					(httpCode && !/^\d+$/.test(httpCode) ? httpCode : undefined))
				: undefined,
	};
}

/** The codes n8n's HTTP client (axios) gives a request its timeout ended. */
const TIMEOUT_CODES = ['ECONNABORTED', 'ETIMEDOUT'];

/** Whether the request's timeout ended it, with no answer. */
export function timedOut(failure: Failure): boolean {
	return failure.status === undefined && TIMEOUT_CODES.includes(failure.networkCode ?? '');
}

function parseRetryAfter(value: unknown): number | undefined {
	if (typeof value !== 'string' && typeof value !== 'number') return undefined;
	const seconds = Number(value);
	if (Number.isFinite(seconds)) return Math.max(0, seconds);
	const date = Date.parse(String(value));
	return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

/** One plain sentence per class of failure, shown under the API's own message. */
function describeStatus(status: number | undefined): string {
	if (status === undefined) {
		return 'The service could not be reached or closed the connection. Check the Base URL in the credential and that the service is up, then try again.';
	}
	if (status === 400)
		return 'The service rejected the request as invalid. Check the fields named in the message.';
	if (status === 401) return 'The API key was refused. Check the API Key in the credential.';
	if (status === 403) {
		return 'The API key was accepted but lacks permission for this request. Use a key that is allowed to do it, or ask the workspace admin to grant it.';
	}
	if (status === 404) {
		return "The service found nothing under the IDs or names the request gives. Check the node's ID and name fields.";
	}
	if (status === 429) {
		return 'The service is limiting the rate of requests. Wait a moment, or lower the concurrency, then try again.';
	}
	if (status >= 500) return 'The service had an internal problem. Try again later.';
	return "The service refused the request. Check the node's fields and the credential, then try again.";
}

/** Certificate errors of Node's TLS: the service's certificate could not be verified. */
const CERTIFICATE_ERROR = /CERT|SELF_SIGNED|UNABLE_TO_VERIFY/;

/** Errors raised before the service answered, which the credential or n8n's settings can fix. */
function connectionError(node: INode, failure: Failure): NodeApiError | undefined {
	const { blockedAddress, networkCode } = failure;
	if (blockedAddress) {
		return new NodeApiError(
			node,
			{ message: 'Blocked by SSRF protection', networkCode: 'SSRF_BLOCKED' },
			{
				message: `n8n blocked the request to ${blockedAddress}: its SSRF protection does not allow this address`,
				description: `n8n's SSRF protection (N8N_SSRF_PROTECTION_ENABLED) blocks private and local addresses. To reach the service at the Base URL, ask your n8n administrator to add ${blockedAddress} to N8N_SSRF_ALLOWED_HOSTNAMES, or its address range to N8N_SSRF_ALLOWED_IP_RANGES.`,
			},
		);
	}
	if (networkCode && CERTIFICATE_ERROR.test(networkCode)) {
		return new NodeApiError(
			node,
			{ message: 'Certificate not trusted', networkCode },
			{
				message: `The service's certificate could not be verified (${networkCode})`,
				description:
					'If the service uses a certificate your company signs itself, give n8n that certificate authority with NODE_EXTRA_CA_CERTS, or turn on Ignore SSL Issues (Insecure) in the credential.',
			},
		);
	}
	return undefined;
}

export function toNodeApiError(node: INode, failure: Failure): NodeApiError {
	const connectionFailure = connectionError(node, failure);
	if (connectionFailure) return connectionFailure;
	const { status, apiCode, apiMessage, networkCode } = failure;
	const errorResponse: JsonObject = {
		message: apiMessage ?? (status ? `HTTP ${status}` : 'No response'),
		...(apiCode ? { code: apiCode } : {}),
		...(networkCode ? { networkCode } : {}),
	};
	const message = apiMessage
		? `${apiMessage}${apiCode ? ` [${apiCode}]` : ''}`
		: status
			? 'The service answered with an error but gave no message'
			: `The service did not answer${networkCode ? ` (${networkCode})` : ''}`;
	return new NodeApiError(node, errorResponse, {
		message,
		description: describeStatus(status),
		httpCode: status ? String(status) : undefined,
	});
}
