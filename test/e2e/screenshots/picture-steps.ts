/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test tooling: runs under Node in this repo only and is never part of the published package */
/** The picture steps of `npm run screenshots` (take.ts): each picture, checked against the emulator, then saved. */
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { SEED } from '../../emulator';
import type { SchemasConfig, User } from '../../../nodes/DataIntegrationManagement/client/types';
import type { RunningEmulator } from '../lib/emulator';
import { REPO_ROOT } from '../lib/n8n';
import type { Check } from '../lib/steps';
import { loadSampleWorkflows, SAMPLE_CREDENTIAL, WORKFLOWS_DIR } from '../lib/workflows';
import { ACTION_NODE, type RunState } from './setup-steps';

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

/** The change of the sample workflow's Update Schemas node ("Hash a column"). */
interface SchemaChange {
	schema: string;
	table: string;
	column: string;
	hashed: string;
}

function sampleSchemaChange(): SchemaChange {
	type Named = { value: string };
	type SavedChange = Record<'schema' | 'table' | 'column', Named> & { hashed: string };
	const workflow = JSON.parse(readFileSync(join(WORKFLOWS_DIR, 'integration.json'), 'utf8')) as {
		nodes: Array<{
			parameters: { operation?: string; changes?: { change?: SavedChange[] } };
		}>;
	};
	const node = workflow.nodes.find(({ parameters }) => parameters.operation === 'updateSchemas');
	const change = node?.parameters.changes?.change?.[0];
	if (!change) throw new Error('examples/integration.json has no Update Schemas change');
	// The example names each by a resource locator's value (By Name).
	const { schema, table, column, hashed } = change;
	return { schema: schema.value, table: table.value, column: column.value, hashed };
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

const shot = (state: RunState, name: string) => join(state.shotDir, name);

/** Add the node (Create a tag) and open the Owner list. */
export async function shootOwnerPicker(state: RunState, check: Check): Promise<void> {
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
		await editor.screenshot(shot(state, PICTURES.ownerPicker));
		check(PICTURES.ownerPicker);
		await editor.page.getByTestId('rlc-item').first().click();
	});
}

/** Resource Integration: the Operation list. */
export async function shootOperations(state: RunState, check: Check): Promise<void> {
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
		await editor.screenshot(shot(state, PICTURES.operations));
		check(PICTURES.operations);
	});
}

/** Update Schemas: a change picked from the lists the emulator serves. */
export async function shootUpdateSchemas(state: RunState, check: Check): Promise<void> {
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
		await editor.expectNodePanel('a change', ['Level', 'Schema']);
		await editor.choose('level', 'Column');
		// A change names them as Get Columns does: picked from a list.
		const schemaNames = await editor.pickFromResourceList('schema', change.schema);
		expectList('Schema → From List', schemaNames, Object.keys(schemas));
		check(`Schema lists ${schemaNames.join(', ')} (from the emulator)`);
		const tables = schemas[change.schema]?.tables ?? {};
		const tableNames = await editor.pickFromResourceList('table', change.table);
		expectList('Table → From List', tableNames, Object.keys(tables));
		check(`Table lists ${tableNames.join(', ')}`);
		const columnNames = await editor.pickFromResourceList('column', change.column);
		expectList('Column → From List', columnNames, Object.keys(tables[change.table]?.columns ?? {}));
		check(`Column lists ${columnNames.join(', ')}`);
		await editor.choose('hashed', 'Hash');
		check(`change: ${change.schema}.${change.table}.${change.column} → Hash`);
		await editor.scrollParameterToTop('operation');
		await editor.settle();
		await editor.screenshot(shot(state, PICTURES.updateSchemas));
		check(PICTURES.updateSchemas);
	});
}

/** The trigger's parameters (sample workflow). */
export async function shootTrigger(state: RunState, check: Check): Promise<void> {
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
		await list.getByRole('option', { name: 'Events', exact: true }).click();
		await editor.page.getByTestId('ndv').getByRole('button', { name: 'Add Text' }).click();
		await editor.fill('texts', 'paused');
		check('filter added: Events, "paused"');
		await editor.settle();
		await editor.screenshot(shot(state, PICTURES.trigger));
		check(PICTURES.trigger);
	});
}

/** Save the screenshots. */
export async function saveScreenshots(state: RunState, check: Check): Promise<void> {
	mkdirSync(SCREENSHOT_DIR, { recursive: true });
	for (const name of Object.values(PICTURES)) {
		copyFileSync(shot(state, name), join(SCREENSHOT_DIR, name));
		check(join(SCREENSHOT_DIR, name));
	}
	const blocked = [...(state.blocked?.urls ?? [])];
	check(
		blocked.length
			? `requests off the machine, blocked: ${blocked.join(', ')}`
			: 'the browser asked for nothing beyond loopback',
	);
}
