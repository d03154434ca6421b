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
import { ArmedQueue, isWholeNumber, validateSwitch, type RequestMatch } from './armed';
import { isPlainObject } from './validation';

export interface ChosenAnswer extends RequestMatch {
	/** The JSON body to send; any JSON value, an envelope or not. */
	body: unknown;
	/** HTTP status; default 200. */
	status?: number;
}

function validateAnswer(input: unknown): ChosenAnswer {
	if (!isPlainObject(input) || !('body' in input)) {
		throw badRequest('a chosen answer must be a JSON object with a body');
	}
	return validateSwitch<ChosenAnswer>(input, 'a chosen answer', ['body', 'status'], (answer) => [
		[
			answer.status === undefined || isWholeNumber(answer.status, 200, 599),
			'status must be an integer from 200 to 599',
		],
	]);
}

/** Answers waiting for requests, in the order they were added; the first that matches answers. */
export class ChosenAnswers {
	private readonly armed = new ArmedQueue<ChosenAnswer>();

	add(answer: ChosenAnswer): void {
		this.armed.add(validateAnswer(answer));
	}

	clear(): void {
		this.armed.clear();
	}

	/** Sends the chosen answer for this request, if one matches; returns whether it did. */
	answer(method: string, path: string, reply: FastifyReply): boolean {
		const found = this.armed.take(method, path);
		if (!found) return false;
		void reply
			.code(found.status ?? 200)
			.type('application/json')
			.send(JSON.stringify(found.body));
		return true;
	}
}
