/**
 * Injected failures: an error status, a dropped connection, a 200 whose JSON is cut off, or a
 * redirect elsewhere (as a load balancer in front of the service answers, before the key check).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SUCCESS_CODE } from './choices';
import { ApiError } from './errors';
import { ArmedQueue, isWholeNumber, validateSwitch } from './armed';
import type { FaultKind, FaultSpec } from './types';

const FAULT_KINDS: readonly FaultKind[] = ['status', 'drop', 'malformed', 'redirect'];

/** A success envelope cut off mid-string: valid JSON never ends like this. */
const TRUNCATED_BODY = `{"code":"${SUCCESS_CODE}","data":{"items":[{"id":"`;

/** Checks a fault spec from a test or from the control endpoint; throws a 400 naming the bad field. */
export function validateFault(input: unknown): FaultSpec {
	return validateSwitch<FaultSpec>(
		input,
		'fault',
		['kind', 'status', 'retryAfterSeconds', 'message', 'location'],
		(fault) => [
			[
				FAULT_KINDS.includes(fault.kind as FaultKind),
				`kind must be one of ${FAULT_KINDS.join(', ')}`,
			],
			[
				fault.kind !== 'status' || isWholeNumber(fault.status, 400, 599),
				'status must be an integer from 400 to 599',
			],
			[
				fault.kind !== 'redirect' ||
					fault.status === undefined ||
					isWholeNumber(fault.status, 300, 399),
				'status of a redirect must be an integer from 300 to 399',
			],
			[
				fault.location === undefined || typeof fault.location === 'string',
				'location must be a string',
			],
			[
				fault.retryAfterSeconds === undefined || isWholeNumber(fault.retryAfterSeconds, 0),
				'retryAfterSeconds must be an integer of 0 or more',
			],
			[
				fault.message === undefined || typeof fault.message === 'string',
				'message must be a string',
			],
		],
	);
}

/**
 * Faults waiting for requests. They are checked in the order they were injected; the first one
 * that matches and has no skips left answers the request.
 */
export class FaultQueue extends ArmedQueue<FaultSpec> {
	add(fault: FaultSpec): void {
		super.add(validateFault(fault));
	}
}

/** Takes the reply away from fastify and cuts the connection: the client sees a socket error. */
export function cutConnection(request: FastifyRequest, reply: FastifyReply): FastifyReply {
	reply.hijack();
	request.raw.socket.destroy();
	return reply;
}

/** Answers (or, for 'drop', refuses to answer) a request as the fault says. */
export function answerWithFault(
	fault: FaultSpec,
	request: FastifyRequest,
	reply: FastifyReply,
): FastifyReply {
	switch (fault.kind) {
		case 'drop':
			return cutConnection(request, reply);
		case 'malformed':
			return reply.code(200).type('application/json').send(TRUNCATED_BODY);
		case 'redirect': {
			const path = (request.url ?? '').split('?')[0];
			if (fault.location !== undefined)
				reply.header('location', fault.location.split('{path}').join(path));
			return reply
				.code(fault.status ?? 307)
				.type('text/html')
				.send('<p>Moved.</p>');
		}
		case 'status': {
			const status = fault.status ?? 500;
			if (fault.retryAfterSeconds !== undefined)
				reply.header('retry-after', String(fault.retryAfterSeconds));
			const error = new ApiError(status, fault.message ?? `injected fault: HTTP ${status}`);
			return reply.code(status).send(error.toBody());
		}
	}
}
