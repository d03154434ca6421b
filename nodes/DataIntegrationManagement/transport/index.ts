/**
 * HTTP only: the URL, authentication (n8n's httpRequestWithAuthentication) and waiting out 429s
 * and 503s through the pacer; what a failure means is in ./failures.ts, endpoints in ../client/.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IPollFunctions,
} from 'n8n-workflow';

import { baseUrlOf, CREDENTIAL_TYPE, type ServiceCredentials } from './credential';
import {
	failureOfAnswer,
	failureOfError,
	timedOut,
	toNodeApiError,
	withoutKey,
	type FullResponse,
	type RequestFailure,
} from './failures';
import { requestKind } from './overload';
import { RETRY_AFTER_WAITS, retryWaitMs, systemClock, type Clock, type Pacer } from './pacer';
import { paceOf } from './shared-pace';

export { CREDENTIAL_TYPE } from './credential';

/** Every n8n context the nodes call the service from: operations, pickers, the trigger. */
export type Context = IExecuteFunctions | ILoadOptionsFunctions | IPollFunctions;

export interface RequestOptions {
	body?: IDataObject;
	qs?: IDataObject;
	/** Epoch ms: neither the request nor a wait for a 429 or 503 outlasts it. */
	deadline?: number;
	/** The run's pacer; without one (the trigger, the pickers) a slot of the shared pace. */
	pacer?: Pacer;
}

/**
 * Sends one request to the service: the body of its successful answer as it came, and when the
 * service answered (its `Date` header, epoch ms). n8n's `httpRequestWithAuthentication` adds the
 * key; a failure is a NodeApiError built from the response alone, the key replaced where the
 * service's words repeat it, so the key never travels with it.
 */
export async function apiRequest(
	this: Context,
	method: IHttpRequestMethods,
	path: string,
	options: RequestOptions = {},
): Promise<{ body: unknown; date?: number }> {
	const credentials = await this.getCredentials<ServiceCredentials>(CREDENTIAL_TYPE);
	const request: IHttpRequestOptions = {
		method,
		url: `${baseUrlOf(credentials)}${path}`,
		qs: options.qs,
		json: true,
		// Every answer comes back with its status and headers, as the helper documents.
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		// The credential's Ignore SSL Issues toggle, applied by n8n's own HTTP client.
		skipSslCertificateValidation: credentials.ignoreSSLIssues === true,
	};
	if (options.body) {
		// As text: n8n's client deep-copies an object, dropping keys such as `__proto__`.
		request.body = JSON.stringify(options.body);
		request.headers = { 'content-type': 'application/json' };
	}

	// One item's slot, waiting out as many 429s and 503s with Retry-After as outside Auto.
	const slot = options.pacer ? undefined : paceOf(credentials).join(1, RETRY_AFTER_WAITS);
	await slot?.start();
	const response = await sendWithRetries<FullResponse>(
		async (timeoutMs) => {
			request.timeout = timeoutMs;
			return (await this.helpers.httpRequestWithAuthentication.call(
				this,
				CREDENTIAL_TYPE,
				request,
			)) as FullResponse;
		},
		{
			pacer: options.pacer ?? slot!,
			kind: requestKind(method, path),
			deadline: options.deadline,
			failureOf: failureOfAnswer,
		},
		(failure, { deadlineReached, waitMs }) => {
			const said = withoutKey(failure, String(credentials.apiKey ?? ''));
			const apiError = toNodeApiError(this.getNode(), said, { waitMs, write: method !== 'GET' });
			// The caller's deadline, not the service, ended the request: the caller may keep what it has.
			if (deadlineReached) apiError.context.deadlineReached = true;
			return apiError;
		},
	).finally(() => slot?.leave());
	const date = Date.parse(String(response.headers?.date));
	return { body: response.body, ...(Number.isNaN(date) ? {} : { date }) };
}

/**
 * The transport's one loop: sends (`send`, given the time left), tells the pacer each answer and
 * waits out 429s and 503s through it (the service did not act: any method goes again; after a
 * 5xx, a timeout or a dropped connection a write may have acted, so nothing else does). A failure
 * not waited out is thrown as `toError` makes it. Clock and `random` are a simulation's to set.
 */
export async function sendWithRetries<R>(
	send: (timeoutMs: number | undefined) => Promise<R>,
	options: {
		pacer: Pacer;
		kind: string;
		deadline?: number;
		failureOf: (response: R) => RequestFailure | undefined;
		clock?: Clock;
		random?: () => number;
	},
	toError: (failure: RequestFailure, ended: { deadlineReached: boolean; waitMs?: number }) => Error,
): Promise<R> {
	const { pacer, kind, deadline, failureOf, clock = systemClock, random = Math.random } = options;
	for (let retries = 0; ; retries++) {
		const sentAt = clock.now();
		let failure: RequestFailure | undefined;
		try {
			const response = await send(
				deadline === undefined ? undefined : Math.max(1, deadline - sentAt),
			);
			failure = failureOf(response);
			if (!failure) {
				pacer.answered(clock.now() - sentAt, kind);
				return response;
			}
		} catch (error) {
			failure = failureOfError(error);
		}
		const waitMs = SENT_AGAIN.includes(failure.status)
			? retryWaitMs(failure, retries, pacer, random)
			: undefined;
		// Not waited out. With a deadline, a request's timeout is the time left before it.
		if (waitMs === undefined)
			throw toError(failure, { deadlineReached: deadline !== undefined && timedOut(failure) });
		// A wait that would end past the deadline is not waited: the caller gets it to declare.
		if (clock.now() + waitMs >= (deadline ?? Infinity))
			throw toError(failure, { deadlineReached: true, waitMs });
		const ms = clock.now() - sentAt;
		await (failure.status === 429 ? pacer.rateLimited(waitMs, ms) : pacer.overloaded(waitMs, ms));
	}
}

/** The statuses that say the service did not act on the request: rate limited, overloaded. */
const SENT_AGAIN: ReadonlyArray<number | undefined> = [429, 503];
