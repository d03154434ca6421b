import { NodeApiError, type IHttpRequestMethods } from 'n8n-workflow';

import { configurationError, isObject } from '../shared/checks';
import { apiRequest, type Context, type RequestOptions } from '../transport';
import { declaring } from '../transport/failureCause';
import type {
	Asset,
	AuditLogPage,
	ColumnConfig,
	Connector,
	Envelope,
	Integration,
	ReceivedSchemas,
	Tag,
	User,
} from './types';

/**
 * How every client function calls its endpoint: each path value as one segment, and the answer
 * checked for what the caller reads of `data` before anything is built from it.
 */

/** A dot segment, as typed or percent-encoded: URL parsers fold these into the path around them. */
const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i;
/** Half of a surrogate pair on its own: text that cannot be percent-encoded. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why `value` cannot be one segment of a request path, worded to follow a field's name. */
export function pathSegmentProblem(value: string): string | undefined {
	if (value === '') return 'is empty';
	if (DOT_SEGMENT.test(value))
		return 'cannot be "." or ".." (nor their percent-encoded forms): the request would go to another endpoint';
	if (LONE_SURROGATE.test(value)) return 'is not valid Unicode text';
	return undefined;
}

/** A check of one value the caller reads from `data`, and how an error describes what it wanted. */
export interface Check {
	expected: string;
	test(value: unknown): boolean;
}

/** An object whose every value passes `test`; with `child`, that key of each value too, if set. */
function mapOf(child?: { key: string; test: (value: unknown) => boolean }) {
	return (value: unknown) =>
		isObject(value) &&
		Object.values(value).every(
			(entry) =>
				isObject(entry) &&
				(!child || entry[child.key] === undefined || child.test(entry[child.key])),
		);
}

const columnsMap = mapOf();
const schemasMap = mapOf({ key: 'tables', test: mapOf({ key: 'columns', test: columnsMap }) });

const A_STRING: Check = { expected: 'a string', test: (value) => typeof value === 'string' };
const AN_OBJECT: Check = { expected: 'an object', test: isObject };
const A_LIST_OF_OBJECTS: Check = {
	expected: 'an array of objects',
	test: (value) => Array.isArray(value) && value.every(isObject),
};
/** A count the caller can do without (e.g. `totalItems`): absent, or a whole number. */
const AN_OPTIONAL_COUNT: Check = {
	expected: 'a whole number when given',
	test: (value) => value === undefined || (Number.isSafeInteger(value) && (value as number) >= 0),
};
const A_COLUMNS_MAP: Check = { expected: 'an object of column names to objects', test: columnsMap };
const A_SCHEMAS_MAP: Check = {
	expected: 'an object of schema names to objects, their tables and columns objects too',
	test: schemasMap,
};

/** What the nodes read of each endpoint's `data`, key by key: the one list of answer checks. */
export const ANSWER_CHECKS = {
	'POST /tags': { id: A_STRING },
	'PUT /tags/{id}': { id: A_STRING },
	'DELETE /tags/{id}/relation': {},
	'POST /assets': { id: A_STRING },
	'PATCH /assets/{id}': { id: A_STRING },
	'POST /connectors': { id: A_STRING },
	'GET /integrations/{id}': { integration: AN_OBJECT },
	'GET /integrations/{id}/schemas': { schemas: A_SCHEMAS_MAP },
	'PATCH /integrations/{id}/schemas': { schemas: A_SCHEMAS_MAP },
	'GET /integrations/{id}/schemas/{schema}/tables/{table}/columns': { columns: A_COLUMNS_MAP },
	'GET /users': { items: A_LIST_OF_OBJECTS },
	// A page without its list is an answer we cannot read, not an empty log; `totalItems` may be
	// missing (the end is then an empty page).
	'GET /audit-logs': { items: A_LIST_OF_OBJECTS, totalItems: AN_OPTIONAL_COUNT },
} satisfies Record<string, Record<string, Check>>;

/** An endpoint as the spec writes it: `method template`, e.g. `GET /integrations/{id}`. */
export type Endpoint = keyof typeof ANSWER_CHECKS;

/** What each endpoint's `data` holds, as the API describes it (ANSWER_CHECKS check a part). */
type EndpointData = {
	'POST /tags': Pick<Tag, 'id'>;
	'PUT /tags/{id}': Tag;
	'DELETE /tags/{id}/relation': unknown;
	'POST /assets': Asset;
	'PATCH /assets/{id}': Asset;
	'POST /connectors': Connector;
	'GET /integrations/{id}': { integration: Integration };
	'GET /integrations/{id}/schemas': { schemas: ReceivedSchemas };
	'PATCH /integrations/{id}/schemas': { schemas: ReceivedSchemas };
	'GET /integrations/{id}/schemas/{schema}/tables/{table}/columns': {
		columns: Record<string, ColumnConfig>;
	};
	'GET /users': { items: User[] };
	'GET /audit-logs': AuditLogPage;
};

/** Whether an answer's body is a JSON object, as the envelope every endpoint promises is. */
function isEnvelope(body: unknown): body is Envelope<unknown> & Record<string, unknown> {
	return isObject(body);
}

/** Where an answer is not what the API describes for what `checks` read of `data`, if it is not. */
export function answerProblem(body: unknown, checks: Record<string, Check>): string | undefined {
	if (body === undefined || body === '') return 'it is empty';
	if (!isEnvelope(body)) return 'it is not the JSON object the API promises';
	if (Object.keys(checks).length === 0) return undefined;
	const data = body.data;
	if (!isObject(data)) return 'it has no data object';
	const problems = Object.entries(checks)
		.filter(([key, check]) => !check.test(data[key]))
		.map(([key, check]) => `data.${key} should be ${check.expected}`);
	return problems.length ? problems.join('; ') : undefined;
}

/** A write's answer off the spec: the write took effect, so its item carries this, not an error. */
export interface OffSpecAnswer {
	/** What the service sent: `data`, or the whole body when it is not the envelope. */
	sent: unknown;
	/** Where the answer is not what the API describes, in the words a user reads. */
	warning: string;
}

/** What a read returns: `data` as the API describes it, and when the service answered. */
export type Read<T> = { data: T; message?: string; date?: number };

/** What a write returns: `data` as the API describes it, or the answer off the spec. */
export type Written<T> =
	| { data: T; message?: string; offSpec?: undefined }
	| { data: unknown; message?: string; offSpec: OffSpecAnswer };

type AnswerOf<E extends Endpoint> = E extends `GET ${string}`
	? Read<EndpointData[E]>
	: Written<EndpointData[E]>;

/** The body fields the API describes as another record's identifier: a 404 may be of them. */
const REFERENCES = ['owner', 'resourceId'];

/**
 * Sends one request to `endpoint` (e.g. `GET /integrations/{id}`, `params` the values of its
 * `{placeholders}`): its `data` and `message`. A read fails when its answer lacks what
 * ANSWER_CHECKS name; a write the service acknowledged does not (`acknowledged`): it took effect,
 * and a failed item would be run again.
 */
export async function callEndpoint<E extends Endpoint>(
	context: Context,
	endpoint: E,
	call: RequestOptions & { params?: Record<string, string> } = {},
): Promise<AnswerOf<E>> {
	const [method, template] = endpoint.split(' ') as [IHttpRequestMethods, string];
	const path = template.replace(/\{(\w+)\}/g, (_placeholder, name: string) => {
		const value = call.params?.[name] ?? '';
		const problem = pathSegmentProblem(value);
		if (problem) {
			const message = `The ${name} of ${endpoint} ${problem}; no request was sent`;
			throw configurationError({ node: context.getNode() }, message);
		}
		return encodeURIComponent(value);
	});
	const request = `${method} ${path}`;
	const checks: Record<string, Check> = ANSWER_CHECKS[endpoint];
	const { body, date } = await apiRequest.call(context, method, path, {
		...call,
		ids: Object.values(call.params ?? {}),
		references: Object.fromEntries(REFERENCES.map((field) => [field, call.body?.[field]])),
	});
	if (method !== 'GET') return acknowledged(request, body, checks) as AnswerOf<E>;
	if (!isEnvelope(body)) throw offSpecRead(context, request);
	const problem = answerProblem(body, checks);
	if (problem) throw offSpecRead(context, request, problem);
	return { data: body.data, message: body.message, date } as AnswerOf<E>;
}

/** A write's answer as acknowledged; off the spec (`answerProblem`), what it sent and a warning. */
export function acknowledged(
	request: string,
	body: unknown,
	checks: Record<string, Check>,
): Written<unknown> {
	const envelope = isEnvelope(body) ? body : undefined;
	const answer = { data: envelope?.data, message: envelope?.message };
	const problem = answerProblem(body, checks);
	if (!problem) return answer;
	const warning = `The service reported success for ${request}, but its answer is not what the API describes: ${problem}. The change counts as made, so this item holds what the service sent; running the item again would make the change again.`;
	const sent = envelope ? envelope.data : body === '' ? undefined : body;
	return { ...answer, offSpec: { sent, warning } };
}

/** The error of a read whose answer is not the envelope, or lacks (`problem`) what is read. */
function offSpecRead(context: Context, request: string, problem?: string): NodeApiError {
	const [response, what, why] = problem
		? [
				`Unexpected answer: ${problem}`,
				`is not what the API describes: ${problem}`,
				'The service reported success but left out what this operation reads, so nothing was output.',
			]
		: [
				'Response is not a JSON object',
				'is not the JSON object the API promises',
				'The response could not be read as the JSON envelope the API promises.',
			];
	const error = new NodeApiError(
		context.getNode(),
		{ message: response },
		{
			message: `The service's answer to ${request} ${what}`,
			description: `${why} Check that the Base URL points at the API (ending in /v1), then try again. If it does, the service answers otherwise than its API description: tell the service's owner, or this package's maintainers.`,
		},
	);
	// Not the API at the Base URL (a web page, a proxy's answer): someone must change it.
	return declaring(error, { cause: 'configuration-invalid' });
}
