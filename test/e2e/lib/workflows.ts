/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * The sample workflows under test/e2e/workflows, which `npm run dev` imports for people to try
 * and `npm run test:e2e` runs, and the credential they all use.
 *
 * Each action workflow starts from a Manual Trigger (what `n8n execute` and the editor's
 * "Execute workflow" run) and from a Webhook, which is how the queue-mode run reaches it: once
 * the workflow is published, a POST to the webhook makes the main instance enqueue an execution
 * for a worker.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { REPO_ROOT } from './n8n';

export const WORKFLOWS_DIR = join(REPO_ROOT, 'test/e2e/workflows');

/** The credential every sample workflow names (id and name must match the workflow files). */
export const SAMPLE_CREDENTIAL = {
	id: 'dimEmulatorCredential',
	name: 'Data Integration Management (emulator)',
	type: 'dataIntegrationManagementApi',
} as const;

export interface SampleWorkflow {
	file: string;
	id: string;
	name: string;
	/** Path under /webhook/ of its Webhook trigger, if it has one. */
	webhookPath?: string;
	/** Name of its audit-log trigger node, if it starts from one. */
	triggerNode?: string;
	/** "resource: operation" of each action node. */
	operations: string[];
	/** The action node that runs last (it connects to nothing): a webhook call answers with its output. */
	lastNode?: string;
}

interface WorkflowFile {
	id: string;
	name: string;
	nodes: Array<{
		name: string;
		type: string;
		parameters: { path?: string; resource?: string; operation?: string };
	}>;
	/** Keyed by the name of the node the connections start from. */
	connections: Record<string, unknown>;
}

export function loadSampleWorkflows(): SampleWorkflow[] {
	return readdirSync(WORKFLOWS_DIR)
		.filter((file) => file.endsWith('.json'))
		.sort()
		.map((file) => {
			const workflow = JSON.parse(readFileSync(join(WORKFLOWS_DIR, file), 'utf8')) as WorkflowFile;
			const webhook = workflow.nodes.find((node) => node.type === 'n8n-nodes-base.webhook');
			const actions = workflow.nodes.filter((node) =>
				node.type.endsWith('.dataIntegrationManagement'),
			);
			return {
				file,
				id: workflow.id,
				name: workflow.name,
				webhookPath: webhook?.parameters.path,
				triggerNode: workflow.nodes.find((node) =>
					node.type.endsWith('.dataIntegrationManagementTrigger'),
				)?.name,
				operations: actions.map(
					({ parameters }) => `${parameters.resource}: ${parameters.operation}`,
				),
				lastNode: actions.find(({ name }) => !(name in workflow.connections))?.name,
			};
		});
}

/** Writes the file `n8n import:credentials` reads: the sample credential, pointing at the emulator. */
export function writeCredentialFile(
	file: string,
	emulator: { baseUrl: string; apiKey: string },
): void {
	const credential = {
		...SAMPLE_CREDENTIAL,
		data: { apiKey: emulator.apiKey, baseUrl: emulator.baseUrl },
	};
	writeFileSync(file, JSON.stringify([credential], null, 2));
}
