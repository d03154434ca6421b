/**
 * What the error-words test walks: every operation (with ./working-parameters.ts), every field a
 * user fills with values no field takes, every fault and answer of the service that ends in an
 * error, and what an error's words must not say.
 */
import type { IDataObject, INodeParameters, INodeProperties } from 'n8n-workflow';

import {
	resourceDescriptions,
	type Operation,
} from '../../nodes/DataIntegrationManagement/actions/operation';
import { operationsByResource } from '../../nodes/DataIntegrationManagement/actions/router';
import type { Emulator } from '../emulator';
import { OFFSET_IGNORED, type ServiceVariant } from '../emulator/variants';
import { rl } from './support';

/** A source file's path, e.g. client/choices.ts. */
const SOURCE_PATH = /\b[\w-]+\/[\w.-]+\.[jt]s\b/;
/** An HTTP status where a status is meant: "HTTP 404", "status 429", "a 429", "429s", "404 Not Found". */
const STATUS_WORDING =
	/\b(?:HTTP|status|code)\s*[1-5]\d\d\b|\ban? [1-5]\d\d\b|\b[1-5]\d\ds\b|\b[1-5]\d\d (?:error|not found|bad request|unauthori[sz]ed|forbidden|too many)/i;

/** What an error's words must not say: a source path, or a status (`status`: the one sent). */
export function problemsOf(message: string, description?: string, status?: number): string[] {
	const text = `${message}\n${description ?? ''}`;
	return [
		SOURCE_PATH.test(text) && 'names a source file',
		STATUS_WORDING.test(text) && 'names an HTTP status',
		status !== undefined && new RegExp(`\\b${status}\\b`).test(text) && `says ${status}`,
	].filter((problem): problem is string => Boolean(problem));
}

/** Every operation of the node, by resource: the router's own table. */
export const operationsOf = operationsByResource as unknown as Record<
	string,
	Record<string, Operation>
>;

/** The fields of one operation as the node shows them, Options → Concurrency included. */
export function operationFields(resource: string, operation: string): INodeProperties[] {
	const [, ...fields] = resourceDescriptions(
		resource,
		{ [operation]: operationsOf[resource][operation] },
		[{ name: operation, value: operation }],
	);
	return fields;
}

export const OPERATIONS = Object.entries(operationsOf).flatMap(([resource, operations]) =>
	Object.keys(operations).map((operation) => ({
		resource,
		operation,
		key: `${resource}.${operation}`,
	})),
);

/** One field to fill with bad values: where it sits in the parameters, and its description. */
interface Leaf {
	path: Array<string | number>;
	property: INodeProperties;
}

/** Every field a user fills, collections' and fixed collections' fields included. */
export function leaves(properties: INodeProperties[]): Leaf[] {
	return properties.flatMap((property): Leaf[] => {
		if (property.type === 'notice') return [];
		if (property.type === 'collection') {
			return (property.options as INodeProperties[]).map((field) => ({
				path: [property.name, field.name],
				property: field,
			}));
		}
		if (property.type === 'fixedCollection') {
			return (property.options as Array<{ name: string; values: INodeProperties[] }>).flatMap(
				(group) =>
					group.values.map((field) => ({
						path: [property.name, group.name, 0, field.name],
						property: field,
					})),
			);
		}
		return [{ path: [property.name], property }];
	});
}

/** `parameters` with the field at `path` set to `value` (a locator in its first typed mode). */
export function withValue(
	parameters: INodeParameters,
	{ path, property }: Leaf,
	value: unknown,
): INodeParameters {
	const copy = structuredClone(parameters) as Record<string | number, unknown>;
	let at = copy;
	for (const [index, key] of path.slice(0, -1).entries()) {
		at[key] ??= typeof path[index + 1] === 'number' ? [{}] : {};
		at = at[key] as Record<string | number, unknown>;
	}
	const typedMode = property.modes?.find((mode) => mode.name !== 'list')?.name ?? 'id';
	at[path[path.length - 1]] =
		property.type === 'resourceLocator' ? rl(typedMode, value as string) : value;
	return copy as INodeParameters;
}

/** Values no field takes, or some fields refuse: each is one input item, read by an expression. */
export const BAD_VALUES: Array<IDataObject[string]> = [
	{ a: 1 },
	[1],
	'{not json',
	'',
	-1,
	1.5,
	'..',
	'not a date',
	'x'.repeat(200),
];

export interface Fault {
	name: string;
	/** The status the service answers with, which must stay in httpCode and out of the words. */
	status?: number;
	/** Why n8n must take it that the request failed: the failure the error declares. */
	cause: string;
	arm: () => void;
	/**
	 * Whether a write fails under it too. Every fault fails a read; an answer with a success
	 * status, whatever its body, does not fail a write: the service acknowledged it.
	 */
	failsWrites: boolean;
}

const STATUSES = [400, 401, 403, 404, 409, 422, 429, 500, 502, 503];
/** The redirects, never followed: each is an error naming where it points. */
const REDIRECTS = [301, 302, 303, 307, 308];

/** The cause each status declares (docs/design.md, "Why a request failed"). */
export function causeOfStatus(status: number): string {
	if (status === 429) return 'rate-limited';
	if (status >= 500) return 'temporarily-unavailable';
	return status === 401 ? 'credential-invalid' : 'configuration-invalid';
}

/** Every way the service (or the network) can answer that ends in an error, armed on `emulator`. */
export function faultsOf(emulator: () => Emulator): Fault[] {
	return [
		...STATUSES.map((status) => ({
			name: `status ${status} with the API's message`,
			status,
			cause: causeOfStatus(status),
			failsWrites: true,
			arm: () =>
				emulator().injectFault({
					kind: 'status',
					status,
					message: 'refused by the walk',
					retryAfterSeconds: 0,
					count: 10,
				}),
		})),
		// 429 and 503 are waited out: without Retry-After (a chosen answer has none), the walk
		// would wait out the backoff in real time; their words are walked above.
		...STATUSES.filter((status) => status !== 429 && status !== 503).map((status) => ({
			name: `status ${status} without a body`,
			status,
			cause: causeOfStatus(status),
			failsWrites: true,
			arm: () => emulator().answerWith({ status, body: null, count: 10 }),
		})),
		...redirectFaults(emulator),
		{
			name: 'a dropped connection',
			cause: 'temporarily-unavailable',
			failsWrites: true,
			arm: () => emulator().injectFault({ kind: 'drop', count: 10 }),
		},
		{
			name: 'a cut-off body',
			cause: 'configuration-invalid',
			failsWrites: false,
			arm: () => emulator().injectFault({ kind: 'malformed', count: 10 }),
		},
		{
			name: 'an answer that is not an envelope',
			cause: 'configuration-invalid',
			failsWrites: false,
			arm: () => emulator().answerWith({ body: ['not', 'an envelope'], count: 10 }),
		},
		{
			name: 'a success without data',
			cause: 'configuration-invalid',
			failsWrites: false,
			arm: () => emulator().answerWith({ body: { code: 'SUCCESS' }, count: 10 }),
		},
	];
}

/** The redirects, to the same path on another origin: never followed, each ends in an error. */
function redirectFaults(emulator: () => Emulator): Fault[] {
	return REDIRECTS.map((status) => ({
		name: `a redirect (${status}) to the same path on another origin`,
		status,
		cause: 'configuration-invalid',
		failsWrites: true,
		arm: () =>
			emulator().injectFault({
				kind: 'redirect',
				status,
				location: 'https://moved.example{path}?token=walk',
				count: 10,
			}),
	}));
}

/** Audit-log services that answer differently from the spec, in a way that ends in an error. */
export const AUDIT_LOG_VARIANTS: Record<string, ServiceVariant> = {
	'offset ignored': OFFSET_IGNORED,
	'a query name refused': { unknownNames: { names: ['startTime'], handling: 'refuse' } },
};

/**
 * The same for the trigger, which reads on by time where the offset is ignored, and the cause each
 * error declares: the services where it cannot.
 */
export const TRIGGER_AUDIT_LOG_VARIANTS: Record<string, [ServiceVariant, string]> = {
	'offset and time bounds ignored': [
		{ ...OFFSET_IGNORED, ignoreTimeBounds: true },
		'configuration-invalid',
	],
	'offset ignored, pages of 1: an instant fills a page': [
		{ ...OFFSET_IGNORED, pageSizeCap: 1 },
		'configuration-invalid',
	],
	'a query name refused': [AUDIT_LOG_VARIANTS['a query name refused'], 'configuration-invalid'],
};

/** A log of 150 entries, served by `variant`. */
export function useAuditLogVariant(emulator: Emulator, variant: ServiceVariant): void {
	emulator.reset({ seed: false });
	emulator.addAuditEntries(
		Array.from({ length: 150 }, (_unused, i) => ({
			timestamp: new Date(Date.UTC(2026, 9, 1, 0, i)).toISOString(),
		})),
	);
	emulator.store.auditLogVariant = variant;
}
