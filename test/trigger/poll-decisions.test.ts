/**
 * The trigger's pure decisions (trigger/poll.ts), rule by rule: which poll budget from n8n is
 * used, and what a request the budget cut says (the filters: ../shared/filters.test.ts).
 */
import { NodeApiError, type INode } from 'n8n-workflow';

import { explainBudgetCut, usableBudget } from '../../nodes/DataIntegrationManagement/trigger/poll';

describe('usableBudget', () => {
	it.each([
		[300_000, 300_000],
		[1, 1],
		[0, undefined],
		[-1, undefined],
		[Number.NaN, undefined],
		[Number.POSITIVE_INFINITY, undefined],
		['300000', undefined],
		[undefined, undefined],
	])('of %p is %p', (budget, used) => {
		expect(usableBudget(budget)).toBe(used);
	});
});

describe('explainBudgetCut', () => {
	const node = { name: 'Audit Log Trigger' } as INode;
	const apiError = (message: string, deadlineReached?: boolean) => {
		const error = new NodeApiError(node, {}, { message });
		if (deadlineReached !== undefined) error.context.deadlineReached = deadlineReached;
		return error;
	};

	it('says that the poll time budget ran out, and what n8n said of the request', () => {
		const cut = apiError('The connection was aborted, perhaps the server is offline', true);
		expect(explainBudgetCut(cut)).toMatchObject({
			message: 'The new audit log entries could not be read within the poll time budget',
			description: expect.stringMatching(
				/^The first request of the poll did not get its answer within the time n8n allows a poll \(The connection was aborted, perhaps the server is offline\)\./,
			),
		});
	});

	it('says first what helps in the nodes, then what took the time, and only then the variable n8n Cloud users cannot set', () => {
		const { description } = explainBudgetCut(apiError('Timed out', true));
		const at = (words: string) => {
			expect(description).toContain(words);
			return description!.indexOf(words);
		};
		const helps = at(
			"What helps: a credential of this trigger's own (another API key), or a lower Options → Max Concurrency in the run sharing it",
		);
		const notHelping = at(
			'Options → Max Items per Poll and the Filters do not shorten a first request',
		);
		const tookTheTime = at(
			"What took the time: a run of this package's nodes using the same credential (the same Base URL and API key), behind whose requests this poll waits its turn, or a slow service.",
		);
		const variable = at(
			'On self-hosted n8n, N8N_SCHEDULER_POLL_TIMEOUT raises the time n8n allows a poll; n8n Cloud users cannot set it.',
		);
		expect([helps, notHelping, tookTheTime, variable]).toEqual(
			[helps, notHelping, tookTheTime, variable].sort((a, b) => a - b),
		);
		expect(description).toContain('Nothing was emitted and the cursor stays');
	});

	it('drops only the final full stop of what n8n said', () => {
		const cut = explainBudgetCut(apiError('It said no. It is limiting requests.', true));
		expect(cut.description).toContain('(It said no. It is limiting requests)');
	});

	it.each([
		[
			'a 429 whose wait would not fit: the poll did not wait, and who waits it',
			'429',
			'Slow down [RATE_LIMITED]',
			"The service asked to wait before the next request (Slow down [RATE_LIMITED]), longer than the time n8n allows a poll, so the poll did not wait. Nothing was emitted and the cursor stays; the next poll reads again from there, and n8n's durable scheduler (2.40 and later) waits as long as the service asked before it.",
		],
		[
			'a 503 whose wait would not fit: the service answered, and the poll did not wait',
			'503',
			'Busy [OVERLOADED]',
			"The service turned the poll's request away (Busy [OVERLOADED]), and the wait before sending it again would end past the time n8n allows a poll, so the poll did not wait. Nothing was emitted and the cursor stays; the next poll reads again from there.",
		],
	])('says of %s', (_title, httpCode, said, description) => {
		const refused = apiError(said, true);
		refused.httpCode = httpCode;
		expect(explainBudgetCut(refused)).toMatchObject({
			message: 'The new audit log entries could not be read within the poll time budget',
			description,
		});
	});

	it.each([
		['a failure the budget did not cut', apiError('Not found', false)],
		['a failure without the mark', apiError('Not found')],
	])('leaves %s as it is', (_, error) => {
		const message = error.message;
		expect(explainBudgetCut(error)).toBe(error);
		expect(error.message).toBe(message);
	});
});
