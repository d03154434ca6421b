/**
 * What a failed request means (transport/failures.ts), rule by rule: each row an error as n8n's
 * HTTP helper throws it, and what is read from it; then the error a user reads for each failure.
 * The end-to-end tests (test/actions/errors.test.ts, ssrf.test.ts, network.test.ts) throw these
 * errors for real; these rows pin each rule alone, the n8n 1.x shapes among them.
 */
import { NodeOperationError, type INode } from 'n8n-workflow';

import {
	atVersion,
	type RequestAddress,
} from '../../nodes/DataIntegrationManagement/transport/addresses';
import { apiKeyOf, withoutKey } from '../../nodes/DataIntegrationManagement/transport/credential';
import { NETWORK_WORDS } from '../../nodes/DataIntegrationManagement/transport/failureCause';
import {
	failureOfAnswer,
	failureOfError,
	MAX_SERVICE_TEXT,
	MAY_HAVE_ACTED,
	mayHaveActed,
	timedOut,
	toNodeApiError,
	type RequestFailure,
} from '../../nodes/DataIntegrationManagement/transport/failures';

/** n8n 2.x: the HTTP client's error is the `cause` of n8n's, its code on it. */
const n8nV2 = (code: string) =>
	Object.assign(new Error('Request failed'), { cause: Object.assign(new Error('x'), { code }) });
/** n8n 1.x: the network code as httpCode. */
const n8nV1 = (httpCode: string) => Object.assign(new Error('Request failed'), { httpCode });
const ssrf = (fields: object) => Object.assign(new Error('blocked'), fields);
const chain = (depth: number, last: object): object =>
	depth === 0 ? last : { name: 'Error', cause: chain(depth - 1, last) };
const looping: { name: string; cause?: unknown } = { name: 'Error' };
/** The node an error names. */
const node: INode = {
	id: 'node',
	name: 'Data Integration Management',
	type: 'n8n-nodes-data-integration-management.dataIntegrationManagement',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};
looping.cause = looping;

const NOT_FOUND = { code: 'NotFound', message: "Integration 'int_x' not found" };

afterEach(() => jest.restoreAllMocks());

describe('failureOfAnswer: what an answer n8n returned says', () => {
	it.each<[string, Parameters<typeof failureOfAnswer>[0], RequestFailure | undefined]>([
		['a success is no failure', { statusCode: 200, body: {} }, undefined],
		['a 299 is no failure', { statusCode: 299, body: {} }, undefined],
		[
			'a redirect (never followed), with where it points',
			{
				statusCode: 307,
				headers: { location: 'https://new.example/v1/users?t=1' },
				body: '<p>Moved</p>',
			},
			{
				status: 307,
				retryAfterSeconds: undefined,
				apiCode: undefined,
				apiMessage: undefined,
				location: 'https://new.example/v1/users?t=1',
			},
		],
		[
			'a 3xx without a Location (a 304 the node never asks for)',
			{ statusCode: 304 },
			{ status: 304, retryAfterSeconds: undefined, apiCode: undefined, apiMessage: undefined },
		],
		[
			'a 300 is a redirect too, with where it points',
			{ statusCode: 300, headers: { location: '/v2/users' } },
			{
				status: 300,
				retryAfterSeconds: undefined,
				apiCode: undefined,
				apiMessage: undefined,
				location: '/v2/users',
			},
		],
		[
			'a Location beside an error status (from 400 on) is not read',
			{ statusCode: 400, headers: { location: '/elsewhere' } },
			{ status: 400, retryAfterSeconds: undefined, apiCode: undefined, apiMessage: undefined },
		],
		[
			'status, body and Retry-After',
			{ statusCode: 429, headers: { 'retry-after': '3' }, body: NOT_FOUND },
			{ status: 429, retryAfterSeconds: 3, apiCode: 'NotFound', apiMessage: NOT_FOUND.message },
		],
		[
			'a status without a body',
			{ statusCode: 503 },
			{ status: 503, retryAfterSeconds: undefined, apiCode: undefined, apiMessage: undefined },
		],
		[
			'a body that is not JSON (an HTML page)',
			{ statusCode: 502, body: ' <html>Bad gateway</html>' },
			{
				status: 502,
				retryAfterSeconds: undefined,
				apiCode: undefined,
				apiMessage: undefined,
				page: 'a web page',
			},
		],
		[
			'a 400 with an HTML page (a proxy, a sign-in page)',
			{ statusCode: 400, body: '<!DOCTYPE html><title>Sign in</title>' },
			{
				status: 400,
				retryAfterSeconds: undefined,
				apiCode: undefined,
				apiMessage: undefined,
				page: 'a web page',
			},
		],
		[
			'an XML error is text, not a web page',
			{ statusCode: 400, body: '<?xml version="1.0"?><Error>Bad</Error>' },
			{
				status: 400,
				retryAfterSeconds: undefined,
				apiCode: undefined,
				apiMessage: undefined,
				page: 'text',
			},
		],
		[
			'a body in plain text',
			{ statusCode: 401, body: 'Unauthorized' },
			{
				status: 401,
				retryAfterSeconds: undefined,
				apiCode: undefined,
				apiMessage: undefined,
				page: 'text',
			},
		],
		[
			'a body of spaces only is no page',
			{ statusCode: 400, body: ' \n' },
			{ status: 400, retryAfterSeconds: undefined, apiCode: undefined, apiMessage: undefined },
		],
		[
			'a message of spaces only is no message',
			{ statusCode: 400, body: { code: 'BAD_REQUEST', message: ' \n' } },
			{ status: 400, retryAfterSeconds: undefined, apiCode: 'BAD_REQUEST', apiMessage: undefined },
		],
		[
			"a number as code, a list as message (NestJS's validation): read, the list's texts joined",
			{
				statusCode: 400,
				body: { code: 42, message: ['owner must be a UUID', 7, { x: 1 }, 'name is empty'] },
			},
			{
				status: 400,
				retryAfterSeconds: undefined,
				apiCode: '42',
				apiMessage: 'owner must be a UUID; 7; name is empty',
			},
		],
		[
			'a list of blank texts is no message, and blank texts in a list are left out',
			{ statusCode: 400, body: { code: ['', ' '], message: ['', 'name is empty', '  '] } },
			{
				status: 400,
				retryAfterSeconds: undefined,
				apiCode: undefined,
				apiMessage: 'name is empty',
			},
		],
		[
			'a code or message that is an object, or a list of none, is not read',
			{ statusCode: 400, body: { code: { id: 1 }, message: [{ x: 1 }, null] } },
			{ status: 400, retryAfterSeconds: undefined, apiCode: undefined, apiMessage: undefined },
		],
		[
			'a Location that is no text (a list) is not read',
			{ statusCode: 302, headers: { location: ['https://a.example', 'https://b.example'] } },
			{ status: 302, retryAfterSeconds: undefined },
		],
		[
			'text that only holds a tag further on is text, not a web page',
			{ statusCode: 400, body: 'bad input: <html> is not allowed' },
			{ status: 400, retryAfterSeconds: undefined, page: 'text' },
		],
		[
			'a code of spaces only is no code',
			{ statusCode: 400, body: { code: ' ', message: 'bad' } },
			{ status: 400, retryAfterSeconds: undefined, apiCode: undefined, apiMessage: 'bad' },
		],
		[
			'a short message ending in half a character is kept as it came',
			{ statusCode: 400, body: { message: 'bad \uD83D' } },
			{ status: 400, retryAfterSeconds: undefined, apiMessage: 'bad \uD83D' },
		],
		// Twice what an error shows: the key is looked for in it, then it is cut again (below).
		[
			`a message of ${2 * MAX_SERVICE_TEXT} characters is kept whole`,
			{ statusCode: 400, body: { message: 'm'.repeat(2 * MAX_SERVICE_TEXT) } },
			{ status: 400, retryAfterSeconds: undefined, apiMessage: 'm'.repeat(2 * MAX_SERVICE_TEXT) },
		],
		[
			'a longer code and message are cut there, marked',
			{
				statusCode: 400,
				body: { code: 'C'.repeat(2 * MAX_SERVICE_TEXT + 1), message: 'm'.repeat(4_000_000) },
			},
			{
				status: 400,
				retryAfterSeconds: undefined,
				apiCode: `${'C'.repeat(2 * MAX_SERVICE_TEXT)}…`,
				apiMessage: `${'m'.repeat(2 * MAX_SERVICE_TEXT)}…`,
			},
		],
		[
			'a cut that would split a character (an emoji) leaves it out',
			{ statusCode: 400, body: { message: `m${'😀'.repeat(2 * MAX_SERVICE_TEXT)}` } },
			{
				status: 400,
				retryAfterSeconds: undefined,
				apiMessage: `m${'😀'.repeat(MAX_SERVICE_TEXT - 1)}…`,
			},
		],
	])('%s', (_title, response, failure) => {
		expect(failureOfAnswer(response)).toEqual(failure);
	});

	// An HTTP date has whole seconds: NOW is 400 ms past one, so 30 s ahead is 29.6 s away.
	const NOW = Date.parse('Thu, 26 Nov 2026 00:00:00 GMT') + 400;

	it.each<[string, unknown, number | undefined]>([
		['as a number of seconds', 7, 7],
		['as text', '2.5', 2.5],
		['below zero, as no wait', '-4', 0],
		['as a date 29.6 s ahead, in whole seconds', 'Thu, 26 Nov 2026 00:00:30 GMT', 30],
		['as a date gone by, as no wait', 'Wed, 25 Nov 2026 23:59:30 GMT', 0],
		['not a number or a date', 'soon', undefined],
		['as something else', { seconds: 3 }, undefined],
		['as a list', ['3'], undefined],
	])('reads Retry-After %s', (_title, retryAfter, seconds) => {
		jest.spyOn(Date, 'now').mockReturnValue(NOW);
		const failure = failureOfAnswer({ statusCode: 429, headers: { 'retry-after': retryAfter } });
		expect(failure?.retryAfterSeconds).toBe(seconds);
	});
});

describe('failureOfError: why nothing was answered, from the error n8n threw', () => {
	it.each<[string, unknown, RequestFailure]>([
		[
			"n8n 2.x: the code of the HTTP client's error, its cause",
			n8nV2('ECONNREFUSED'),
			{
				networkCode: 'ECONNREFUSED',
			},
		],
		[
			'n8n 2.x: a code further down the causes',
			Object.assign(new Error('socket'), { cause: { cause: { code: 'ECONNRESET' } } }),
			{ networkCode: 'ECONNRESET' },
		],
		[
			'the causes before the error itself',
			Object.assign(new Error('n8n'), { code: 'OUTER', cause: { code: 'EPIPE' } }),
			{ networkCode: 'EPIPE' },
		],
		[
			'n8n 1.x: a network code stands in httpCode',
			n8nV1('ECONNREFUSED'),
			{ networkCode: 'ECONNREFUSED' },
		],
		['n8n 1.x: a status in httpCode is no network code', n8nV1('404'), {}],
		['an httpCode ending in a digit is a network code', n8nV1('E1'), { networkCode: 'E1' }],
		['an empty code is none', Object.assign(new Error('x'), { code: '' }), {}],
		[
			'an empty code before a real one is passed over',
			Object.assign(new Error('n8n'), { cause: { code: '', cause: { code: 'ECONNRESET' } } }),
			{ networkCode: 'ECONNRESET' },
		],
		[
			'a cause of null ends the chain',
			Object.assign(new Error('socket'), { code: 'EPIPE', cause: null }),
			{ networkCode: 'EPIPE' },
		],
		['nothing said at all', new Error('no code, no cause'), {}],
		['a thrown text', 'boom', {}],
	])('%s', (_title, error, failure) => {
		expect(failureOfError(error)).toEqual(failure);
	});

	it.each<[string, unknown, string | undefined]>([
		['by host name', ssrf({ name: 'SsrfBlockedHostnameError', hostname: 'db.local' }), 'db.local'],
		['by address', ssrf({ name: 'SsrfBlockedIpError', ip: '10.0.0.1' }), '10.0.0.1'],
		['without saying which', ssrf({ name: 'SsrfBlockedIpError' }), 'the address'],
		['four causes down', chain(4, { name: 'SsrfBlockedIpError', ip: '10.0.0.2' }), '10.0.0.2'],
		['five causes down: not looked for', chain(5, { name: 'SsrfBlockedIpError' }), undefined],
		['in a chain of causes that loops: not found, and the search ends', looping, undefined],
	])("finds n8n's SSRF refusal %s", (_title, error, address) => {
		expect(failureOfError(error).blockedAddress).toBe(address);
	});
});

describe("timedOut: whether the request's timeout ended it", () => {
	it.each<[RequestFailure, boolean]>([
		[{ networkCode: 'ECONNABORTED' }, true],
		[{ networkCode: 'ETIMEDOUT' }, true],
		[{ networkCode: 'ECONNRESET' }, false],
		[{ networkCode: 'ECONNREFUSED' }, false],
		[{}, false],
		[{ status: 504, networkCode: 'ECONNABORTED' }, false],
	])('%j: %p', (failure, expected) => {
		expect(timedOut(failure)).toBe(expected);
	});
});

describe('toNodeApiError: the error a user reads', () => {
	// The node's message stays where n8n would put its own sentence for a network code it knows.
	it.each<
		[
			string,
			RequestFailure,
			{ message: string; description: unknown; httpCode: string | null; messages?: string[] },
		]
	>([
		[
			"the service's message and code",
			{ status: 404, apiCode: 'NotFound', apiMessage: 'no such thing' },
			{
				message: 'no such thing [NotFound]',
				description: expect.stringMatching(/Nothing answers at this address/),
				httpCode: '404',
			},
		],
		[
			'a key without the permission',
			{ status: 403, apiMessage: 'not allowed' },
			{
				message: 'not allowed',
				description: expect.stringMatching(/lacks permission for this request/),
				httpCode: '403',
			},
		],
		[
			'a message without a code',
			{ status: 400, apiMessage: 'bad name' },
			{
				message: 'bad name',
				description: expect.stringMatching(/rejected the request as invalid/),
				httpCode: '400',
			},
		],
		[
			'an error answer without a message',
			{ status: 502 },
			{
				message: 'The service answered with an error but gave no message',
				description: expect.stringMatching(/internal problem/),
				httpCode: '502',
			},
		],
		[
			'an error answer with a code and no message: the code kept',
			{ status: 409, apiCode: 'CONFLICT' },
			{
				message: 'The service answered with an error but gave no message [CONFLICT]',
				description: expect.any(String),
				httpCode: '409',
			},
		],
		[
			'a web page answered a 400: not the API, likely the Base URL',
			{ status: 400, page: 'a web page' },
			{
				message: "The service answered with a web page (HTTP 400), not the API's JSON",
				description:
					'A server other than the API may have answered (a proxy, a sign-in page, http:// to an https:// port). Check the Base URL in the credential: its scheme, host, port and path.',
				httpCode: '400',
			},
		],
		[
			"a web page of a 5xx, from 500 on: the status's own sentence (a gateway's page is common)",
			{ status: 500, page: 'a web page' },
			{
				message: "The service answered with a web page (HTTP 500), not the API's JSON",
				description: 'The service had an internal problem. Try again later.',
				httpCode: '500',
			},
		],
		[
			'a web page of a 429: waited out, then the rate words',
			{ status: 429, page: 'a web page' },
			{
				message: "The service answered with a web page (HTTP 429), not the API's JSON",
				description: 'The service is limiting the rate of requests. Wait a moment, then try again.',
				httpCode: '429',
			},
		],
		[
			"a 401 in text: the key to check, or a proxy's refusal, not the Base URL",
			{ status: 401, page: 'text' },
			{
				message: "The service answered with text (HTTP 401), not the API's JSON",
				description:
					"The API key was refused, or a server in front of the API refused it (a proxy, a firewall blocking n8n's address: ask whoever runs the service). Check the API Key in the credential.",
				httpCode: '401',
			},
		],
		[
			"a firewall's 403 page: the key's permission, or n8n's address blocked in front of the API",
			{ status: 403, page: 'a web page' },
			{
				message: "The service answered with a web page (HTTP 403), not the API's JSON",
				description: expect.stringMatching(
					/^The API key lacks permission for this request, or a server in front of the API refused it \(a proxy, a firewall blocking n8n's address/,
				),
				httpCode: '403',
			},
		],
		[
			"a proxy's 408 page: the status's own words, not the Base URL",
			{ status: 408, page: 'a web page' },
			{
				message: "The service answered with a web page (HTTP 408), not the API's JSON",
				description: expect.not.stringMatching(/Base URL/),
				httpCode: '408',
			},
		],
		[
			'https:// to a plain http:// service (EPROTO): the scheme to change',
			{ networkCode: 'EPROTO' },
			{
				message:
					'The service could not start TLS with n8n, as the https:// Base URL asks: nothing was sent',
				description:
					'If the service takes plain HTTP only, set the Base URL in the credential to http://…; if it takes https://, its TLS may be too old for n8n: ask its owner.',
				httpCode: null,
			},
		],
		[
			'a status no sentence names',
			{ status: 418 },
			{
				message: expect.any(String),
				description: expect.stringMatching(/refused the request/),
				httpCode: '418',
			},
		],
		[
			'no answer, with the network code',
			{ networkCode: 'EPIPE' },
			{
				message: 'The service did not answer',
				description: expect.stringMatching(/could not be reached .*\(network error EPIPE\)/),
				httpCode: null,
			},
		],
		[
			'no answer, with a network code n8n has a sentence for: in words, the code in the description',
			{ networkCode: 'ECONNRESET' },
			{
				message: 'The service closed the connection before answering',
				description: expect.stringMatching(/\(network error ECONNRESET\)/),
				httpCode: null,
			},
		],
		[
			"a service's message that names a network code",
			{ status: 500, apiMessage: 'upstream db ETIMEDOUT' },
			{
				message: 'upstream db ETIMEDOUT',
				description: expect.stringMatching(/internal problem/),
				httpCode: '500',
				// The raw record's message, and the one n8n replaced, are one: kept once.
				messages: ['upstream db ETIMEDOUT'],
			},
		],
		[
			'a 429 with Retry-After: the wait it asked for',
			{ status: 429, retryAfterSeconds: 120 },
			{
				message: 'The service answered with an error but gave no message',
				description:
					'The service is limiting the rate of requests and asked to wait 120 s. Wait that long, then try again.',
				httpCode: '429',
			},
		],
		[
			'no answer at all',
			{},
			{
				message: 'The service did not answer',
				description:
					'The service could not be reached or closed the connection. Check the Base URL in the credential and that the service is up, then try again.',
				httpCode: null,
			},
		],
		[
			'a certificate not trusted',
			{ networkCode: 'SELF_SIGNED_CERT_IN_CHAIN' },
			{
				message: "The service's certificate could not be verified (SELF_SIGNED_CERT_IN_CHAIN)",
				description:
					'If the service uses a certificate your company signs itself, turn on Ignore SSL Issues (Insecure) in the credential; on self-hosted n8n, an administrator can instead trust that certificate authority with NODE_EXTRA_CA_CERTS, which is safer.',
				httpCode: null,
			},
		],
		[
			'a certificate out of date: its owner renews it (no other authority helps)',
			{ networkCode: 'CERT_HAS_EXPIRED' },
			{
				message: "The service's certificate could not be verified (CERT_HAS_EXPIRED)",
				httpCode: null,
				description: "The certificate has expired: ask the service's owner to renew it.",
			},
		],
		[
			"a certificate not valid yet: n8n's clock, or its owner",
			{ networkCode: 'CERT_NOT_YET_VALID' },
			{
				message: "The service's certificate could not be verified (CERT_NOT_YET_VALID)",
				httpCode: null,
				description: "The certificate is not valid yet: check n8n's clock, or ask its owner.",
			},
		],
		[
			"OpenSSL's code for a certificate authority that may not sign: still a certificate",
			{ networkCode: 'INVALID_CA' },
			{
				message: "The service's certificate could not be verified (INVALID_CA)",
				httpCode: null,
				description: expect.stringMatching(/^If the service uses a certificate your company/),
			},
		],
		[
			'a certificate for another host: the Base URL (Ignore SSL Issues would hide what it guards)',
			{ networkCode: 'ERR_TLS_CERT_ALTNAME_INVALID' },
			{
				message: "The service's certificate could not be verified (ERR_TLS_CERT_ALTNAME_INVALID)",
				httpCode: null,
				description: 'The certificate is for another host: check the Base URL.',
			},
		],
		[
			'an address SSRF protection blocked',
			{ blockedAddress: '10.0.0.1' },
			{
				message:
					'n8n blocked the request to 10.0.0.1: its SSRF protection does not allow this address',
				description:
					"n8n's SSRF protection blocks private and local addresses, and those an administrator blocked. Set the Base URL in the credential to an address of the service that n8n may reach; on self-hosted n8n, an administrator can instead add the Base URL's host name to N8N_SSRF_ALLOWED_HOSTNAMES (where it is a name, not an address), or a range holding 10.0.0.1 to N8N_SSRF_ALLOWED_IP_RANGES.",
				httpCode: null,
			},
		],
		[
			'an IPv6 address SSRF protection blocked: a range holding it',
			{ blockedAddress: 'fd00::1' },
			{
				message:
					'n8n blocked the request to fd00::1: its SSRF protection does not allow this address',
				httpCode: null,
				description: expect.stringMatching(
					/, or a range holding fd00::1 to N8N_SSRF_ALLOWED_IP_RANGES\.$/,
				),
			},
		],
		[
			'a host name on its deny-list: allowed by name only (an address range does not lift it)',
			{ blockedAddress: 'dim.corp.example' },
			{
				message:
					'n8n blocked the request to dim.corp.example: its SSRF protection does not allow this address',
				httpCode: null,
				description: expect.stringMatching(
					/add the Base URL's host name to N8N_SSRF_ALLOWED_HOSTNAMES\.$/,
				),
			},
		],
		...['api2', '2fa.example'].map(
			(
				host,
			): [string, RequestFailure, { message: string; description: unknown; httpCode: null }] => [
				`a host name with digits at an end (${host}): no address range`,
				{ blockedAddress: host },
				{
					message: `n8n blocked the request to ${host}: its SSRF protection does not allow this address`,
					httpCode: null,
					description: expect.stringMatching(/N8N_SSRF_ALLOWED_HOSTNAMES\.$/),
				},
			],
		),
		[
			'a Base URL that is no web address: nothing sent, its form',
			{ networkCode: 'ERR_INVALID_URL' },
			{
				message:
					'The Base URL in the credential is not a plain http:// or https:// address: nothing was sent',
				description:
					"Set it to the API's address, ending in /v1, with its scheme and without a query (?), fragment (#) or space: e.g. https://api.example.com/v1.",
				httpCode: null,
			},
		],
	])('%s', (_title, failure, shown) => {
		expect(toNodeApiError(node, failure)).toMatchObject(shown);
	});

	// The raw record n8n keeps beside the message: shown in the error's details and its messages.
	it.each<[string, RequestFailure, object]>([
		[
			'the service message and code',
			{ status: 404, apiCode: 'NotFound', apiMessage: 'gone' },
			{ message: 'gone', code: 'NotFound' },
		],
		['the status, without a message', { status: 502 }, { message: 'HTTP 502' }],
		[
			'no answer, with the network code',
			{ networkCode: 'EPIPE' },
			{ message: 'No response', networkCode: 'EPIPE' },
		],
		[
			'a certificate',
			{ networkCode: 'CERT_HAS_EXPIRED' },
			{ message: 'Certificate not trusted', networkCode: 'CERT_HAS_EXPIRED' },
		],
		[
			'a Base URL that is not a URL',
			{ networkCode: 'ERR_INVALID_URL' },
			{ message: 'Base URL not a URL', networkCode: 'ERR_INVALID_URL' },
		],
		[
			'an API Key of spaces only',
			{ networkCode: 'NO_API_KEY' },
			{ message: 'No API key', networkCode: 'NO_API_KEY' },
		],
		[
			'no turn of the shared pace',
			{ networkCode: 'PACE_BUSY' },
			{ message: 'Busy with a run', networkCode: 'PACE_BUSY' },
		],
		[
			'SSRF protection',
			{ blockedAddress: 'db.local' },
			{ message: 'Blocked by SSRF protection', networkCode: 'SSRF_BLOCKED' },
		],
	])('keeps the raw record of %s', (_title, failure, record) => {
		const error = toNodeApiError(node, failure);
		expect(error.errorResponse).toEqual(record);
		expect(error.messages).toEqual([(record as { message: string }).message]);
	});
});

describe('toNodeApiError: whether the service gave words of its own, for a caller to say so', () => {
	it.each<[string, RequestFailure, boolean]>([
		['an error answer without a message', { status: 400 }, true],
		['an error answer with one', { status: 400, apiMessage: 'bad' }, false],
		['a web page, words of a server', { status: 400, page: 'a web page' }, false],
		['a redirect, no error', { status: 302 }, false],
		['no answer at all', { networkCode: 'ECONNRESET' }, false],
	])('%s: %p', (_title, failure, withoutMessage) => {
		expect(toNodeApiError(node, failure).context.withoutMessage === true).toBe(withoutMessage);
	});
});

describe('toNodeApiError: no answer, in words n8n keeps when it wraps the error again', () => {
	// The AI tool form: n8n-core wraps a tool's error in a NodeOperationError, which puts its own
	// words ("You can retry the request immediately") in place of a message naming a network code.
	it.each(Object.keys(NETWORK_WORDS))('%s, after a write that may have acted', (networkCode) => {
		const error = toNodeApiError(node, { networkCode }, { write: true });
		const rewrapped = new NodeOperationError(node, error);
		expect(rewrapped.message).toBe(error.message);
		expect(rewrapped.message).toBe(`The service ${NETWORK_WORDS[networkCode]}`);
		// EPROTO's words name the scheme to change instead, a timeout's its own (describeStatus).
		const words: Record<string, string> = {
			EPROTO: 'Base URL in the credential to http://',
			ETIMEDOUT: 'The service did not answer in time. Check the Base URL',
			ECONNABORTED: 'The service did not answer in time. Check the Base URL',
		};
		expect(error.description).toContain(words[networkCode] ?? `(network error ${networkCode})`);
	});

	it.each<[string, boolean]>([
		['ECONNRESET', false],
		['ETIMEDOUT', false],
		['ECONNREFUSED', true],
		['ENOTFOUND', true],
	])(
		'%s after a write: says to try again only where the request never left (%s)',
		(networkCode, again) => {
			const { description } = toNodeApiError(node, { networkCode }, { write: true });
			expect(description).toMatch(again ? /, then try again\./ : /is up\.(\n|$)/);
			expect(toNodeApiError(node, { networkCode }).description).toMatch(/, then try again\./);
		},
	);
});

describe('toNodeApiError: a redirect and a 404 name the Base URL', () => {
	const users = { baseUrl: 'https://old.example/v1', path: '/users' };
	const tag = { baseUrl: 'https://old.example/v1', path: '/tags/tag_1', ids: ['tag_1'] };
	const CHECK_BASE_URL =
		"Check the Base URL in the credential: it must be the API's address, ending in /v1.";
	const NOTHING_SENT =
		'The node sends the API key only to the Base URL: nothing was sent where the redirect points.';

	it.each<[string, RequestFailure, RequestAddress | undefined, object]>([
		[
			'a redirect to the same path elsewhere: where (no query), and the Base URL to set',
			{ status: 308, location: 'https://new.example/v1/users?token=x' },
			users,
			{
				message:
					'The service at the Base URL redirected the request to https://new.example/v1/users, and the node follows no redirect',
				description: `If the service has moved there, set the Base URL in the credential to https://new.example/v1. ${NOTHING_SENT}`,
				httpCode: '308',
				errorResponse: { message: 'Redirected', location: 'https://new.example/v1/users' },
			},
		],
		[
			'a redirect to another path: where, and the Base URL to check',
			{ status: 302, location: 'https://sso.example/login?next=x' },
			users,
			{
				message:
					'The service at the Base URL redirected the request to https://sso.example/login, and the node follows no redirect',
				description: `${CHECK_BASE_URL} ${NOTHING_SENT}`,
			},
		],
		[
			'a 300 (choices) is a redirect too',
			{ status: 300 },
			users,
			{
				message:
					'The service at the Base URL answered with a redirect (HTTP 300) that named no address, and the node follows no redirect',
			},
		],
		[
			'a redirect naming no address',
			{ status: 301 },
			users,
			{
				message:
					'The service at the Base URL answered with a redirect (HTTP 301) that named no address, and the node follows no redirect',
				description: `${CHECK_BASE_URL} ${NOTHING_SENT}`,
				errorResponse: { message: 'Redirected' },
			},
		],
		[
			"a 404 under an endpoint's address behind a gateway's /v1: cut after the last /v1",
			{ status: 404, apiMessage: 'no operation GET /users/users' },
			{ ...users, baseUrl: 'https://gw.example/v1/proxy/v1/users' },
			{
				description:
					"Nothing answers at this address: the Base URL in the credential, https://gw.example/v1/proxy/v1/users, does not end in /v1. Set it to the API's address, ending in /v1, e.g. https://gw.example/v1/proxy/v1.",
			},
		],
		[
			'a 404 of a list under a Base URL without /v1: the Base URL to set',
			{ status: 404, apiMessage: 'no operation GET /users' },
			{ ...users, baseUrl: 'https://me:pw@old.example/api?x=1' },
			{
				description:
					"Nothing answers at this address: the Base URL in the credential, https://old.example/api, does not end in /v1. Set it to the API's address, ending in /v1, e.g. https://old.example/api/v1.",
				context: { routeMissing: true },
			},
		],
		[
			'a 404 of a list under a Base URL ending in /v1: the Base URL is likely wrong',
			{ status: 404, apiMessage: 'no operation GET /users' },
			users,
			{
				description:
					"Nothing answers at /users under the Base URL in the credential. If other operations work with this credential, the service does not offer this one; else the Base URL is likely wrong: it must be the API's address, ending in /v1 (e.g. https://api.example.com/v1).",
				context: { routeMissing: true },
			},
		],
		[
			'a 404 of an ID: the ID fields and the Base URL',
			{ status: 404, apiMessage: "tag 'tag_1' does not exist" },
			tag,
			{
				description:
					"The service found nothing under the IDs the request gives. Check the node's ID fields, and that the Base URL in the credential is the API's address, ending in /v1.",
				context: {},
			},
		],
		[
			"a 404 of an ID quoting a value of the body, not the ID: that field, in context for the node's words",
			{ status: 404, apiMessage: "user 'usr_9' does not exist" },
			{ ...tag, references: { owner: 'usr_9' } },
			{
				description:
					'The service found nothing for "usr_9", the request\'s owner. Check that field, and that the Base URL in the credential is the API\'s address, ending in /v1.',
				context: { missingField: 'owner' },
			},
		],
		[
			'a 404 of an ID whose words quote a value of the body beside "endpoint": that field',
			{ status: 404, apiMessage: 'Owner USR_9 not found for this endpoint' },
			{ ...tag, references: { owner: 'usr_9' } },
			{
				description: expect.stringMatching(
					/^The service found nothing for "usr_9", the request's owner\./,
				),
				context: { missingField: 'owner' },
			},
		],
		[
			'a 404 of an ID whose words say no route: the Base URL first',
			{ status: 404, apiMessage: 'No route for PUT /tags/tag_1' },
			tag,
			{
				description: expect.stringMatching(/^Nothing answers at \/tags\/tag_1 under the Base URL/),
			},
		],
	])('%s', (_title, failure, address, shown) => {
		const error = toNodeApiError(node, failure, { address });
		expect(error).toMatchObject({ ...shown, failure: { cause: 'configuration-invalid' } });
	});
});

describe('withoutKey: the key replaced where the answer repeats it', () => {
	it('in the message, the code and a Location', () => {
		expect(
			withoutKey(
				{ status: 307, apiMessage: 'bad k3y', apiCode: 'BAD_k3y', location: 'https://x/k3y/v1' },
				'k3y',
			),
		).toEqual({
			status: 307,
			apiMessage: 'bad [API key]',
			apiCode: 'BAD_[API key]',
			location: 'https://x/[API key]/v1',
		});
	});

	it('as sent, when the credential holds it with spaces or a line break around it', () => {
		expect(
			withoutKey(
				{ status: 403, apiMessage: 'not allowed for key k3y.' },
				apiKeyOf({ apiKey: ' k3y\n' }),
			),
		).toEqual({
			status: 403,
			apiMessage: 'not allowed for key [API key].',
		});
	});

	it('percent-encoded in a Location (a key whose % starts no escape: nothing else hidden)', () => {
		const key = 'k/3+y%';
		const location = `https://x/${encodeURIComponent(key)}/v1/undefined`;
		expect(withoutKey({ status: 307, location }, key)).toEqual({
			status: 307,
			location: 'https://x/[API key]/v1/undefined',
		});
	});

	it('percent-encoded as UTF-8, after a run of escapes', () => {
		const key = 'clé-secrète-0123';
		const location = `https://x/v1/a%2F%2Fb/${encodeURIComponent(key)}`;
		expect(withoutKey({ status: 307, location }, key)).toEqual({
			status: 307,
			location: 'https://x/v1/a%2F%2Fb/[API key]',
		});
	});

	it('percent-encoded with lowercase hex in a Location (legal, and some servers send it)', () => {
		const key = 'my key/with+slash 1234';
		const lower = encodeURIComponent(key).replace(/%[\dA-F]{2}/g, (e) => e.toLowerCase());
		expect(withoutKey({ status: 307, location: `https://x/${lower}/v1` }, key)).toEqual({
			status: 307,
			location: 'https://x/[API key]/v1',
		});
	});

	it.each([
		['a space as +', 'my key with spaces 1234'],
		["~ ! ' ( ) escaped", "abcd~efgh~ijkl~mnop(q)r!s't"],
	])('form-encoded (%s), in a message and a Location', (_title, key) => {
		const form = new URLSearchParams({ key }).toString();
		expect(form).not.toContain(encodeURIComponent(key));
		expect(
			withoutKey(
				{ status: 307, apiMessage: `Key ${form} revoked`, location: `https://x/v1/${form}` },
				key,
			),
		).toEqual({
			status: 307,
			apiMessage: 'Key key=[API key] revoked',
			location: 'https://x/v1/key=[API key]',
		});
	});

	it('path-escaped as RFC 3986 allows (/ escaped, + and = left as they are): a base64 key', () => {
		const key = ['q8/Zr+Lw=Tp/Vx+Nc', '=Hs/Kd+Mf=Jb/Gy+'].join(''); // made up
		const path = key.replace(/\//g, '%2F');
		expect(path).not.toContain(encodeURIComponent(key.slice(0, 17)));
		expect(withoutKey({ status: 307, location: `https://x/v1/keys/${path}?a=1` }, key)).toEqual({
			status: 307,
			location: 'https://x/v1/keys/[API key]?a=1',
		});
	});

	const cyrillic = 'ключ-секрет-1234';
	it.each<[string, string, string, string]>([
		[
			"encoded twice (a URL in a sign-in redirect's query)",
			'abcd/efgh/ijkl/mnop',
			'https://x/login?next=%2Fv1%2Fkeys%2Fabcd%252Fefgh%252Fijkl%252Fmnop',
			'https://x/login?next=%2Fv1%2Fkeys%2F[API key]',
		],
		[
			'cut inside a character (half of it shows as UTF-8)',
			cyrillic,
			`key ${encodeURIComponent(cyrillic).slice(0, 46)}`,
			'key [API key]%D1',
		],
		[
			'after a byte that is no UTF-8',
			cyrillic,
			`x=%FF${encodeURIComponent(cyrillic)}`,
			'x=%FF[API key]',
		],
		[
			'a key of 2-, 3- and 4-byte characters, after an emoji',
			'clé-कुंजी-密钥-😀-0123',
			`${encodeURIComponent('😀 clé-कुंजी-密钥-😀-0123')}!`,
			`${encodeURIComponent('😀 ')}[API key]!`,
		],
		[
			'inside encoded words: the words stay',
			'/Zr8Lw0Tp1Vx2Nc3Hs4Kd',
			`m=${encodeURIComponent('Неверный ключ: /Zr8Lw0Tp1Vx2Nc3Hs4Kd')}&r=1`,
			'm=%D0%9D%D0%B5%D0%B2%D0%B5%D1%80%D0%BD%D1%8B%D0%B9%20%D0%BA%D0%BB%D1%8E%D1%87%3A%20[API key]&r=1',
		],
	])('URL-encoded: %s', (_title, key, apiMessage, shown) => {
		expect(withoutKey({ status: 400, apiMessage }, key)).toEqual({
			status: 400,
			apiMessage: shown,
		});
	});

	// The key is looked for in twice what an error shows, so one the shown words' cut ends in goes whole.
	it.each([
		['one character of it', 1, cyrillic],
		['less than half of it', 7, cyrillic],
		['half of it', 8, cyrillic],
		['all but one character', 15, cyrillic],
		['URL-encoded, cut inside an escape', 10, encodeURIComponent(cyrillic)],
	])('a key the cut ends in, %s before the cut: hidden whole', (_title, before, said) => {
		const lead = 'm'.repeat(MAX_SERVICE_TEXT - before);
		const body = { code: 'BAD_KEY', message: `${lead}${said} is revoked` };
		const failure = withoutKey(failureOfAnswer({ statusCode: 401, body })!, cyrillic);
		const error = toNodeApiError(node, failure);
		expect(error.message).toBe(
			`${`${lead}[API key] is revoked`.slice(0, MAX_SERVICE_TEXT)}… [BAD_KEY]`,
		);
		expect(error.errorResponse).toMatchObject({ message: error.message.replace(' [BAD_KEY]', '') });
	});

	it('a run of 140,000 escapes is read without running out of stack', () => {
		const apiMessage = '%41'.repeat(140_000);
		expect(withoutKey({ status: 400, apiMessage }, cyrillic)).toEqual({ status: 400, apiMessage });
	});

	// 32 characters, made up: parts of 16 or more are hidden.
	const key = ['dim_live', '7Hq2Vx9Lp4Zr8Nc1Wd6Ty3B'].join('_');
	it.each<[string, string, string]>([
		['its first half', `key ${key.slice(0, 16)}… is revoked`, 'key [API key]… is revoked'],
		['its last half', `key …${key.slice(16)} is revoked`, 'key …[API key] is revoked'],
		['a middle half', `bad: ${key.slice(8, 24)}`, 'bad: [API key]'],
		['two parts, each hidden', `${key.slice(0, 16)} / ${key.slice(-17)}`, '[API key] / [API key]'],
		['twice, next to each other', `${key}${key}`, '[API key]'],
		[
			'a prefix shorter than half: a hint',
			`key ${key.slice(0, 9)}… is revoked`,
			`key ${key.slice(0, 9)}… is revoked`,
		],
		['the last four: a hint', `key ending ${key.slice(-4)}`, `key ending ${key.slice(-4)}`],
		['one character short of half', `key ${key.slice(0, 15)}`, `key ${key.slice(0, 15)}`],
	])('in part: %s', (_title, apiMessage, shown) => {
		expect(withoutKey({ status: 401, apiMessage }, key)).toEqual({
			status: 401,
			apiMessage: shown,
		});
	});

	it('in part percent-encoded, half of the key counted in its own characters', () => {
		const slashed = 'abcdefg/hijklmnop/q/r/s/t/u/v/w/';
		const location = `https://x/v1/keys/${encodeURIComponent(slashed.slice(0, 16))}`;
		expect(withoutKey({ status: 307, location }, slashed)).toEqual({
			status: 307,
			location: 'https://x/v1/keys/[API key]',
		});
	});

	it('in part, a key of 8 characters or fewer only whole; none: the failure as it came', () => {
		expect(withoutKey({ status: 401, apiMessage: 'k3y9 k3y9abcd' }, 'k3y9abcd')).toEqual({
			status: 401,
			apiMessage: 'k3y9 [API key]',
		});
		const failure = { status: 401, apiMessage: 'no key' };
		expect(withoutKey(failure, '')).toEqual(failure);
	});

	it('a key holding an emoji: parts cut inside it are searched as they are, nothing else hidden', () => {
		// Parts of 9 code units: several end or start inside the emoji's surrogate pair.
		const emoji = 'abcdefgh\u{1F600}ijklmnop';
		expect(withoutKey({ status: 401, apiMessage: `key ${emoji}, undefined` }, emoji)).toEqual({
			status: 401,
			apiMessage: 'key [API key], undefined',
		});
	});

	it('a key holding a literal lowercase escape (%2f), repeated as it is', () => {
		const key = 'abc%2fdefghijklmnop';
		expect(withoutKey({ status: 401, apiMessage: `bad key ${key}` }, key)).toEqual({
			status: 401,
			apiMessage: 'bad key [API key]',
		});
	});

	it('a credential without an API Key sends none', () => {
		expect(apiKeyOf({})).toBe('');
	});
});

describe('mayHaveActed: whether the service may have acted on a request that failed', () => {
	it.each<[string, RequestFailure, boolean]>([
		['a 500', { status: 500 }, true],
		['a 502', { status: 502 }, true],
		['a 504', { status: 504 }, true],
		['a 503: turned away', { status: 503 }, false],
		['a 501: not implemented', { status: 501 }, false],
		['a 429: rate limited', { status: 429 }, false],
		['a 400: refused', { status: 400 }, false],
		['a 303: "see other", the answer to a request acted on', { status: 303 }, true],
		['a 301: moved', { status: 301 }, false],
		['a 302: found elsewhere', { status: 302 }, false],
		['a 307: sent elsewhere', { status: 307 }, false],
		['a 308: moved for good', { status: 308 }, false],
		['a 499: refused', { status: 499 }, false],
		['a timeout', { networkCode: 'ECONNABORTED' }, true],
		['a dropped connection', { networkCode: 'ECONNRESET' }, true],
		['no answer, no code', {}, true],
		['a refused connection: never arrived', { networkCode: 'ECONNREFUSED' }, false],
		['a Base URL that is not a URL: never sent', { networkCode: 'ERR_INVALID_URL' }, false],
		['an API Key of spaces only: never sent', { networkCode: 'NO_API_KEY' }, false],
		['an unknown host: never arrived', { networkCode: 'ENOTFOUND' }, false],
		['a failed name lookup: never arrived', { networkCode: 'EAI_AGAIN' }, false],
		['an untrusted certificate: never arrived', { networkCode: 'CERT_HAS_EXPIRED' }, false],
		['an answer not in TLS (https:// to http://): never sent', { networkCode: 'EPROTO' }, false],
		['n8n refused the address: never sent', { blockedAddress: '10.0.0.1' }, false],
	])('%s: %s', (_title, failure, acted) => {
		expect(mayHaveActed(failure)).toBe(acted);
	});

	it.each<[string, RequestFailure, boolean, boolean]>([
		['a write after a 502 says so', { status: 502 }, true, true],
		['a write after a dropped connection says so', { networkCode: 'ECONNRESET' }, true, true],
		['a write after a 503 does not', { status: 503 }, true, false],
		['a read after a 502 does not', { status: 502 }, false, false],
	])('%s', (_title, failure, write, says) => {
		const { description, context } = toNodeApiError(node, failure, { write });
		expect(String(description).includes(MAY_HAVE_ACTED)).toBe(says);
		// The tool form reads it there (../actions/toolAnswer.ts: no "try once more").
		expect(context.mayHaveActed).toBe(says || undefined);
	});

	it('a 503 says the service turned the request away; of a write, that it changed nothing', () => {
		const auto = { field: 'Max Concurrency' };
		expect(toNodeApiError(node, { status: 503 }, { write: true, ...auto }).description).toMatch(
			/overloaded and turned the request away, so it changed nothing\. .*Max Concurrency/,
		);
		const { description } = toNodeApiError(node, { status: 503 }, auto);
		expect(description).toMatch(/overloaded and turned the request away\. .*Max Concurrency/);
		expect(description).not.toMatch(/changed|effect/);
		// The trigger's or a picker's: no run, so no setting to lower.
		expect(toNodeApiError(node, { status: 503 }).description).toBe(
			'The service is overloaded and turned the request away. It was sent again after each wait the node allows; try again later.',
		);
	});

	it.each<[number | undefined, string]>([
		[60, 'It was sent again after each wait the node allows'],
		[61, 'It asked to wait 61 s, longer than the node waits (60 s), so it was not sent again'],
	])('a 503 with Retry-After: %s says whether it was sent again', (seconds, words) => {
		const failure = { status: 503, retryAfterSeconds: seconds };
		expect(toNodeApiError(node, failure).description).toContain(words);
	});

	it.each<[string, RequestFailure]>([
		['a 503', { status: 503 }],
		['a 429', { status: 429, retryAfterSeconds: 5 }],
	])(
		"%s to the trigger or a picker names no concurrency, which they have none of; a run's does",
		(_title, failure) => {
			expect(toNodeApiError(node, failure).description).not.toContain('Options');
			for (const field of ['Concurrency', 'Max Concurrency'])
				expect(toNodeApiError(node, failure, { field }).description).toContain(
					`, or lower Options → ${field}`,
				);
		},
	);
});

describe('atVersion: the Base URL a 404 suggests', () => {
	it.each([
		['https://api.example.com/v2', 'https://api.example.com/v1'],
		['https://api.example.com/v2/users', 'https://api.example.com/v1'],
		['https://gw.example/v1/proxy/v1/users', 'https://gw.example/v1/proxy/v1'],
		['https://api.example.com', 'https://api.example.com/v1'],
		['http://v2', 'http://v2/v1'],
		['http://v2/x', 'http://v2/x/v1'],
		['https://v2.example.com/api', 'https://v2.example.com/api/v1'],
		['https://api.example.com/v10', 'https://api.example.com/v1'],
		['https://api.example.com/v2beta', 'https://api.example.com/v2beta/v1'],
	])('%s → %s', (base, suggested) => {
		expect(atVersion(base)).toBe(suggested);
	});
});
