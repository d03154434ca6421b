/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, no-console -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * `npm run screenshots`: the README's pictures of the nodes, taken in a real n8n (the pinned one) by
 * Debian's Chromium driven by playwright-core. It starts what `npm run dev` starts, on free ports
 * (the packed package installed into a throwaway n8n, the seeded emulator, the credential and the
 * sample workflows, the owner account), signs in through the login page, and in the editor:
 * 1. adds the action node through the node creator (search "Data Integration Management", action
 *    "Create a tag") and opens the Owner picker's "From List": the emulator's users;
 * 2. switches the resource to Integration and opens the Operation list;
 * 3. picks Update Schemas and fills a change (the sample workflow's "Hash a column") from the
 *    schema, table and column lists the node loads from the emulator;
 * 4. opens the audit-log trigger of the sample workflow and adds a filter.
 * Each step fails unless the node panel rendered the parameters it names (with a screenshot of
 * the page at the failure) and the lists show what the emulator holds. The four pictures replace
 * those in docs/screenshots/ only when all four were taken. Every process it starts is stopped at
 * the end; a failed run keeps its folder (logs, failure screenshots) and prints its path.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

import { N8N_VERSION } from '../lib/n8n';
import { createRunFolder, stopAllServices, stopServicesOnExit } from '../lib/processes';
import { StepRunner } from '../lib/steps';
import {
	saveScreenshots,
	shootOperations,
	shootOwnerPicker,
	shootTrigger,
	shootUpdateSchemas,
} from './picture-steps';
import {
	ensureBrowser,
	installN8nWithPackage,
	signIn,
	startEmulatorWithWorkflows,
	startN8nWithOwner,
	type RunState,
} from './setup-steps';

async function takeScreenshots(): Promise<boolean> {
	stopServicesOnExit();
	const runFolder = createRunFolder('n8n-nodes-dim-screenshots-');
	const { dir: runDir, logDir } = runFolder;
	const state = { runDir, logDir, shotDir: join(runDir, 'screenshots') } as RunState;
	mkdirSync(state.shotDir);
	const run = new StepRunner();
	await run.step("Debian's Chromium, driven by playwright-core", (check) =>
		ensureBrowser(state, check),
	);
	await run.step(
		`n8n ${N8N_VERSION} with the packed package in its community-nodes folder`,
		(check) => installN8nWithPackage(state, check),
	);
	await run.step('The seeded emulator, the credential and the sample workflows', (check) =>
		startEmulatorWithWorkflows(state, check),
	);
	await run.step('n8n on loopback, with its owner account', (check) =>
		startN8nWithOwner(state, check),
	);
	await run.step('Sign in through the login page', (check) => signIn(state, check));
	await run.step('Add the node (Create a tag) and open the Owner list', (check) =>
		shootOwnerPicker(state, check),
	);
	await run.step('Resource Integration: the Operation list', (check) =>
		shootOperations(state, check),
	);
	await run.step('Update Schemas: a change picked from the lists the emulator serves', (check) =>
		shootUpdateSchemas(state, check),
	);
	await run.step("The trigger's parameters (sample workflow)", (check) =>
		shootTrigger(state, check),
	);
	await run.step('Save the screenshots', (check) => saveScreenshots(state, check));

	await state.browser?.close().catch(() => undefined);
	await stopAllServices();
	const ok = run.summarize();
	if (ok) runFolder.succeeded();
	return ok;
}

takeScreenshots().then(
	(ok) => process.exit(ok ? 0 : 1),
	async (error) => {
		console.error(error instanceof Error ? (error.stack ?? error.message) : error);
		await stopAllServices();
		process.exit(1);
	},
);
