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

import { isWebAddress } from './addresses';
import { apiKeyOf, baseUrlOf, CREDENTIAL_TYPE, withoutKey } from './credential';
import type { ServiceCredentials } from './credential';
import { INVALID_URL, NO_API_KEY } from './failureCause';
import {
	failureOfAnswer,
	failureOfError,
	PACE_BUSY,
	timedOut,
	toNodeApiError,
	type FullResponse,
	type RequestFailure,
} from './failures';
import { requestKind } from '../pacing/controller';
import { retryWaitMs, systemClock } from '../pacing/pacer';
import type { Clock, Pacer } from '../pacing/pacer';
import { openEndedTurn, paceOf } from '../pacing/shared-pace';

export { CREDENTIAL_TYPE } from './credential';

/** How a request's failure ended it: by the caller's deadline; a wait not waited out. */
type Ended = { deadlineReached: boolean; waitMs?: number };

/** Every n8n context the nodes call the service from: operations, pickers, the trigger. */
export type Context = IExecuteFunctions | ILoadOptionsFunctions | IPollFunctions;

export interface RequestOptions {
	body?: IDataObject;
	qs?: IDataObject;
	/** Epoch ms: neither the request nor a wait for a 429 or 503 outlasts it. */
	deadline?: number;
	/** The run's pacer; without one (the trigger, the pickers) a slot of the shared pace. */
	pacer?: Pacer;
	/** The values the user gave in `path` (IDs, names), and the body's references to other records: a 404 names them. */
	ids?: string[];
	references?: IDataObject;
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
	const credentials = await credentialsOf(this);
	const request = requestFor(credentials, method, path, options);
	const { ids, references } = options;
	const address = { baseUrl: baseUrlOf(credentials), path, ids, references };
	const toError = (failure: RequestFailure, ended?: Ended) => {
		const said = withoutKey(failure, apiKeyOf(credentials));
		const write = method !== 'GET';
		// A run of more than one at once names its field in Options (none in the tool form, …Tool).
		const run = (options.pacer?.max ?? 1) > 1 && !this.getNode().type.endsWith('Tool');
		const field = run ? (options.pacer?.limitsInFlight ? 'Max Concurrency' : 'Concurrency') : '';
		const apiError = toNodeApiError(this.getNode(), said, { ...ended, write, address, field });
		// The caller's deadline, not the service, ended the request: the caller may keep what it has.
		if (ended?.deadlineReached) apiError.context.deadlineReached = true;
		return apiError;
	};
	if (!isWebAddress(address.baseUrl)) throw toError({ networkCode: INVALID_URL });
	if (!apiKeyOf(credentials)) throw toError({ networkCode: NO_API_KEY });
	const { deadline } = options;
	const slot = options.pacer
		? undefined
		: await openEndedTurn(paceOf(address.baseUrl, apiKeyOf(credentials)), deadline).catch(() => {
				throw toError({ networkCode: PACE_BUSY }, { deadlineReached: deadline !== undefined });
			});
	const http = this.helpers.httpRequestWithAuthentication;
	const send = async (timeout: number | undefined) =>
		(await http.call(this, CREDENTIAL_TYPE, { ...request, timeout })) as FullResponse;
	const pacing = { pacer: options.pacer ?? slot!, kind: requestKind(method, path) };
	const sending = { ...pacing, deadline, failureOf: failureOfAnswer };
	const response = await sendWithRetries(send, sending, toError).finally(() => slot?.leave());
	const date = Date.parse(String(response.headers?.date));
	return { body: response.body, ...(Number.isNaN(date) ? {} : { date }) };
}

/**
 * The credential of `context`: a run's is read once (n8n decrypts and resolves it on each read);
 * the trigger's and pickers' each time, so a credential changed meanwhile is the one used.
 */
async function credentialsOf(context: Context): Promise<ServiceCredentials> {
	if (!('getInputData' in context)) return await context.getCredentials(CREDENTIAL_TYPE);
	let read = runCredentials.get(context);
	if (!read) {
		read = context.getCredentials<ServiceCredentials>(CREDENTIAL_TYPE);
		runCredentials.set(context, read);
		// A failed read is not kept: each item reads, and fails, as it would alone.
		read.catch(() => runCredentials.delete(context));
	}
	return await read;
}
const runCredentials = new WeakMap<Context, Promise<ServiceCredentials>>();

/** The request n8n's helper sends: the credential's base URL and its Ignore SSL Issues toggle. */
function requestFor(
	credentials: ServiceCredentials,
	method: IHttpRequestMethods,
	path: string,
	{ qs, body }: RequestOptions,
): IHttpRequestOptions {
	return {
		method,
		url: `${baseUrlOf(credentials)}${path}`,
		qs,
		json: true,
		// Every answer comes back with its status and headers, as the helper documents.
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		skipSslCertificateValidation: credentials.ignoreSSLIssues === true,
		// No redirect is followed: n8n would send the key (x-api-key) and the body wherever it
		// points. Its 3xx comes back as an answer (n8n 1.x ignores `maxRedirects`; docs/network.md).
		disableFollowRedirect: true,
		// As text: n8n's client deep-copies an object, dropping keys such as `__proto__`.
		...(body && { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
	};
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
	toError: (failure: RequestFailure, ended: Ended) => Error,
): Promise<R> {
	const { pacer, kind, deadline, failureOf, clock = systemClock, random = Math.random } = options;
	for (let retries = 0; ; retries++) {
		const sentAt = clock.now();
		let failure: RequestFailure | undefined;
		try {
			const timeoutMs = deadline === undefined ? undefined : Math.max(1, deadline - sentAt);
			const response = await send(timeoutMs);
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
