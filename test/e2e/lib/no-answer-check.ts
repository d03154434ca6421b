/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * A service that does not answer, in every n8n the package supports (E2E_ONLY=failures): the
 * action node run with `n8n execute` against a credential whose Base URL is a loopback port
 * nothing listens on. The node's words for it name the network code, which the transport reads
 * from the error n8n's HTTP helper throws: this proves it still finds the code there in the n8n
 * under test (1.x and 2.x wrap the request's error differently).
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';

import type { N8n } from './n8n';
import { firstItem, writeActionWorkflow } from './network-setup';
import { isPortInUse } from './ports';
import type { Check } from './steps';

const WORKFLOW_ID = 'dimNoAnswer';
const NODE_NAME = 'Service on a closed port';
const CREDENTIAL = { id: 'dimNoAnswer', name: 'Service on a closed port' };

/** The credential, pointing at `port` on loopback, for the run's credential file. */
export function noAnswerCredential(port: number) {
	return {
		...CREDENTIAL,
		emulator: {
			baseUrl: `http://127.0.0.1:${port}/v1`,
			apiKey: `e2e-${randomBytes(8).toString('hex')}`,
		},
	};
}

/** A Manual Trigger, then Integration → Get on that credential (its error goes on as an item). */
export function writeNoAnswerWorkflow(folder: string): void {
	writeActionWorkflow(folder, WORKFLOW_ID, [{ name: NODE_NAME, credential: CREDENTIAL }]);
}

/**
 * What the user reads: the node's words for the code the transport read, the code in the
 * description. n8n's NodeApiError (1.x and 2.x) puts its own words in place of a message naming a
 * network code it knows ("The service refused the connection - perhaps it is offline").
 */
const NODE_WORDS = 'The service refused the connection';

export async function checkNoAnswer(n8n: N8n, port: number, check: Check): Promise<void> {
	assert.equal(await isPortInUse(port), false, `something listens on 127.0.0.1:${port}`);
	const run = await n8n.execute(WORKFLOW_ID);
	const item = firstItem(run.data.resultData.runData, NODE_NAME);
	const seen = `the node's output: ${JSON.stringify(item)}`;
	assert.equal(item.error, NODE_WORDS, seen);
	assert.match(String(item.description), /^The service could not be reached .*ECONNREFUSED/, seen);
	check(
		`n8n ${n8n.runtime.version}: n8n execute --id=${WORKFLOW_ID}, Base URL http://127.0.0.1:${port}/v1 (nothing listens) → "${String(item.error)}" (the node's words, not n8n's for ECONNREFUSED), "${String(item.description)}"`,
	);
}
