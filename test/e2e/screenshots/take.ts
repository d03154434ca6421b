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
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

import type { Browser } from 'playwright-core';

import { SEED } from '../../emulator';
import type { SchemasConfig, User } from '../../../nodes/DataIntegrationManagement/client/types';
import { startEmulatorProcess, type RunningEmulator } from '../lib/emulator';
import { installN8n, N8n, N8N_VERSION, packageLoadProblems, REPO_ROOT } from '../lib/n8n';
import { buildAndPack, installIntoCommunityNodes } from '../lib/package';
import {
	createRunFolder,
	freePort,
	stopAllServices,
	stopServicesOnExit,
	type Service,
} from '../lib/processes';
import { DEV_OWNER, EditorSession } from '../lib/rest';
import { StepRunner } from '../lib/steps';
import {
	loadSampleWorkflows,
	SAMPLE_CREDENTIAL,
	WORKFLOWS_DIR,
	writeCredentialFile,
} from '../lib/workflows';
import { Editor, ensureChromium, openBrowser, VIEWPORT, type BlockedRequests } from './browser';

/**
 * Where the pictures go: the README's docs/screenshots, or SCREENSHOTS_DIR (CI sends them to a
 * temporary folder, so that a run leaves the work tree as it found it).
 */
const SCREENSHOT_DIR = process.env.SCREENSHOTS_DIR
	? resolve(process.env.SCREENSHOTS_DIR)
	: join(REPO_ROOT, 'docs/screenshots');

/** The names the README shows them under. */
const PICTURES = {
	operations: 'operations.png',
	ownerPicker: 'tag-create-owner-picker.png',
	updateSchemas: 'update-schemas.png',
	trigger: 'trigger-parameters.png',
} as const;

const PACKAGE_NAME = 'n8n-nodes-data-integration-management';
const ACTION_NODE = {
	type: `${PACKAGE_NAME}.dataIntegrationManagement`,
	displayName: 'Data Integration Management',
};
const TRIGGER_TYPE = `${PACKAGE_NAME}.dataIntegrationManagementTrigger`;

/** The change of the sample workflow's Update Schemas node ("Hash a column"). */
interface SchemaChange {
	level: string;
	schema: string;
	table: string;
	column: string;
	hashed: string;
}

function sampleSchemaChange(): SchemaChange {
	const workflow = JSON.parse(readFileSync(join(WORKFLOWS_DIR, 'integration.json'), 'utf8')) as {
		nodes: Array<{
			parameters: { operation?: string; changes?: { change?: SchemaChange[] } };
		}>;
	};
	const node = workflow.nodes.find(({ parameters }) => parameters.operation === 'updateSchemas');
	const change = node?.parameters.changes?.change?.[0];
	if (!change) throw new Error('examples/integration.json has no Update Schemas change');
	return change;
}

function sameItems(shown: string[], expected: string[]): boolean {
	return JSON.stringify([...shown].sort()) === JSON.stringify([...expected].sort());
}

function expectList(what: string, shown: string[], expected: string[]): void {
	if (!sameItems(shown, expected))
		throw new Error(`${what} lists ${shown.join(', ')}; expected ${expected.join(', ')}`);
}

/** What the emulator serves, read directly, to compare the editor's lists with. */
async function emulatorGet<T>(emulator: RunningEmulator, path: string): Promise<T> {
	const response = await fetch(`${emulator.baseUrl}${path}`, {
		headers: { 'x-api-key': emulator.apiKey },
	});
	if (!response.ok) throw new Error(`GET ${path} on the emulator answered ${response.status}`);
	return ((await response.json()) as { data: T }).data;
}

/** What the steps share; each field is set by the step that creates it. */
interface RunState {
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

async function takeScreenshots(): Promise<boolean> {
	stopServicesOnExit();
	const runFolder = createRunFolder('n8n-nodes-dim-screenshots-');
	const { dir: runDir, logDir } = runFolder;
	const state = { runDir, logDir, shotDir: join(runDir, 'screenshots') } as RunState;
	mkdirSync(state.shotDir);
	const run = new StepRunner();
	const shot = (name: string) => join(state.shotDir, name);

	await run.step("Debian's Chromium, driven by playwright-core", async (check) => {
		check(await ensureChromium());
		const { version } = JSON.parse(
			readFileSync(require.resolve('playwright-core/package.json'), 'utf8'),
		) as { version: string };
		check(`playwright-core ${version} (no browser download)`);
	});

	await run.step(
		`n8n ${N8N_VERSION} with the packed package in its community-nodes folder`,
		async (check) => {
			const runtime = await installN8n();
			const userFolder = join(runDir, 'n8n-user-folder');
			mkdirSync(userFolder);
			state.n8n = new N8n(runtime, userFolder, state.logDir);
			check(`n8n in ${runtime.folder}`);
			const packed = await buildAndPack(runDir);
			await installIntoCommunityNodes(packed.tarball, state.n8n.nodesFolder);
			check(`npm run build && npm pack → installed ${packed.name}@${packed.version}`);
		},
	);

	await run.step('The seeded emulator, the credential and the sample workflows', async (check) => {
		state.emulator = await startEmulatorProcess({
			port: await freePort(),
			apiKey: 'screenshots-key',
			logFile: join(state.logDir, 'emulator.log'),
		});
		check(`emulator on ${state.emulator.baseUrl}`);
		const credentialFile = join(runDir, 'credentials.json');
		writeCredentialFile(credentialFile, state.emulator);
		check(await state.n8n.importCredentials(credentialFile));
		check(await state.n8n.importWorkflows(WORKFLOWS_DIR));
	});

	await run.step('n8n on loopback, with its owner account', async (check) => {
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
	});

	await run.step('Sign in through the login page', async (check) => {
		const { browser, page, blocked } = await openBrowser();
		state.browser = browser;
		state.blocked = blocked;
		state.editor = new Editor(page, state.baseUrl, join(runDir, 'failures'));
		check(`Chromium ${browser.version()}, ${VIEWPORT.width}×${VIEWPORT.height}, fresh profile`);
		await state.editor.attempt('sign-in', async () => await state.editor.signIn(DEV_OWNER));
		check(`signed in as ${DEV_OWNER.email}: ${page.url()}`);
	});

	await run.step('Add the node (Create a tag) and open the Owner list', async (check) => {
		const { editor, emulator } = state;
		await editor.attempt('add-node', async () => {
			await editor.newWorkflowWithManualTrigger();
			const actions = await editor.addNodeFromCreator(
				ACTION_NODE.displayName,
				ACTION_NODE.displayName,
				'Create a tag',
			);
			check(`node creator: "${ACTION_NODE.displayName}" offers ${actions.length} actions`);
		});
		await editor.expectNodePanel('Tag → Create', ['Resource', 'Operation', 'Name', 'Owner']);
		check('node panel rendered: Resource, Operation, Name, Owner');
		await editor.attempt('owner-picker', async () => {
			await editor.ensureCredential(SAMPLE_CREDENTIAL);
			check(`credential: ${SAMPLE_CREDENTIAL.name}`);
			await editor.expectValue('resource', 'Tag');
			await editor.expectValue('operation', 'Create');
			await editor.fill('name', 'Customer data');
			const shown = await editor.openResourceList('owner');
			const { items } = await emulatorGet<{ items: User[] }>(emulator, '/users');
			expectList(
				'Owner → From List',
				shown,
				items.map((user) => `${user.name} (${user.email})`),
			);
			check(`Owner → From List shows the emulator's ${shown.length} users`);
			await editor.moveMouseAway();
			await editor.screenshot(shot(PICTURES.ownerPicker));
			check(PICTURES.ownerPicker);
			await editor.page.getByTestId('rlc-item').first().click();
		});
	});

	await run.step('Resource Integration: the Operation list', async (check) => {
		const { editor } = state;
		await editor.attempt('operations', async () => {
			const resources = await editor.choose('resource', 'Integration');
			check(`Resource lists ${resources.join(', ')}`);
			const operations = await editor.openDropdown('operation', 'Update Schemas');
			for (const expected of ['Get', 'Get Columns', 'Get Schemas', 'Update Schemas'])
				if (!operations.includes(expected))
					throw new Error(`Operation lists no "${expected}": ${operations.join(', ')}`);
			check(`Operation lists ${operations.join(', ')}`);
			await editor.moveMouseAway();
			await editor.screenshot(shot(PICTURES.operations));
			check(PICTURES.operations);
		});
	});

	await run.step(
		'Update Schemas: a change picked from the lists the emulator serves',
		async (check) => {
			const { editor, emulator } = state;
			const change = sampleSchemaChange();
			const integrationId = SEED.integrations.ordersToSnowflake;
			const { schemas } = await emulatorGet<{ schemas: SchemasConfig }>(
				emulator,
				`/integrations/${integrationId}/schemas`,
			);
			await editor.attempt('update-schemas', async () => {
				await editor.page
					.locator('.el-select__popper:visible')
					.getByRole('option')
					.filter({ has: editor.page.getByText('Update Schemas', { exact: true }) })
					.click();
			});
			await editor.expectNodePanel('Integration → Update Schemas', [
				'Integration ID',
				'Update Mode',
				'Changes',
			]);
			check('node panel rendered: Integration ID, Update Mode, Changes');
			await editor.attempt('update-schemas-change', async () => {
				await editor.fill('integrationId', integrationId);
				await editor.expectValue('updateMode', 'List of Changes');
				await editor.page.getByTestId('fixed-collection-add').click();
				await editor.expectNodePanel('a change', ['Level', 'Schema Name or ID']);
				await editor.choose('level', 'Column');
				const schemaNames = await editor.choose('schema', change.schema);
				expectList('Schema Name or ID', schemaNames, Object.keys(schemas));
				check(`Schema lists ${schemaNames.join(', ')} (from the emulator)`);
				const tables = schemas[change.schema]?.tables ?? {};
				const tableNames = await editor.choose('table', change.table);
				expectList('Table Name or ID', tableNames, Object.keys(tables));
				check(`Table lists ${tableNames.join(', ')}`);
				const columnNames = await editor.choose('column', change.column);
				expectList(
					'Column Name or ID',
					columnNames,
					Object.keys(tables[change.table]?.columns ?? {}),
				);
				check(`Column lists ${columnNames.join(', ')}`);
				await editor.choose('hashed', 'Hash');
				check(`change: ${change.schema}.${change.table}.${change.column} → Hash`);
				await editor.scrollParameterToTop('operation');
				await editor.settle();
				await editor.screenshot(shot(PICTURES.updateSchemas));
				check(PICTURES.updateSchemas);
			});
		},
	);

	await run.step("The trigger's parameters (sample workflow)", async (check) => {
		const { editor } = state;
		const sample = loadSampleWorkflows().find(({ triggerNode }) => triggerNode);
		if (!sample?.triggerNode) throw new Error('No sample workflow starts from the trigger');
		await editor.attempt('trigger', async () => {
			await editor.page.getByTestId('ndv-close-button').click();
			await editor.page.goto(`${state.baseUrl}/workflow/${sample.id}`);
			await editor.openNode(sample.triggerNode!);
		});
		await editor.expectNodePanel('the trigger', ['Poll Times', 'Start From', 'Filters', 'Options']);
		check('node panel rendered: Poll Times, Start From, Filters, Options');
		await editor.attempt('trigger-filter', async () => {
			await editor.ensureCredential(SAMPLE_CREDENTIAL);
			await editor.expectValue('startFrom', 'Now');
			await editor.page.getByTestId('ndv').getByPlaceholder('Add Filter').click();
			const list = editor.page.locator('.el-select__popper:visible');
			await list.getByRole('option', { name: 'Event Contains', exact: true }).click();
			await editor.fill('eventContains', 'paused');
			check('filter added: Event Contains "paused"');
			await editor.settle();
			await editor.screenshot(shot(PICTURES.trigger));
			check(PICTURES.trigger);
		});
	});

	await run.step('Save the screenshots', async (check) => {
		mkdirSync(SCREENSHOT_DIR, { recursive: true });
		for (const name of Object.values(PICTURES)) {
			copyFileSync(shot(name), join(SCREENSHOT_DIR, name));
			check(join(SCREENSHOT_DIR, name));
		}
		const blocked = [...(state.blocked?.urls ?? [])];
		check(
			blocked.length
				? `requests off the machine, blocked: ${blocked.join(', ')}`
				: 'the browser asked for nothing beyond loopback',
		);
	});

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
