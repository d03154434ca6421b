/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * What the failure and lifecycle checks need before n8n starts (a setup step of e2e.ts): an
 * emulator per workflow, the credentials pointing at them (and at a closed port), and the
 * workflows, imported with n8n's CLI. The triggers start from a date just before the run, so
 * that every entry after it is one a check logged (the seed is older), whichever poll stores the
 * cursor first.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

import { startEmulatorProcess, type RunningEmulator } from './emulator';
import {
	failureCredential,
	FAILURE_SCENARIOS,
	hasPollBackoff,
	writeFailureWorkflows,
} from './failure-check';
import {
	lifecycleCredential,
	LIFECYCLE_CONFIGURATIONS,
	writeLifecycleWorkflows,
} from './lifecycle-run';
import { noAnswerCredential, writeNoAnswerWorkflow } from './no-answer-check';
import { freePort } from './ports';
import { runs, type RunState } from './run-state';
import type { Check } from './steps';
import { writeCredentialFile } from './workflows';

type Credential = ReturnType<typeof noAnswerCredential>;

async function startEmulator(state: RunState, name: string): Promise<RunningEmulator> {
	return await startEmulatorProcess({
		port: await freePort(),
		apiKey: `e2e-${randomBytes(8).toString('hex')}`,
		logFile: join(state.logDir, `${name}.log`),
	});
}

/** The no-answer check's credential and workflow; on 2.40 and later, the failure scenarios'. */
async function prepareFailures(
	state: RunState,
	folder: string,
	startDate: string,
): Promise<Credential[]> {
	state.closedPort = await freePort();
	writeNoAnswerWorkflow(folder);
	const credentials = [noAnswerCredential(state.closedPort)];
	if (!hasPollBackoff(state.n8n.runtime.version)) return credentials;
	for (const scenario of FAILURE_SCENARIOS) {
		const emulator = await startEmulator(state, `emulator-${scenario.id}`);
		state.failureEmulators.push(emulator);
		credentials.push({ ...failureCredential(scenario), emulator });
	}
	writeFailureWorkflows(folder, startDate);
	return credentials;
}

async function prepareLifecycle(
	state: RunState,
	folder: string,
	startDate: string,
): Promise<Credential[]> {
	const credentials: Credential[] = [];
	for (const configuration of LIFECYCLE_CONFIGURATIONS) {
		const emulator = await startEmulator(state, `emulator-${configuration.id}`);
		state.lifecycleEmulators.push(emulator);
		credentials.push({ ...lifecycleCredential(configuration), emulator });
	}
	writeLifecycleWorkflows(folder, startDate);
	return credentials;
}

const portsOf = (emulators: RunningEmulator[]) =>
	emulators.map(({ baseUrl }) => new URL(baseUrl).port).join(', ') || 'none';

export async function prepareFailureAndLifecycle(state: RunState, check: Check): Promise<void> {
	const { runDir, n8n, emulator } = state;
	state.failureEmulators = [];
	state.lifecycleEmulators = [];
	const folder = join(runDir, 'failure-lifecycle-workflows');
	mkdirSync(folder);
	const startDate = new Date(Date.now() - 60_000).toISOString();
	const credentials = [
		...(runs('failures') ? await prepareFailures(state, folder, startDate) : []),
		...(runs('lifecycle') ? await prepareLifecycle(state, folder, startDate) : []),
	];
	check(
		`emulators started: for the failure scenarios on ${portsOf(state.failureEmulators)}, for the lifecycle configurations on ${portsOf(state.lifecycleEmulators)}`,
	);
	const credentialFile = join(runDir, 'failure-lifecycle-credentials.json');
	writeCredentialFile(credentialFile, emulator, credentials);
	check(
		`n8n import:credentials → ${await n8n.importCredentials(credentialFile)} (one per emulator${runs('failures') ? `, and one on 127.0.0.1:${state.closedPort}, where nothing listens` : ''})`,
	);
	check(
		`n8n import:workflow --separate → ${await n8n.importWorkflows(folder)} (the triggers poll every minute from ${startDate})`,
	);
}
