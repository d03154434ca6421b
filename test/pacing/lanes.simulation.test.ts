/**
 * Requests that say nothing of what follows them (the trigger's pages, a picker's request, a
 * tool's call) beside a bulk run under Concurrency Auto, on the fake clock (./simulation.ts): at
 * a rate limit as tight as 1 request a second, they go before the run's next items, so a picker
 * answers within a few seconds and a poll within its budget, while the run fails nothing.
 */
import { OPEN_ENDED_WAIT_MS } from '../../nodes/DataIntegrationManagement/pacing/shared-pace';
import { simulate, type Scenario } from './simulation';

const SEEDS = [1, 2, 3];

/** A run of 60 creates from 0, a picker's request at 5 s, a poll's three pages at 10 s. */
const beside = (requestsPerSecond: number, pollBudgetMs: number): Omit<Scenario, 'seed'> => ({
	roundTripMs: 20,
	jitterMs: 5,
	limits: [{ requestsPerSecond }],
	burst: 1,
	runs: [
		{ items: 60 },
		{ items: 1, startAtMs: 5000, openEnded: {} },
		{ items: 3, startAtMs: 10_000, openEnded: { budgetMs: pollBudgetMs } },
	],
});

describe('a picker and a poll beside a bulk run under Auto, at a tight rate limit', () => {
	it.each([
		['1 request a second, a poll budget of 10 s', 1, 10_000],
		['2 a second, 10 s', 2, 10_000],
		['0.5 a second, n8n 45 s poll budget', 0.5, 45_000],
	])(
		'%s: the picker answers within 5 s, the poll within its budget, the run fails nothing',
		async (_name, rate, budget) => {
			for (const seed of SEEDS) {
				const { runs } = await simulate({ ...beside(rate, budget), seed });
				const [bulk, picker, poll] = runs;
				expect(bulk.failed).toBe(0);
				expect(picker.failed).toBe(0);
				expect(picker.endedAt - picker.startedAt).toBeLessThanOrEqual(5000);
				expect(poll.failed).toBe(0);
				expect(poll.endedAt - poll.startedAt).toBeLessThanOrEqual(budget);
			}
		},
	);

	it(`a picker that finds no turn within OPEN_ENDED_WAIT_MS (${OPEN_ENDED_WAIT_MS} ms) gives up, and the run goes on`, async () => {
		// A service so slow that the run's items hold every place longer than the picker waits.
		const { runs } = await simulate({
			roundTripMs: 10_000,
			jitterMs: 0,
			limits: [{ requestsPerSecond: 1e9 }],
			burst: 1e9,
			seed: 1,
			runs: [{ items: 20 }, { items: 1, startAtMs: 100, openEnded: {} }],
		});
		expect(runs[1]).toMatchObject({ failed: 1, endedAt: 100 + OPEN_ENDED_WAIT_MS });
		expect(runs[0].failed).toBe(0);
	});
});
