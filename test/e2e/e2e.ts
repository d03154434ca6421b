/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, no-console -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * `npm run test:e2e`: the package inside a real n8n, installed the way a user installs it, against
 * the emulator. N8N_VERSION chooses the n8n (default: test/e2e/n8n-version; CI also runs 1.x, see
 * `npm run test:e2e:all`). In order, it proves that:
 * 1. `npm run build && npm pack` gives a tarball that installs into n8n's community-nodes folder;
 * 2. n8n loads it: both nodes and the credential type are listed, and no load error is logged;
 * 3. the example workflows (examples/) import with n8n's CLI, and every resource and operation of
 *    the action node works in n8n's own engine (`n8n execute`): each node's output, and exactly
 *    the requests the service received;
 * 4. the trigger, published (activated on 1.x) and polled by n8n's scheduler every minute, emits
 *    each new audit entry exactly once, and a poll with nothing new starts no execution; still
 *    exactly once when n8n runs two polls of it at once (two Poll Times entries firing together, a
 *    poll outlasting the minute), and across a crash of n8n; a service that fails (the cause n8n
 *    2.40+'s durable scheduler reads from each error, and how long it holds the trigger back) or
 *    does not answer; and through a published workflow's lifecycle (an edit published, two
 *    minutes unpublished, n8n restarted while unpublished, a filter set), per scheduler;
 * 5. as an AI tool: the MCP Server Trigger example driven by the MCP SDK client over Streamable
 *    HTTP and SSE, and the AI Agent example with a scripted OpenAI-compatible model;
 * 6. in queue mode (Redis and one `n8n worker`) the same workflows run on the worker;
 * 7. where companies run the service (lib/network-check.ts): HTTPS with a self-signed
 *    certificate and the Ignore SSL Issues toggle, a forward proxy, a read-only credential under
 *    the MCP Server Trigger, a Base URL that redirects elsewhere, and (2.x) n8n's SSRF protection;
 * 8. the workflow written with n8n's workflow SDK (test/sdk/workflow.ts) imports and runs.
 * E2E_ONLY=ai runs only what the AI checks need (install, import, start n8n, the AI steps), to
 * work on them quickly; E2E_ONLY=triggers only the trigger's steps (point 4), E2E_ONLY=overlap
 * only its overlapping polls, E2E_ONLY=failures only the failing services, E2E_ONLY=lifecycle
 * only the lifecycle, E2E_ONLY=network only point 7, E2E_ONLY=sdk only point 8; the default runs
 * everything.
 * Every service it starts is stopped at the end, whatever happens. When a step fails, the run's
 * folder (logs, n8n's database) is kept and its path printed.
 */
import assert from 'node:assert/strict';

import { checkAgent, checkMcpServer } from './lib/ai-check';
import { checkCrash, CRASH_CONFIGURATIONS } from './lib/crash-check';
import { failureAndLifecycleSteps } from './lib/failure-lifecycle-steps';
import { checkGovernance } from './lib/governance-check';
import { checkHttpRequestWorkflow } from './lib/http-request-check';
import { checkHttps, checkHttpsTriggerEmitted, checkProxy } from './lib/network-check';
import {
	checkReadOnlyMcp,
	checkRedirects,
	checkSsrf,
	hasSsrfProtection,
} from './lib/network-guards';
import type { NetworkContext } from './lib/network-setup';
import { checkOverlappingPolls } from './lib/overlap-check';
import {
	createRunFolder,
	stopAllServices,
	stopService,
	stopServicesOnExit,
	type Service,
} from './lib/processes';
import { assertNoLoadProblems, runs, type RunState } from './lib/run-state';
import { checkSdkWorkflow } from './lib/sdk-check';
import { setUp } from './lib/setup-steps';
import { StepRunner } from './lib/steps';
import { checkAuditTrigger } from './lib/trigger-check';
import { examples, type Examples } from './lib/workflows';
import { executeWithCli, runOnWorker, startQueueMode } from './lib/workflow-steps';

/** Point 3: each action example in n8n's own engine, and n8n's HTTP Request node with the credential. */
async function actionSteps(run: StepRunner, state: RunState, { actionSamples }: Examples) {
	if (!runs('actions')) return;
	for (const sample of actionSamples) {
		await run.step(
			`n8n execute: ${sample.name} (${sample.operations.join(', ')})`,
			(check) => executeWithCli(state, sample, check),
			{ independent: true },
		);
	}
	await run.step(
		"n8n's HTTP Request node with this credential (Predefined Credential Type)",
		(check) => checkHttpRequestWorkflow(state.n8n, state.emulator, check),
		{ independent: true },
	);
}

/** Point 5, and the governance example. */
async function aiSteps(run: StepRunner, state: RunState) {
	if (!runs('ai')) return;
	const aiContext = () => ({
		n8n: state.n8n,
		api: state.api,
		main: state.main,
		emulator: state.emulator.control,
		apiKey: state.emulator.apiKey,
		mcpToken: state.mcpToken,
		openAi: state.openAi,
	});
	await run.step(
		'AI: the MCP server example, driven by the MCP SDK client over Streamable HTTP and SSE',
		(check) => checkMcpServer(aiContext(), check),
		{ independent: true },
	);
	await run.step(
		"AI: the agent example, n8n's AI Agent with a scripted OpenAI-compatible model",
		(check) => checkAgent(aiContext(), check),
		{ independent: true },
	);
	await run.step(
		'The governance example, its approval granted: personal-data columns hashed',
		(check) => checkGovernance({ n8n: state.n8n, emulator: state.emulator.control }, check),
		{ independent: true },
	);
}

/** Point 7. */
async function networkSteps(run: StepRunner, state: RunState) {
	if (!runs('network')) return;
	const networkContext = (): NetworkContext => ({
		n8n: state.n8n,
		editor: state.editor,
		api: state.api,
		main: state.main,
		emulator: state.emulator,
		mcpToken: state.mcpToken,
	});
	await run.step(
		'Network: HTTPS with a self-signed certificate: credential Test, action and trigger, Ignore SSL Issues off and on',
		(check) => checkHttps(networkContext(), state.network, check),
	);
	await run.step(
		'Network: a forward proxy named by HTTP_PROXY and HTTPS_PROXY',
		(check) => checkProxy(networkContext(), state.network, check),
		{ independent: true },
	);
	await run.step(
		'Network: a read-only credential (Allow Changes off) under the MCP Server Trigger',
		(check) => checkReadOnlyMcp(networkContext(), check),
		{ independent: true },
	);
	await run.step(
		'Network: a Base URL that redirects to another origin: credential Test, a read and a write',
		(check) => checkRedirects(networkContext(), state.network, check),
		{ independent: true },
	);
	if (hasSsrfProtection(state.n8n.runtime.version)) {
		await run.step(
			"Network: n8n's SSRF protection, the service on a loopback address",
			(check) => checkSsrf(networkContext(), check),
			{ independent: true },
		);
	}
	await run.step(
		'Network: the trigger over HTTPS emits a new entry at its next poll',
		(check) => checkHttpsTriggerEmitted(networkContext(), state.network, check),
		{ independent: true },
	);
}

/** Points 8 and 4 (the trigger published, then two polls at once). */
async function sdkAndTriggerSteps(run: StepRunner, state: RunState, { triggerSample }: Examples) {
	if (runs('sdk')) {
		await run.step(
			"The workflow written with n8n's workflow SDK: published, its trigger and six operations run",
			(check) =>
				checkSdkWorkflow(
					{ api: state.api, emulator: state.emulator.control, main: state.main },
					check,
				),
			{ independent: true },
		);
	}
	if (runs('trigger')) {
		await run.step(
			'Trigger: published, polled every minute, each new audit entry emitted exactly once',
			async (check) => {
				assert.ok(triggerSample, 'no sample workflow starts from the trigger');
				const { api, emulator, main } = state;
				await checkAuditTrigger(
					{ api, emulator: emulator.control, main, workflow: triggerSample },
					check,
				);
			},
		);
	}
	if (runs('overlap')) {
		await run.step(
			'Overlapping polls: two Poll Times entries firing together, a poll outlasting the minute; every audit entry exactly once',
			(check) =>
				checkOverlappingPolls(
					{ api: state.api, main: state.main },
					state.overlapEmulators.map(({ control }) => control),
					check,
				),
			{ independent: true },
		);
	}
}

/** Point 4 across a crash. */
async function crashSteps(run: StepRunner, state: RunState) {
	if (runs('crash')) {
		await run.step('Crash: n8n stopped, to start it per scheduler configuration', async (check) => {
			await stopService(state.main);
			check('stopped the regular-mode instance (its user folder and database carry over)');
		});
		for (const { label, env } of CRASH_CONFIGURATIONS) {
			await run.step(
				`Crash (${label}): SIGKILL right after a poll, restart, every audit entry exactly once`,
				(check) =>
					checkCrash(
						{
							n8n: state.n8n,
							apiKey: state.apiKey,
							emulator: state.emulator.control,
							label,
							env,
							started: (service) => state.n8nServices.push(service),
						},
						check,
					),
				{ independent: true },
			);
		}
	}
}

/** Point 6. */
async function queueSteps(run: StepRunner, state: RunState, { actionSamples }: Examples) {
	if (runs('queue')) {
		await run.step(
			'Queue mode: n8n main with EXECUTIONS_MODE=queue, Redis, and one n8n worker',
			(check) => startQueueMode(state, check),
		);
		for (const sample of actionSamples) {
			await run.step(
				`Queue mode: ${sample.name} through its webhook, executed by the worker`,
				(check) => runOnWorker(state, sample, check),
				{ independent: true },
			);
		}
	}
}

async function runEndToEnd(): Promise<boolean> {
	stopServicesOnExit();
	const runFolder = createRunFolder('n8n-nodes-dim-e2e-');
	const { dir: runDir, logDir } = runFolder;
	console.log(`End-to-end run in ${runDir}\n`);

	const found = examples();
	const state = { runDir, logDir, n8nServices: [] as Service[] } as RunState;
	const run = new StepRunner();
	try {
		await setUp(run, state, found);
		await actionSteps(run, state, found);
		await aiSteps(run, state);
		await networkSteps(run, state);
		await sdkAndTriggerSteps(run, state, found);
		await crashSteps(run, state);
		await failureAndLifecycleSteps(run, state);
		await queueSteps(run, state, found);
		await run.step('No n8n process logged a load problem for the package', async (check) => {
			for (const service of state.n8nServices)
				assertNoLoadProblems(service, state.packed.name, check);
		});
	} finally {
		await state.openAi?.stop();
		await state.network?.https.close();
		await state.network?.elsewhere.close();
		await stopAllServices();
		console.log('\nStopped every service the run started (emulator, n8n, worker, Redis).');
	}

	const ok = run.summarize();
	if (ok) runFolder.succeeded();
	return ok;
}

runEndToEnd().then(
	(ok) => process.exit(ok ? 0 : 1),
	(error) => {
		console.error(error);
		process.exit(1);
	},
);
