/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling: runs under Node in this repo only and is never part of the published package */
/** The set-up steps of `npm run screenshots` (take.ts): the browser, n8n with the package, the emulator, signing in. */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { Browser } from 'playwright-core';

import { startEmulatorProcess, type RunningEmulator } from '../lib/emulator';
import { installN8n, N8n } from '../lib/n8n';
import { buildAndPack, installIntoCommunityNodes, packageLoadProblems } from '../lib/package';
import { type Service } from '../lib/processes';
import { freePort } from '../lib/ports';
import { DEV_OWNER, EditorSession } from '../lib/rest';
import type { Check } from '../lib/steps';
import { WORKFLOWS_DIR, writeCredentialFile } from '../lib/workflows';
import { ensureChromium, openBrowser, VIEWPORT, type BlockedRequests } from './browser';
import { Editor } from './editor';

export const PACKAGE_NAME = 'n8n-nodes-data-integration-management';
export const ACTION_NODE = {
	type: `${PACKAGE_NAME}.dataIntegrationManagement`,
	displayName: 'Data Integration Management',
};
export const TRIGGER_TYPE = `${PACKAGE_NAME}.dataIntegrationManagementTrigger`;

/** What the steps share; each field is set by the step that creates it. */
export interface RunState {
	runDir: string;
	logDir: string;
	shotDir: string;
	n8n: N8n;
	emulator: RunningEmulator;
	main: Service;
	baseUrl: string;
	browser?: Browser;
	blocked: BlockedRequests;
	editor: Editor;
}

/** Debian's Chromium, driven by playwright-core. */
export async function ensureBrowser(state: RunState, check: Check): Promise<void> {
	check(await ensureChromium());
	const { version } = JSON.parse(
		readFileSync(require.resolve('playwright-core/package.json'), 'utf8'),
	) as { version: string };
	check(`playwright-core ${version} (no browser download)`);
}

/** n8n ${N8N_VERSION} with the packed package in its community-nodes folder. */
export async function installN8nWithPackage(state: RunState, check: Check): Promise<void> {
	const runtime = await installN8n();
	const userFolder = join(state.runDir, 'n8n-user-folder');
	mkdirSync(userFolder);
	state.n8n = new N8n(runtime, userFolder, state.logDir);
	check(`n8n in ${runtime.folder}`);
	const packed = await buildAndPack(state.runDir);
	await installIntoCommunityNodes(packed.tarball, state.n8n.nodesFolder);
	check(`npm run build && npm pack → installed ${packed.name}@${packed.version}`);
}

/** The seeded emulator, the credential and the sample workflows. */
export async function startEmulatorWithWorkflows(state: RunState, check: Check): Promise<void> {
	state.emulator = await startEmulatorProcess({
		port: await freePort(),
		apiKey: 'screenshots-key',
		logFile: join(state.logDir, 'emulator.log'),
	});
	check(`emulator on ${state.emulator.baseUrl}`);
	const credentialFile = join(state.runDir, 'credentials.json');
	writeCredentialFile(credentialFile, state.emulator);
	check(await state.n8n.importCredentials(credentialFile));
	check(await state.n8n.importWorkflows(WORKFLOWS_DIR));
}

/** n8n on loopback, with its owner account. */
export async function startN8nWithOwner(state: RunState, check: Check): Promise<void> {
	const port = await freePort();
	state.main = await state.n8n.startMain({ name: 'n8n-main', port });
	state.baseUrl = `http://127.0.0.1:${port}`;
	check(`n8n on ${state.baseUrl}`);
	const session = new EditorSession(state.baseUrl);
	await session.setupOwner(DEV_OWNER);
	check(`owner ${DEV_OWNER.email} created through POST /rest/owner/setup`);
	const types = (await session.nodeTypes()).map(({ name }) => name);
	for (const type of [ACTION_NODE.type, TRIGGER_TYPE])
		if (!types.includes(type)) throw new Error(`n8n does not list the node type ${type}`);
	const problems = packageLoadProblems(state.main.log(), PACKAGE_NAME);
	if (problems.length) throw new Error(`n8n logged load problems:\n${problems.join('\n')}`);
	check('n8n lists both node types and logged no load problem');
}

/** Sign in through the login page. */
export async function signIn(state: RunState, check: Check): Promise<void> {
	const { browser, page, blocked } = await openBrowser();
	state.browser = browser;
	state.blocked = blocked;
	state.editor = new Editor(page, state.baseUrl, join(state.runDir, 'failures'));
	check(`Chromium ${browser.version()}, ${VIEWPORT.width}×${VIEWPORT.height}, fresh profile`);
	await state.editor.attempt('sign-in', async () => await state.editor.signIn(DEV_OWNER));
	check(`signed in as ${DEV_OWNER.email}: ${page.url()}`);
}
