/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * What the network checks (network-check.ts, network-guards.ts) run on: the HTTPS front with its
 * certificate, another origin a redirect points to, and the credentials and workflows they
 * import into n8n.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { SEED } from '../../emulator/seed';
import {
	makeCertificate,
	startHttpsFront,
	startRecorder,
	type HttpsFront,
	type Recorder,
} from '../../helpers/network';
import { MCP_EXAMPLE, readExample } from './ai-examples';
import type { RunningEmulator } from './emulator';
import { inARow, writeHttpRequestNodes } from './http-request-check';
import type { N8n, RunData } from './n8n';
import type { Service } from './processes';
import type { EditorSession, PublicApi } from './rest';
import { writeTriggerWorkflow } from './trigger-runs';
import { SAMPLE_CREDENTIAL } from './workflows';

const ACTION_TYPE = 'n8n-nodes-data-integration-management.dataIntegrationManagement';

/** The credentials of this part, each of the service's type. */
export const CREDENTIALS = {
	strict: { id: 'dimNetStrict', name: 'Service over HTTPS' },
	insecure: { id: 'dimNetInsecure', name: 'Service over HTTPS, Ignore SSL Issues' },
	readOnly: { id: 'dimNetReadOnly', name: 'Service, read-only' },
};

/** The workflows of this part (ids of at most 16 characters, see e2e.ts). */
export const WORKFLOWS = {
	https: 'dimNetHttps',
	proxy: 'dimNetProxy',
	proxyTrusted: 'dimNetProxyCa',
	ssrf: 'dimNetSsrf',
	trigger: 'dimNetTrigger',
	mcp: 'dimNetMcp',
	redirect: 'dimNetRedirect',
	httpRequest: 'dimNetHttpRequest',
};
/** The HTTP Request nodes on the credential: one redirected by the service, one sent elsewhere. */
export const HTTP_REQUEST_NODES = {
	redirected: 'HTTP Request, redirected',
	elsewhere: 'HTTP Request, elsewhere',
};
/** The nodes of the redirect workflow: a read and a write, on the emulator's credential. */
export const REDIRECTED_NODES = { read: 'Read, redirected', write: 'Write, redirected' };
export const TRIGGER_NODE = 'Audit log over HTTPS';
export const MCP_PATH = 'dim-read-only';

type Credential = { id: string; name: string };

export interface NetworkContext {
	n8n: N8n;
	editor: EditorSession;
	api: PublicApi;
	main: Service;
	emulator: RunningEmulator;
	mcpToken: string;
}

/** What the part starts before n8n: the HTTPS front, the other origin; and what it imports. */
export interface NetworkSetup {
	https: HttpsFront;
	/** Another origin, where the redirects point: it must receive nothing. */
	elsewhere: Recorder;
	/** The front's certificate (PEM): its own authority, for NODE_EXTRA_CA_CERTS. */
	caFile: string;
	/** The audit entry added once the trigger is live, which it must emit. */
	triggerEntry?: string;
}

/** Starts the HTTPS front and writes this part's credentials and workflows into `runDir`. */
export async function prepareNetwork(
	runDir: string,
	emulator: RunningEmulator,
): Promise<{ setup: NetworkSetup; credentialFile: string; workflowDir: string }> {
	const certificate = makeCertificate();
	const https = await startHttpsFront(new URL(emulator.baseUrl).origin, certificate);
	const elsewhere = await startRecorder();
	const caFile = join(runDir, 'network-ca.pem');
	writeFileSync(caFile, certificate.cert);
	const httpsBaseUrl = `${https.origin}/v1`;
	const { apiKey, baseUrl } = emulator;
	const credentialFile = join(runDir, 'network-credentials.json');
	const data = {
		strict: { apiKey, baseUrl: httpsBaseUrl },
		insecure: { apiKey, baseUrl: httpsBaseUrl, ignoreSSLIssues: true },
		readOnly: { apiKey, baseUrl, allowChanges: false },
	};
	writeFileSync(
		credentialFile,
		JSON.stringify(
			Object.entries(CREDENTIALS).map(([key, credential]) => ({
				...credential,
				type: SAMPLE_CREDENTIAL.type,
				data: data[key as keyof typeof data],
			})),
		),
	);

	const workflowDir = join(runDir, 'network-workflows');
	mkdirSync(workflowDir);
	const write = (id: string, nodes: ActionNode[]) => writeActionWorkflow(workflowDir, id, nodes);
	write(WORKFLOWS.https, [
		{ name: 'Certificate checked', credential: CREDENTIALS.strict },
		{ name: 'Ignore SSL Issues', credential: CREDENTIALS.insecure },
	]);
	write(WORKFLOWS.proxy, [
		{ name: 'Over HTTP', credential: SAMPLE_CREDENTIAL },
		{ name: 'Over HTTPS', credential: CREDENTIALS.insecure },
	]);
	write(WORKFLOWS.proxyTrusted, [
		{ name: 'Over HTTPS, CA trusted', credential: CREDENTIALS.strict },
	]);
	write(WORKFLOWS.ssrf, [{ name: 'On loopback', credential: SAMPLE_CREDENTIAL }]);
	writeTriggerWorkflow(workflowDir, {
		id: WORKFLOWS.trigger,
		name: 'Audit log trigger over HTTPS',
		nodeName: TRIGGER_NODE,
		parameters: { pollTimes: { item: [{ mode: 'everyMinute' }] }, startFrom: 'now' },
		credential: CREDENTIALS.insecure,
	});
	writeReadOnlyMcpWorkflow(workflowDir);
	writeRedirectWorkflows(workflowDir, baseUrl, elsewhere.origin);
	return { setup: { https, elsewhere, caFile }, credentialFile, workflowDir };
}

/** An action node of a network workflow: Integration → Get unless `parameters` say otherwise. */
type ActionNode = { name: string; credential: Credential; parameters?: Record<string, unknown> };

/**
 * A Manual Trigger, then one action node per entry, each on its credential; every node goes on
 * after an error (its output then holds the error), so one run shows them all.
 */
export function writeActionWorkflow(folder: string, id: string, nodes: ActionNode[]): void {
	const names = ['Run', ...nodes.map(({ name }) => name)];
	const workflow = {
		id,
		name: `Network: ${nodes.map(({ name }) => name).join(', ')}`,
		nodes: [
			{
				id: `${id}-start`,
				name: 'Run',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			...nodes.map(({ name, credential, parameters }, index) => ({
				id: `${id}-${index}`,
				name,
				type: ACTION_TYPE,
				typeVersion: 1,
				position: [200 * (index + 1), 0],
				onError: 'continueRegularOutput',
				parameters: parameters ?? {
					resource: 'integration',
					operation: 'get',
					integrationId: SEED.integrations.ordersToSnowflake,
				},
				credentials: { [SAMPLE_CREDENTIAL.type]: credential },
			})),
		],
		connections: inARow(names),
		settings: { executionOrder: 'v1' },
		active: false,
		pinData: {},
	};
	writeFileSync(join(folder, `${id}.json`), JSON.stringify(workflow, null, '\t'));
}

/**
 * A read and a write on the emulator's credential, for the redirects its Base URL answers; and
 * n8n's HTTP Request node on it, at the Base URL (`baseUrl`) and at another origin (`elsewhere`).
 */
function writeRedirectWorkflows(folder: string, baseUrl: string, elsewhere: string): void {
	writeHttpRequestNodes(
		join(folder, `${WORKFLOWS.httpRequest}.json`),
		WORKFLOWS.httpRequest,
		[
			{ name: HTTP_REQUEST_NODES.redirected, url: `${baseUrl}/users` },
			{ name: HTTP_REQUEST_NODES.elsewhere, url: `${elsewhere}/v1/users` },
		],
		true,
	);
	writeActionWorkflow(folder, WORKFLOWS.redirect, [
		{
			name: REDIRECTED_NODES.read,
			credential: SAMPLE_CREDENTIAL,
			parameters: { resource: 'user', operation: 'getAll', returnAll: false, limit: 5 },
		},
		{
			name: REDIRECTED_NODES.write,
			credential: SAMPLE_CREDENTIAL,
			parameters: {
				resource: 'tag',
				operation: 'create',
				name: 'Redirected',
				owner: SEED.users.maya,
			},
		},
	]);
}

/** The MCP server example, every tool on the read-only credential, at a path of its own. */
function writeReadOnlyMcpWorkflow(folder: string): void {
	const example = readExample(MCP_EXAMPLE) as unknown as {
		nodes: Array<{ type: string; parameters: Record<string, unknown>; credentials?: object }>;
	} & Record<string, unknown>;
	const nodes = example.nodes.map((node) => {
		if (node.type.endsWith('.mcpTrigger'))
			return { ...node, parameters: { ...node.parameters, path: MCP_PATH } };
		if (node.type.endsWith('.dataIntegrationManagementTool'))
			return { ...node, credentials: { [SAMPLE_CREDENTIAL.type]: CREDENTIALS.readOnly } };
		return node;
	});
	const workflow = { ...example, id: WORKFLOWS.mcp, name: 'MCP server, read-only', nodes };
	writeFileSync(join(folder, `${WORKFLOWS.mcp}.json`), JSON.stringify(workflow, null, '\t'));
}

/** The node's first output item, or its error (an error item under "On Error: Continue"). */
export function firstItem(runData: RunData, node: string): Record<string, unknown> {
	const [task] = runData[node] ?? [];
	assert.ok(task, `node "${node}" did not run`);
	if (task.error) return { error: task.error.message };
	return task.data?.main[0]?.[0]?.json ?? {};
}

export function assertNoKey(apiKey: string, what: string, value: unknown): void {
	assert.ok(!JSON.stringify(value).includes(apiKey), `the API key appears in ${what}`);
}
