/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * The workflow written with n8n's workflow SDK (test/sdk/workflow.ts) in a real n8n: its JSON,
 * imported with n8n's CLI, published, and run by n8n's scheduler from the audit-log trigger
 * through one operation of every resource, against the seeded emulator.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { SEED } from '../../emulator/seed';
import { loadSdkWorkflow } from '../../sdk/node-definitions';
import { outputOf } from './action-checks';
import type { EmulatorControl } from './emulator';
import { waitFor, type Service } from './processes';
import type { PublicApi } from './rest';
import type { Check } from './steps';
import { unpublishAndSettle } from './trigger-runs';

/** Writes the workflow's JSON into `folder` (for `n8n import:workflow --separate`). */
export function writeSdkWorkflow(folder: string): void {
	mkdirSync(folder, { recursive: true });
	const json = loadSdkWorkflow().sdkWorkflowJson();
	writeFileSync(join(folder, 'sdk-workflow.json'), JSON.stringify(json, null, 2));
}

interface Context {
	api: PublicApi;
	emulator: EmulatorControl;
	main: Service;
}

export async function checkSdkWorkflow({ api, emulator, main }: Context, check: Check) {
	const { SDK_WORKFLOW_ID: id, SDK_WORKFLOW_NODES: nodes } = loadSdkWorkflow();
	await emulator.reset();
	await api.publish(id);
	check(`published ${id} (POST /api/v1${api.publishPath(id)}); its trigger polls every minute`);
	const execution = await waitFor(
		`the first execution of ${id} to finish`,
		async () => {
			const [first] = (await api.executions(id)).sort((a, b) => Number(a.id) - Number(b.id));
			return first && first.status !== 'running' && first.status !== 'new' ? first : undefined;
		},
		{ timeoutMs: 150_000, services: [main] },
	);
	await unpublishAndSettle(api, id, [main]);
	assert.equal(execution.status, 'success', execution.data?.resultData.error?.message);
	check(
		`execution ${execution.id} (mode ${execution.mode}): ${execution.status}; unpublished, and none of its executions still runs`,
	);

	const runData = execution.data!.resultData.runData;
	const outputs = nodes.map((node) => outputOf(runData, node));
	assert.deepEqual(
		outputs.map((items) => items.length),
		nodes.map(() => 1),
	);
	const [entry, tag, asset, connector, integration, user, auditEntry] = outputs.map(
		([item]) => item,
	);
	assert.match(String(tag.id), /^tag_/);
	assert.match(String(asset.id), /^ast_/);
	assert.match(String(connector.id), /^con_/);
	assert.equal(integration.id, SEED.integrations.ordersToSnowflake);
	assert.ok(user.id, 'Get users gave no user');
	// Get audit log has Output Compact, which names the actor's email actorEmail
	assert.deepEqual(Object.keys(auditEntry).sort(), ['actorEmail', 'event', 'id', 'timestamp']);
	check(
		`each of the ${nodes.length} nodes gave one item: entry ${String(entry.id)} → tag ${String(tag.id)} → asset ${String(asset.id)} → connector ${String(connector.id)} → ${String(integration.id)} → user ${String(user.id)} → audit entry ${String(auditEntry.id)}`,
	);

	await checkRequests(emulator, String(entry.event), check);
}

/** The requests the workflow's nodes sent, the tag's description taken from the trigger's entry. */
async function checkRequests(emulator: EmulatorControl, event: string, check: Check) {
	const requests = await emulator.requests();
	const tagRequest = requests.find(({ method, path }) => method === 'POST' && path === '/tags');
	assert.deepEqual(tagRequest?.body, {
		name: 'Reviewed',
		owner: SEED.users.maya,
		description: `After ${event}`,
	});
	check("POST /tags sent the tag's description from the trigger's entry (an expression)");
	const calls = requests.map(({ method, path }) => `${method} ${path}`);
	const expected = [
		'POST /tags',
		'POST /assets',
		'POST /connectors',
		`GET /integrations/${SEED.integrations.ordersToSnowflake}`,
		'GET /users',
	];
	assert.deepEqual(
		expected.filter((call) => !calls.includes(call)),
		[],
	);
	assert.ok(calls.filter((call) => call === 'GET /audit-logs').length >= 2);
	check(
		`the emulator received ${expected.join(', ')}, and GET /audit-logs from the trigger and the action`,
	);
}
