/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * The README's route to endpoints the node does not cover: n8n's own HTTP Request node with
 * Authentication "Predefined Credential Type" and this package's credential, which adds the
 * API key as the credential declares. The URL has to name the service (the credential's base URL
 * is not visible to expressions), so this workflow is written for the run's emulator rather than
 * kept in examples/.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';

import { API_KEY_HEADER } from '../../../credentials/DataIntegrationManagementApi.credentials';
import { SEED } from '../../emulator/seed';
import { outputOf } from './action-checks';
import type { RunningEmulator } from './emulator';
import type { N8n } from './n8n';
import type { Check } from './steps';
import { SAMPLE_CREDENTIAL } from './workflows';

const WORKFLOW_ID = 'dimHttpRequest';
const NODE = 'HTTP Request with the credential';

/** Writes the workflow for `n8n import:workflow`: Manual Trigger → HTTP Request GET /users. */
export function writeHttpRequestWorkflow(file: string, baseUrl: string): void {
	writeHttpRequestNodes(file, WORKFLOW_ID, [{ name: NODE, url: `${baseUrl}/users` }]);
}

/** A workflow's connections that run the nodes `names` one after another. */
export const inARow = (names: string[]) =>
	Object.fromEntries(
		names
			.slice(0, -1)
			.map((name, index) => [
				name,
				{ main: [[{ node: names[index + 1], type: 'main', index: 0 }]] },
			]),
	);

/**
 * Writes a workflow with `id`: a Manual Trigger, then HTTP Request nodes in a row, each a GET of
 * its `url` with this package's credential; with `goOn`, each goes on after an error.
 */
export function writeHttpRequestNodes(
	file: string,
	id: string,
	nodes: Array<{ name: string; url: string }>,
	goOn = false,
): void {
	const names = ['Start', ...nodes.map(({ name }) => name)];
	const workflow = {
		id,
		name: `HTTP Request node with the package's credential: ${nodes.map(({ name }) => name).join(', ')}`,
		nodes: [
			{
				id: `${id}-start`,
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			...nodes.map(({ name, url }, index) => ({
				id: `${id}-${index}`,
				name,
				type: 'n8n-nodes-base.httpRequest',
				typeVersion: 4.2,
				position: [260 * (index + 1), 0],
				...(goOn && { onError: 'continueRegularOutput' }),
				parameters: {
					method: 'GET',
					url,
					authentication: 'predefinedCredentialType',
					nodeCredentialType: SAMPLE_CREDENTIAL.type,
					options: {},
				},
				credentials: {
					[SAMPLE_CREDENTIAL.type]: { id: SAMPLE_CREDENTIAL.id, name: SAMPLE_CREDENTIAL.name },
				},
			})),
		],
		connections: inARow(names),
		settings: { executionOrder: 'v1' },
		active: false,
	};
	writeFileSync(file, JSON.stringify(workflow, null, 2));
}

/** Runs it with `n8n execute`: the service must see the key, and answer with every user. */
export async function checkHttpRequestWorkflow(
	n8n: N8n,
	emulator: RunningEmulator,
	check: Check,
): Promise<void> {
	await emulator.control.reset();
	const result = await n8n.execute(WORKFLOW_ID);
	assert.equal(result.status, 'success', result.data.resultData.error?.message);
	const [response] = outputOf(result.data.resultData.runData, NODE);
	const { items: users } = response.data as { items: Array<{ id: string }> };
	assert.deepEqual(
		users.map(({ id }) => id),
		Object.values(SEED.users),
	);
	check(`n8n execute --id=${WORKFLOW_ID}: GET /users answered with all ${users.length} users`);
	const requests = await emulator.control.requests();
	assert.deepEqual(
		requests.map(({ method, path }) => `${method} ${path}`),
		['GET /users'],
	);
	// The emulator redacts the key it logs; a request without one would have no header at all.
	assert.equal(requests[0].headers[API_KEY_HEADER], '[redacted]');
	check(`the request carried the credential's ${API_KEY_HEADER} header`);
}
