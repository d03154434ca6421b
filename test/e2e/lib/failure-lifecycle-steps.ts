/**
 * The steps of e2e.ts after the crash test: a service that does not answer and one that fails
 * (E2E_ONLY=failures), and a published trigger through its lifecycle (E2E_ONLY=lifecycle). The
 * checks that start n8n mains of their own stop the regular instance first, as the crash test
 * does: no two n8n processes run on one database.
 */
import { checkPollFailures, hasPollBackoff } from './failure-check';
import { checkLifecycle } from './lifecycle-check';
import { LIFECYCLE_CONFIGURATIONS } from './lifecycle-run';
import { checkNoAnswer } from './no-answer-check';
import { stopService, type Service } from './processes';
import { runs, type RunState } from './run-state';
import type { Check, StepRunner } from './steps';

/** Stops the regular-mode instance, if an earlier step has not; its database carries over. */
async function stopRegularInstance(state: RunState, check: Check): Promise<void> {
	if (state.main.exitStatus !== undefined) return;
	await stopService(state.main);
	check(`stopped ${state.main.name}: the checks below start n8n on its database`);
}

const started = (state: RunState) => (service: Service) => {
	state.n8nServices.push(service);
};

export async function failureAndLifecycleSteps(run: StepRunner, state: RunState): Promise<void> {
	if (runs('failures')) {
		await run.step(
			"No answer: the action node against a closed port says so, with the network code (n8n's error read)",
			(check) => checkNoAnswer(state.n8n, state.closedPort, check),
			{ independent: true },
		);
		if (hasPollBackoff(state.n8n.runtime.version)) {
			await run.step(
				"Failures: 429 Retry-After 150 s, a revoked key, 404 on every route, 503; the cause n8n's durable scheduler logs, and how long it holds the trigger",
				async (check) => {
					await stopRegularInstance(state, check);
					const emulators = state.failureEmulators.map(({ control }) => control);
					const { n8n, apiKey } = state;
					await checkPollFailures({ n8n, apiKey, emulators, started: started(state) }, check);
				},
				{ independent: true },
			);
		}
	}
	if (runs('lifecycle')) {
		await run.step(
			`Lifecycle (${LIFECYCLE_CONFIGURATIONS.map(({ label }) => label).join(', ')}): an edit published, two minutes unpublished, n8n restarted while unpublished, a filter set; every entry exactly once`,
			async (check) => {
				await stopRegularInstance(state, check);
				const emulators = state.lifecycleEmulators.map(({ control }) => control);
				const { n8n, apiKey } = state;
				await checkLifecycle({ n8n, apiKey, emulators, started: started(state) }, check);
			},
			{ independent: true },
		);
	}
}
