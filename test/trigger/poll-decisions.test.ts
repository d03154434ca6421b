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
			description:
				'The request was cut when the time n8n allows a poll ran out (The connection was aborted, perhaps the server is offline). Nothing was emitted and the cursor stays; the next poll reads again from there. Raise N8N_SCHEDULER_POLL_TIMEOUT if this repeats.',
		});
	});

	it('drops only the final full stop of what n8n said', () => {
		const cut = explainBudgetCut(apiError('It said no. It is limiting requests.', true));
		expect(cut.description).toContain('(It said no. It is limiting requests)');
	});

	it('says of a 429 whose wait would not fit that the poll did not wait, and who waits it', () => {
		const limited = apiError('Slow down [RATE_LIMITED]', true);
		limited.httpCode = '429';
		expect(explainBudgetCut(limited)).toMatchObject({
			message: 'The new audit log entries could not be read within the poll time budget',
			description:
				"The service asked to wait before the next request (Slow down [RATE_LIMITED]), longer than the time n8n allows a poll, so the poll did not wait. Nothing was emitted and the cursor stays; the next poll reads again from there, and n8n's durable scheduler (2.40 and later) waits as long as the service asked before it.",
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
