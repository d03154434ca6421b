/** Injected failures: an error status, a dropped connection, or a 200 whose JSON is cut off. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SUCCESS_CODE } from './choices';
import { ApiError, badRequest } from './errors';
import { isPlainObject } from './validation';
import type { FaultKind, FaultSpec } from './types';

const FAULT_KINDS: readonly FaultKind[] = ['status', 'drop', 'malformed'];

/** A success envelope cut off mid-string: valid JSON never ends like this. */
const TRUNCATED_BODY = `{"code":"${SUCCESS_CODE}","data":{"items":[{"id":"`;

interface ArmedFault {
	spec: FaultSpec;
	skipLeft: number;
	countLeft: number;
}

function isWholeNumber(value: unknown, min: number, max = Number.MAX_SAFE_INTEGER): boolean {
	return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
}

const FAULT_FIELDS = [
	'kind',
	'status',
	'retryAfterSeconds',
	'message',
	'count',
	'skip',
	'method',
	'path',
];

/** Checks a fault spec from a test or from the control endpoint; throws a 400 naming the bad field. */
export function validateFault(input: unknown): FaultSpec {
	if (!isPlainObject(input)) throw badRequest('fault must be a JSON object');
	const fault = input as Partial<Record<keyof FaultSpec, unknown>>;
	const optional = (value: unknown, valid: boolean) => value === undefined || valid;
	const rules: Array<[valid: boolean, message: string]> = [
		[
			Object.keys(input).every((key) => FAULT_FIELDS.includes(key)),
			`fault fields are ${FAULT_FIELDS.join(', ')}`,
		],
		[
			FAULT_KINDS.includes(fault.kind as FaultKind),
			`kind must be one of ${FAULT_KINDS.join(', ')}`,
		],
		[
			fault.kind !== 'status' || isWholeNumber(fault.status, 400, 599),
			'status must be an integer from 400 to 599',
		],
		[
			optional(fault.retryAfterSeconds, isWholeNumber(fault.retryAfterSeconds, 0)),
			'retryAfterSeconds must be an integer of 0 or more',
		],
		[optional(fault.message, typeof fault.message === 'string'), 'message must be a string'],
		[optional(fault.count, isWholeNumber(fault.count, 1)), 'count must be an integer of 1 or more'],
		[optional(fault.skip, isWholeNumber(fault.skip, 0)), 'skip must be an integer of 0 or more'],
		[optional(fault.method, typeof fault.method === 'string'), 'method must be a string'],
		[
			optional(fault.path, typeof fault.path === 'string' && fault.path.startsWith('/')),
			"path must be a string starting with '/'",
		],
	];
	const broken = rules.find(([valid]) => !valid);
	if (broken) throw badRequest(broken[1]);
	return input as unknown as FaultSpec;
}

/**
 * Faults waiting for requests. They are checked in the order they were injected; the first one
 * that matches and has no skips left answers the request.
 */
export class FaultQueue {
	private armed: ArmedFault[] = [];

	add(fault: FaultSpec): void {
		const spec = validateFault(fault);
		this.armed.push({ spec: { ...spec }, skipLeft: spec.skip ?? 0, countLeft: spec.count ?? 1 });
	}

	clear(): void {
		this.armed = [];
	}

	/** The fault that answers this request, if any; uses up one of its skips or one of its count. */
	take(method: string, path: string): FaultSpec | undefined {
		for (const fault of this.armed) {
			const { spec } = fault;
			if (spec.method !== undefined && spec.method.toUpperCase() !== method.toUpperCase()) continue;
			if (spec.path !== undefined && !path.startsWith(spec.path)) continue;
			if (fault.skipLeft > 0) {
				fault.skipLeft--;
				continue;
			}
			if (--fault.countLeft === 0) this.armed = this.armed.filter((other) => other !== fault);
			return spec;
		}
		return undefined;
	}
}

/** Answers (or, for 'drop', refuses to answer) a request as the fault says. */
export function answerWithFault(
	fault: FaultSpec,
	request: FastifyRequest,
	reply: FastifyReply,
): FastifyReply {
	switch (fault.kind) {
		case 'drop':
			// Take the reply away from fastify and cut the connection: the client sees a socket error.
			reply.hijack();
			request.raw.socket.destroy();
			return reply;
		case 'malformed':
			return reply.code(200).type('application/json').send(TRUNCATED_BODY);
		case 'status': {
			const status = fault.status ?? 500;
			if (fault.retryAfterSeconds !== undefined)
				reply.header('retry-after', String(fault.retryAfterSeconds));
			const error = new ApiError(status, fault.message ?? `injected fault: HTTP ${status}`);
			return reply.code(status).send(error.toBody());
		}
	}
}
