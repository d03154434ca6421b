/**
 * Chosen answers: the emulator answers matching /v1 requests with a status and JSON body the test
 * picks, in place of what the operation would answer. For answers the real service should never
 * give but a client must survive, such as a 200 whose envelope has no `data`.
 *
 *   emulator.answerWith({ path: '/integrations/', body: { code: 'SUCCESS' } });
 *
 * A chosen answer comes after the API key check: it stands for what an authenticated service said.
 */
import type { FastifyReply } from 'fastify';
import { badRequest } from './errors';
import { isPlainObject } from './validation';

export interface ChosenAnswer {
	/** The JSON body to send; any JSON value, an envelope or not. */
	body: unknown;
	/** HTTP status; default 200. */
	status?: number;
	/** How many matching requests get this answer; default 1. */
	count?: number;
	/** Only requests with this method (any case). */
	method?: string;
	/** Only requests whose /v1-relative path starts with this, e.g. '/users'. */
	path?: string;
}

interface Armed {
	answer: ChosenAnswer;
	countLeft: number;
}

function validateAnswer(input: unknown): ChosenAnswer {
	if (!isPlainObject(input) || !('body' in input)) {
		throw badRequest('a chosen answer must be a JSON object with a body');
	}
	const { status, count, method, path } = input;
	const whole = (value: unknown, min: number, max: number) =>
		typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
	if (status !== undefined && !whole(status, 200, 599))
		throw badRequest('status must be an integer from 200 to 599');
	if (count !== undefined && !whole(count, 1, Number.MAX_SAFE_INTEGER))
		throw badRequest('count must be an integer of 1 or more');
	if (method !== undefined && typeof method !== 'string')
		throw badRequest('method must be a string');
	if (path !== undefined && !(typeof path === 'string' && path.startsWith('/')))
		throw badRequest("path must be a string starting with '/'");
	return input as unknown as ChosenAnswer;
}

/** Answers waiting for requests, in the order they were added; the first that matches answers. */
export class ChosenAnswers {
	private armed: Armed[] = [];

	add(answer: ChosenAnswer): void {
		const valid = validateAnswer(answer);
		this.armed.push({ answer: { ...valid }, countLeft: valid.count ?? 1 });
	}

	clear(): void {
		this.armed = [];
	}

	/** Sends the chosen answer for this request, if one matches; returns whether it did. */
	answer(method: string, path: string, reply: FastifyReply): boolean {
		const found = this.armed.find(
			({ answer }) =>
				(answer.method === undefined || answer.method.toUpperCase() === method.toUpperCase()) &&
				(answer.path === undefined || path.startsWith(answer.path)),
		);
		if (!found) return false;
		if (--found.countLeft === 0) this.armed = this.armed.filter((other) => other !== found);
		void reply
			.code(found.answer.status ?? 200)
			.type('application/json')
			.send(JSON.stringify(found.answer.body));
		return true;
	}
}
