/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * The example workflows under examples/, which users import ("Import from File" in the editor,
 * or `n8n import:workflow`), `npm run dev` imports for people to try and `npm run test:e2e`
 * runs, so they cannot rot; and the placeholder credential they all name.
 *
 * Each action workflow starts from a Manual Trigger (what `n8n execute` and the editor's
 * "Execute workflow" run) and from a Webhook, which is how the queue-mode run reaches it: once
 * the workflow is published, a POST to the webhook makes the main instance enqueue an execution
 * for a worker.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { REPO_ROOT } from './n8n';

export const WORKFLOWS_DIR = join(REPO_ROOT, 'examples');

/**
 * The placeholder credential every example names. A user picks their own credential in each node
 * after importing; the runs here import a credential with this id (pointing at the emulator), so
 * the files run unchanged. The name is the one n8n gives a user's first credential of this type.
 */
export const SAMPLE_CREDENTIAL = {
	id: 'dataIntegrationManagementCredential',
	name: 'Data Integration Management API account',
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
	/** "resource: operation" of each node used as an AI tool (the node's …Tool type). */
	toolOperations: string[];
	/** The action node that runs last (it connects to nothing): a webhook call answers with its output. */
	lastNode?: string;
	/** What its sticky notes say. */
	notes: string[];
	/** The credential each node that has one names, as `id "name"`. */
	credentials: string[];
}

interface WorkflowFile {
	id: string;
	name: string;
	nodes: Array<{
		name: string;
		type: string;
		parameters: { path?: string; resource?: string; operation?: string; content?: string };
		credentials?: Record<string, { id: string; name: string }>;
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
			const tools = workflow.nodes.filter((node) =>
				node.type.endsWith('.dataIntegrationManagementTool'),
			);
			const operationOf = ({ parameters }: WorkflowFile['nodes'][number]) =>
				`${parameters.resource}: ${parameters.operation}`;
			return {
				file,
				id: workflow.id,
				name: workflow.name,
				webhookPath: webhook?.parameters.path,
				triggerNode: workflow.nodes.find((node) =>
					node.type.endsWith('.dataIntegrationManagementTrigger'),
				)?.name,
				operations: actions.map(operationOf),
				toolOperations: tools.map(operationOf),
				lastNode: actions.find(({ name }) => !(name in workflow.connections))?.name,
				notes: workflow.nodes
					.filter((node) => node.type === 'n8n-nodes-base.stickyNote')
					.map(({ parameters }) => parameters.content ?? ''),
				credentials: workflow.nodes.flatMap(({ credentials = {} }) =>
					Object.values(credentials).map(({ id, name }) => `${id} "${name}"`),
				),
			};
		});
}

interface EmulatorAddress {
	baseUrl: string;
	apiKey: string;
}

/** One credential of the file `n8n import:credentials` reads. */
export interface CredentialToImport {
	id: string;
	name: string;
	type: string;
	data: Record<string, unknown>;
}

/**
 * The import file docs/installation.md gives users (its first json block under "The credential,
 * from a file or the environment"), as they copy it: the examples' credential with every field.
 */
export function documentedCredentialFile(): CredentialToImport[] {
	const docs = readFileSync(join(REPO_ROOT, 'docs/installation.md'), 'utf8');
	const section = docs
		.split(/^## /m)
		.find((part) => part.startsWith('The credential, from a file'));
	const block = /^```json\n([\s\S]*?)^```$/m.exec(section ?? '');
	if (!block)
		throw new Error('docs/installation.md: no json block under "The credential, from a file…"');
	return JSON.parse(block[1]) as CredentialToImport[];
}

/**
 * Writes the file `n8n import:credentials` reads: the documented one (above), its credential
 * pointing at the emulator, and any `others` of the same type and fields, each pointing at its own.
 */
export function writeCredentialFile(
	file: string,
	emulator: EmulatorAddress,
	others: Array<{ id: string; name: string; emulator: EmulatorAddress }> = [],
): void {
	const [documented] = documentedCredentialFile();
	const { id, name, type } = documented;
	if (
		id !== SAMPLE_CREDENTIAL.id ||
		name !== SAMPLE_CREDENTIAL.name ||
		type !== SAMPLE_CREDENTIAL.type
	)
		throw new Error(
			`docs/installation.md's credential is not the examples' (${SAMPLE_CREDENTIAL.id})`,
		);
	const credentials = [{ id, name, emulator }, ...others].map((credential) => {
		const { apiKey, baseUrl } = credential.emulator;
		return {
			...documented,
			id: credential.id,
			name: credential.name,
			data: { ...documented.data, apiKey, baseUrl },
		};
	});
	writeFileSync(file, JSON.stringify(credentials, null, 2));
}

/** The example workflows, and which of them are actions and which starts from the trigger. */
export function examples() {
	const samples = loadSampleWorkflows();
	return {
		samples,
		actionSamples: samples.filter((sample) => !sample.triggerNode && sample.operations.length > 0),
		triggerSample: samples.find(
			(sample): sample is SampleWorkflow & { triggerNode: string } => !!sample.triggerNode,
		),
	};
}

export type Examples = ReturnType<typeof examples>;
