/**
 * Why a request failed, as n8n's scheduler reads it (transport/failureCause.ts), row by row: what
 * the transport knew of the failure, and the `failure` the error declares. docs/design.md ("Why a
 * request failed") gives the same table with the reasons.
 */
import { NodeApiError, type Failure, type INode } from 'n8n-workflow';

import {
	declaring,
	failureCause,
	type RequestFailure,
} from '../../nodes/DataIntegrationManagement/transport/failureCause';

describe('failureCause', () => {
	it.each<[string, RequestFailure, number | undefined, Failure]>([
		// The service limits the rate: the wait it asked for, else the one the node computed.
		[
			'429 with Retry-After',
			{ status: 429, retryAfterSeconds: 150 },
			undefined,
			{ cause: 'rate-limited', retryAfterMs: 150_000 },
		],
		[
			"429 with Retry-After and a wait of the node: the service's",
			{ status: 429, retryAfterSeconds: 2 },
			4000,
			{ cause: 'rate-limited', retryAfterMs: 2000 },
		],
		[
			'429 without Retry-After, with the backoff the node computed',
			{ status: 429 },
			4000,
			{ cause: 'rate-limited', retryAfterMs: 4000 },
		],
		[
			'429 without Retry-After, no wait left to declare',
			{ status: 429 },
			undefined,
			{ cause: 'rate-limited' },
		],
		[
			'429 with Retry-After: 0, no wait to declare',
			{ status: 429, retryAfterSeconds: 0 },
			undefined,
			{ cause: 'rate-limited' },
		],
		// The service is down or struggling: it comes back by itself.
		['500', { status: 500 }, undefined, { cause: 'temporarily-unavailable' }],
		[
			'503 with Retry-After: its wait',
			{ status: 503, retryAfterSeconds: 30 },
			undefined,
			{ cause: 'temporarily-unavailable', retryAfterMs: 30_000 },
		],
		['599', { status: 599 }, undefined, { cause: 'temporarily-unavailable' }],
		[
			'408, the service timed the request out',
			{ status: 408 },
			undefined,
			{ cause: 'temporarily-unavailable' },
		],
		[
			'no answer: refused',
			{ networkCode: 'ECONNREFUSED' },
			undefined,
			{ cause: 'temporarily-unavailable' },
		],
		[
			'no answer: reset',
			{ networkCode: 'ECONNRESET' },
			undefined,
			{ cause: 'temporarily-unavailable' },
		],
		[
			'no answer: the timeout (or the poll budget) ended it',
			{ networkCode: 'ECONNABORTED' },
			undefined,
			{ cause: 'temporarily-unavailable' },
		],
		[
			'no answer: a name that did not resolve',
			{ networkCode: 'ENOTFOUND' },
			undefined,
			{ cause: 'temporarily-unavailable' },
		],
		['no answer, no code', {}, undefined, { cause: 'temporarily-unavailable' }],
		// Someone must act: the key, or what the node points at.
		['401: the key is refused', { status: 401 }, undefined, { cause: 'credential-invalid' }],
		[
			'an API Key of spaces only: never sent',
			{ networkCode: 'NO_API_KEY' },
			undefined,
			{ cause: 'credential-invalid' },
		],
		[
			'401 with Retry-After: still the key',
			{ status: 401, retryAfterSeconds: 5 },
			undefined,
			{ cause: 'credential-invalid' },
		],
		[
			'403: the key may not do this',
			{ status: 403 },
			undefined,
			{ cause: 'configuration-invalid' },
		],
		[
			'404: a route or an id that does not exist',
			{ status: 404 },
			undefined,
			{ cause: 'configuration-invalid' },
		],
		['400: a value the user wrote', { status: 400 }, undefined, { cause: 'configuration-invalid' }],
		// A redirect, never followed: the Base URL moved, someone must set it.
		...[301, 302, 303, 307, 308].map((status): [string, RequestFailure, undefined, Failure] => [
			`${status}: a redirect`,
			{ status, location: 'https://new.example/v1/users' },
			undefined,
			{ cause: 'configuration-invalid' },
		]),
		[
			'a redirect with Retry-After: still the Base URL',
			{ status: 307, retryAfterSeconds: 5 },
			undefined,
			{ cause: 'configuration-invalid' },
		],
		['409', { status: 409 }, undefined, { cause: 'configuration-invalid' }],
		[
			'a Base URL that is not a URL: someone must set it',
			{ networkCode: 'ERR_INVALID_URL' },
			undefined,
			{ cause: 'configuration-invalid' },
		],
		['422', { status: 422 }, undefined, { cause: 'configuration-invalid' }],
		[
			'a certificate n8n does not trust',
			{ networkCode: 'DEPTH_ZERO_SELF_SIGNED_CERT' },
			undefined,
			{ cause: 'configuration-invalid' },
		],
		[
			'an https:// Base URL to a plain http:// service: someone must set it',
			{ networkCode: 'EPROTO' },
			undefined,
			{ cause: 'configuration-invalid' },
		],
		[
			'a certificate of another name',
			{ networkCode: 'ERR_TLS_CERT_ALTNAME_INVALID' },
			undefined,
			{ cause: 'configuration-invalid' },
		],
		[
			"an address n8n's SSRF protection blocks",
			{ blockedAddress: '10.0.0.1' },
			undefined,
			{ cause: 'configuration-invalid' },
		],
	])('%s', (_title, failure, waitMs, declared) => {
		expect(failureCause(failure, waitMs)).toEqual(declared);
	});
});

describe('declaring', () => {
	it("sets the failure on the error itself: n8n 1.x's NodeApiError drops the constructor's option", () => {
		const node = {
			id: 'n',
			name: 'n',
			type: 't',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		};
		const error = new NodeApiError(node as INode, { message: 'x' }, {});
		expect(error.failure).toBeUndefined();
		expect(declaring(error, { cause: 'temporarily-unavailable' })).toBe(error);
		expect(error.failure).toEqual({ cause: 'temporarily-unavailable' });
	});
});
