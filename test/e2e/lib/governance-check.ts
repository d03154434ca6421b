/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * The governance example (examples/governance.json) up to its end, with the approval granted.
 * The run uses a copy that `n8n execute` can start: its audit-log trigger is replaced by a
 * Manual Trigger and a Set node giving one "Schema change detected" entry, and its "Wait for
 * approval" node is disabled (a disabled node passes its items on). It must hash exactly the
 * enabled, not yet hashed columns whose names look like personal data, one request each.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { SEED } from '../../emulator/seed';
import type { EmulatorControl } from './emulator';
import type { N8n } from './n8n';
import type { Check } from './steps';
import { WORKFLOWS_DIR } from './workflows';

export const GOVERNANCE_EXAMPLE = 'governance.json';
const APPROVAL_NODE = 'Wait for approval';
/** The copy's id (n8n 1.x keeps no static data for ids over 16 characters). */
const APPROVED_COPY_ID = 'dimGovernanceOk';

interface WorkflowNode {
	id: string;
	name: string;
	type: string;
	typeVersion: number;
	position: [number, number];
	parameters: Record<string, unknown>;
	disabled?: boolean;
}

interface WorkflowFile {
	id: string;
	name: string;
	nodes: WorkflowNode[];
	connections: Record<string, unknown>;
}

/** Writes, into `folder`, the example with its approval step disabled (granted). */
export function writeApprovedGovernanceCopy(folder: string): void {
	const workflow = JSON.parse(
		readFileSync(join(WORKFLOWS_DIR, GOVERNANCE_EXAMPLE), 'utf8'),
	) as WorkflowFile;
	const approval = workflow.nodes.find(({ name }) => name === APPROVAL_NODE);
	assert.ok(approval, `${GOVERNANCE_EXAMPLE} has no node "${APPROVAL_NODE}"`);
	approval.disabled = true;
	const trigger = workflow.nodes.find(({ type }) =>
		type.endsWith('.dataIntegrationManagementTrigger'),
	);
	assert.ok(trigger, `${GOVERNANCE_EXAMPLE} has no audit-log trigger`);
	const manual: WorkflowNode = {
		id: 'e2e-manual-trigger',
		name: 'Manual trigger',
		type: 'n8n-nodes-base.manualTrigger',
		typeVersion: 1,
		position: trigger.position,
		parameters: {},
	};
	const entry: WorkflowNode = {
		id: 'e2e-schema-change',
		name: trigger.name,
		type: 'n8n-nodes-base.set',
		typeVersion: 3.4,
		position: trigger.position,
		parameters: {
			mode: 'raw',
			jsonOutput: JSON.stringify({ id: 'e2e-1', event: 'Schema change detected' }),
			options: {},
		},
	};
	workflow.nodes = [manual, entry, ...workflow.nodes.filter((node) => node !== trigger)];
	workflow.connections[manual.name] = { main: [[{ node: entry.name, type: 'main', index: 0 }]] };
	mkdirSync(folder, { recursive: true });
	writeFileSync(
		join(folder, 'governance-approved.json'),
		JSON.stringify({ ...workflow, id: APPROVED_COPY_ID, name: `${workflow.name} (approved)` }),
	);
}

export async function checkGovernance(
	{ n8n, emulator }: { n8n: N8n; emulator: EmulatorControl },
	check: Check,
): Promise<void> {
	await emulator.reset();
	const run = await n8n.execute(APPROVED_COPY_ID);
	assert.equal(run.status, 'success', run.data.resultData.error?.message);
	check(
		`n8n execute --id=${APPROVED_COPY_ID} (the example, "${APPROVAL_NODE}" granted) → ${run.status}`,
	);

	const integration = SEED.integrations.ordersToSnowflake;
	const requests = (await emulator.requests()).map(({ method, path, body }) => ({
		method,
		path,
		body,
	}));
	// In the seed, public.customers.full_name is the one enabled, unhashed personal-data column
	// (email and phone are hashed already; internal_notes is disabled).
	assert.deepEqual(requests, [
		{ method: 'GET', path: `/integrations/${integration}/schemas`, body: undefined },
		{
			method: 'PATCH',
			path: `/integrations/${integration}/schemas`,
			body: {
				schemas: {
					[SEED.schema]: { tables: { [SEED.table]: { columns: { full_name: { hashed: true } } } } },
				},
			},
		},
	]);
	check(
		`the service received GET …/schemas, then one PATCH hashing ${SEED.schema}.${SEED.table}.full_name (email and phone were hashed already, internal_notes is disabled, no other column name looks like personal data)`,
	);
}
