/**
 * HTTP only: the URL, authentication (through n8n's httpRequestWithAuthentication) and waiting out
 * rate limits (through the caller's pacer, ./pacer.ts); what a failure means is in ./failures.ts.
 * What each endpoint means, and its envelope, live in ../client/.
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
	type FullResponse,
	type RequestFailure,
} from './failures';
import { requestKind } from './overload';
import { RETRY_AFTER_WAITS, retryWaitMs, systemClock, type Clock, type Pacer } from './pacer';
import { paceOf } from './shared-pace';

export { baseUrlOf, CREDENTIAL_TYPE } from './credential';

/** Every n8n context the nodes call the service from: operations, pickers, the trigger. */
export type Context = IExecuteFunctions | ILoadOptionsFunctions | IPollFunctions;

export interface RequestOptions {
	body?: IDataObject;
	qs?: IDataObject;
	/** Epoch ms: neither the request nor a wait for a 429 outlasts it. */
	deadline?: number;
	/**
	 * The run's pacer, from the router. Without one (the trigger, the pickers), the request takes
	 * one slot of its credential's shared pace (./shared-pace.ts), as an item of a run would.
	 */
	pacer?: Pacer;
}

/**
 * Sends one request to the service: the body of its successful answer as it came, and when the
 * service answered (its `Date` header, epoch ms). n8n's `httpRequestWithAuthentication` adds the
 * key; a failure is a NodeApiError built from the response alone, so the key never travels with it.
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
		// Every answer comes back, an error status too, with its status and headers: what the
		// helper documents, rather than the shape of the errors it would throw.
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		// The credential's Ignore SSL Issues toggle, applied by n8n's own HTTP client.
		skipSslCertificateValidation: credentials.ignoreSSLIssues === true,
	};
	if (options.body) {
		// As JSON text: n8n's HTTP client deep-copies an object body, dropping keys such as
		// `__proto__`, and a schema, table or column may have any name.
		request.body = JSON.stringify(options.body);
		request.headers = { 'content-type': 'application/json' };
	}

	// One item's slot, waiting out as many 429s and 503s with Retry-After as outside Auto.
	const slot = options.pacer ? undefined : paceOf(credentials).join(1, RETRY_AFTER_WAITS);
	await slot?.start();
	// Only failures of the request itself are caught here: an answer that is not an envelope is
	// reported as such by the client, not re-read as an HTTP failure.
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
			const apiError = toNodeApiError(this.getNode(), failure, { waitMs, write: method !== 'GET' });
			// The caller's deadline, not the service, ended the request: the caller may keep what it has.
			if (deadlineReached) apiError.context.deadlineReached = true;
			return apiError;
		},
	).finally(() => slot?.leave());
	const date = Date.parse(String(response.headers?.date));
	return { body: response.body, ...(Number.isNaN(date) ? {} : { date }) };
}

/**
 * The transport's one loop: sends a request (`send`, given the time left before the deadline),
 * reports each answer to the pacer and waits out 429s and 503s through it: both say the service
 * did not act on the request, so it is sent again whatever its method. Nothing else is sent
 * again: after a 500, 502, 504, a timeout or a dropped connection a write may have taken effect.
 * An answer `failureOf` reads as failed, or a request that throws, and is not waited out is
 * thrown as `toError` makes it, told whether the deadline ended it (a wait not waited past it, or
 * the attempt's timeout, which is the time left before it) and the wait it did not wait. The
 * clock and `random` (the backoff's jitter) are parameters so a simulation can run the loop as it
 * is; `kind` (./overload.ts, requestKind) is what the pacer compares the round trip with.
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
