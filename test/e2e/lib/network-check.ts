/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * The service where companies run it, in a real n8n (E2E_ONLY=network):
 * - over HTTPS with a self-signed certificate made by the run: the credential's Test fails with a
 *   clear message while Ignore SSL Issues is off; with it on, the Test, an action and the
 *   trigger (published, polled by n8n's scheduler) work;
 * - behind a forward proxy named by HTTP_PROXY / HTTPS_PROXY: the requests go through it, an
 *   https:// service through a CONNECT tunnel (the proxy sees no key), an http:// one forwarded
 *   whole (the key in its header only, never in a URL);
 * - a read-only credential (Allow Changes off) under the MCP Server Trigger: a write tool
 *   returns the refusal to the client, and the service receives no write;
 * - n8n 2.x's SSRF protection: the service on a loopback address is blocked, with an error
 *   naming the settings, and works once N8N_SSRF_ALLOWED_IP_RANGES allows it.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

// The SDK publishes its modules through a wildcard "exports" map, which tsc and tsx follow and
// the lint's import resolver does not.
/* eslint-disable import-x/no-unresolved */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
/* eslint-enable import-x/no-unresolved */

import { SEED } from '../../emulator/seed';
import {
	makeCertificate,
	startForwardProxy,
	startHttpsFront,
	type HttpsFront,
} from '../../helpers/network';
import { MCP_EXAMPLE, mcpUrl, readExample, resultText, type ToolResult } from './ai-check';
import type { RunningEmulator } from './emulator';
import type { N8n, RunData } from './n8n';
import { waitFor, type Service } from './processes';
import type { EditorSession, PublicApi } from './rest';
import type { Check } from './steps';
import { emittedCounts, writeTriggerWorkflow } from './trigger-runs';
import { SAMPLE_CREDENTIAL } from './workflows';

const ACTION_TYPE = 'n8n-nodes-data-integration-management.dataIntegrationManagement';

/** The credentials of this part, each of the service's type. */
const CREDENTIALS = {
	strict: { id: 'dimNetStrict', name: 'Service over HTTPS' },
	insecure: { id: 'dimNetInsecure', name: 'Service over HTTPS, Ignore SSL Issues' },
	readOnly: { id: 'dimNetReadOnly', name: 'Service, read-only' },
};

/** The workflows of this part (ids of at most 16 characters, see e2e.ts). */
const WORKFLOWS = {
	https: 'dimNetHttps',
	proxy: 'dimNetProxy',
	proxyTrusted: 'dimNetProxyCa',
	ssrf: 'dimNetSsrf',
	trigger: 'dimNetTrigger',
	mcp: 'dimNetMcp',
};
const TRIGGER_NODE = 'Audit log over HTTPS';
const MCP_PATH = 'dim-read-only';

type Credential = { id: string; name: string };

export interface NetworkContext {
	n8n: N8n;
	editor: EditorSession;
	api: PublicApi;
	main: Service;
	emulator: RunningEmulator;
	mcpToken: string;
}

/** What the part starts before n8n: the HTTPS front; and what it imports. */
export interface NetworkSetup {
	https: HttpsFront;
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
	const write = (id: string, nodes: Array<{ name: string; credential: Credential }>) =>
		writeActionWorkflow(workflowDir, id, nodes);
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
	return { setup: { https, caFile }, credentialFile, workflowDir };
}

/**
 * A Manual Trigger, then one Integration → Get node per entry, each on its credential; every
 * node goes on after an error (its output then holds the error), so one run shows them all.
 */
function writeActionWorkflow(
	folder: string,
	id: string,
	nodes: Array<{ name: string; credential: Credential }>,
): void {
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
			...nodes.map(({ name, credential }, index) => ({
				id: `${id}-${index}`,
				name,
				type: ACTION_TYPE,
				typeVersion: 1,
				position: [200 * (index + 1), 0],
				onError: 'continueRegularOutput',
				parameters: {
					resource: 'integration',
					operation: 'get',
					integrationId: SEED.integrations.ordersToSnowflake,
				},
				credentials: { [SAMPLE_CREDENTIAL.type]: credential },
			})),
		],
		connections: Object.fromEntries(
			names
				.slice(0, -1)
				.map((name, index) => [
					name,
					{ main: [[{ node: names[index + 1], type: 'main', index: 0 }]] },
				]),
		),
		settings: { executionOrder: 'v1' },
		active: false,
		pinData: {},
	};
	writeFileSync(join(folder, `${id}.json`), JSON.stringify(workflow, null, '\t'));
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
function firstItem(runData: RunData, node: string): Record<string, unknown> {
	const [task] = runData[node] ?? [];
	assert.ok(task, `node "${node}" did not run`);
	if (task.error) return { error: task.error.message };
	return task.data?.main[0]?.[0]?.json ?? {};
}

function assertNoKey(apiKey: string, what: string, value: unknown): void {
	assert.ok(!JSON.stringify(value).includes(apiKey), `the API key appears in ${what}`);
}

/** The credential Test, the action and the trigger over HTTPS with a self-signed certificate. */
export async function checkHttps(
	context: NetworkContext,
	setup: NetworkSetup,
	check: Check,
): Promise<void> {
	const { editor, n8n, emulator, api, main } = context;
	const httpsBaseUrl = `${setup.https.origin}/v1`;
	const test = (id: string, name: string, ignoreSSLIssues: boolean) =>
		editor.testCredential({
			id,
			name,
			type: SAMPLE_CREDENTIAL.type,
			data: { apiKey: emulator.apiKey, baseUrl: httpsBaseUrl, ignoreSSLIssues },
		});
	const refused = await test(CREDENTIALS.strict.id, CREDENTIALS.strict.name, false);
	assert.equal(refused.status, 'Error');
	// n8n's tester words it (the declarative Test cannot): Node's code for an untrusted certificate.
	assert.match(refused.message, /SELF_SIGNED|CERT|certificate/i);
	assertNoKey(emulator.apiKey, 'the Test result', refused);
	check(`credential Test, Ignore SSL Issues off → Error: "${refused.message}"`);
	const accepted = await test(CREDENTIALS.insecure.id, CREDENTIALS.insecure.name, true);
	assert.equal(accepted.status, 'OK', accepted.message);
	check(`credential Test, Ignore SSL Issues on → ${accepted.status}: "${accepted.message}"`);

	// The trigger goes live first: its polls come while the other checks run.
	setup.https.requests.length = 0;
	const published = await api.publish(WORKFLOWS.trigger);
	assert.equal(published.active, true);
	await waitFor(
		"the trigger's first poll to keep its cursor",
		async () => {
			const { staticData } = await api.workflow(WORKFLOWS.trigger);
			return Object.values(staticData ?? {}).some((node) => node && 'auditLogCursor' in node)
				? true
				: undefined;
		},
		{ timeoutMs: 75_000, intervalMs: 1000, services: [main] },
	);
	assert.ok(setup.https.requests.some((line) => line.startsWith('GET /v1/audit-logs')));
	[setup.triggerEntry] = (
		await emulator.control.addAuditEntries([
			{
				event: 'tag.created',
				timestamp: new Date().toISOString(),
				actor: { type: 'user', email: 'maya.patel@northwind-data.example' },
			},
		])
	).map(({ id }) => id);
	check(
		`trigger on Ignore SSL Issues published: its first poll read GET /v1/audit-logs over HTTPS and kept its cursor; entry ${setup.triggerEntry} added for the next poll`,
	);

	const run = await n8n.execute(WORKFLOWS.https);
	const runData = run.data.resultData.runData;
	const strict = firstItem(runData, 'Certificate checked');
	assert.equal(
		strict.error,
		"The service's certificate could not be verified (DEPTH_ZERO_SELF_SIGNED_CERT)",
	);
	assert.match(String(strict.description), /NODE_EXTRA_CA_CERTS.*Ignore SSL Issues/);
	assertNoKey(emulator.apiKey, 'the run', run);
	check(`n8n execute: Integration → Get, Ignore SSL Issues off → "${String(strict.error)}"`);
	const insecure = firstItem(runData, 'Ignore SSL Issues');
	assert.equal(insecure.id, SEED.integrations.ordersToSnowflake, JSON.stringify(insecure));
	check(`… Ignore SSL Issues on → the integration ${String(insecure.id)}`);
}

/** Waits for the trigger over HTTPS to emit the entry added after its first poll. */
export async function checkHttpsTriggerEmitted(
	context: NetworkContext,
	setup: NetworkSetup,
	check: Check,
): Promise<void> {
	const { api, main } = context;
	assert.ok(setup.triggerEntry, 'no entry was added for the trigger');
	try {
		await waitFor(
			`the trigger over HTTPS to emit ${setup.triggerEntry}`,
			async () =>
				(await emittedCounts(api, WORKFLOWS.trigger, TRIGGER_NODE)).get(setup.triggerEntry!) === 1
					? true
					: undefined,
			{ timeoutMs: 75_000, intervalMs: 2000, services: [main] },
		);
	} finally {
		await api.unpublish(WORKFLOWS.trigger);
	}
	check(`a scheduled poll over HTTPS emitted entry ${setup.triggerEntry} once; unpublished`);
}

/** `n8n execute` with HTTP_PROXY and HTTPS_PROXY naming a forward proxy started here. */
export async function checkProxy(
	context: NetworkContext,
	setup: NetworkSetup,
	check: Check,
): Promise<void> {
	const { n8n, emulator } = context;
	const proxy = await startForwardProxy();
	const proxies = {
		HTTP_PROXY: proxy.origin,
		HTTPS_PROXY: proxy.origin,
		NO_PROXY: '',
		no_proxy: '',
	};
	const integration = `/v1/integrations/${SEED.integrations.ordersToSnowflake}`;
	const emulatorHost = new URL(emulator.baseUrl).host;
	const httpsHost = new URL(setup.https.origin).host;
	const plain = () =>
		proxy.seen.flatMap((seen) =>
			seen.kind === 'plain' && new URL(seen.url).host === emulatorHost ? [seen] : [],
		);
	const tunnels = () =>
		proxy.seen.filter((seen) => seen.kind === 'CONNECT' && seen.target === httpsHost);
	try {
		const run = await n8n.execute(WORKFLOWS.proxy, proxies);
		const runData = run.data.resultData.runData;
		const overHttp = firstItem(runData, 'Over HTTP');
		assert.equal(overHttp.id, SEED.integrations.ordersToSnowflake, JSON.stringify(overHttp));
		assert.deepEqual(
			plain().map(({ method, url }) => `${method} ${new URL(url).pathname}`),
			[`GET ${integration}`],
		);
		assert.equal(tunnels().length, 1, JSON.stringify(proxy.seen));
		check(
			`n8n execute with HTTP_PROXY and HTTPS_PROXY: the proxy forwarded GET ${integration} for the http:// credential, and opened one CONNECT tunnel to ${httpsHost} for the https:// one`,
		);
		// Through a tunnel, n8n 1.x's https-proxy-agent (7.0.6) replaces the agent's options, so the
		// credential's toggle never reaches the service's TLS; n8n 2.x passes it on.
		const overHttps = firstItem(runData, 'Over HTTPS');
		if (n8n.runtime.major >= 2) {
			assert.equal(overHttps.id, SEED.integrations.ordersToSnowflake, JSON.stringify(overHttps));
			check('… and Ignore SSL Issues applies through the tunnel: the https:// node answered');
		} else {
			assert.match(String(overHttps.error), /certificate could not be verified/);
			check(`… but n8n 1.x drops Ignore SSL Issues in the tunnel: "${String(overHttps.error)}"`);
		}

		const trusted = await n8n.execute(WORKFLOWS.proxyTrusted, {
			...proxies,
			NODE_EXTRA_CA_CERTS: setup.caFile,
		});
		const overTrusted = firstItem(trusted.data.resultData.runData, 'Over HTTPS, CA trusted');
		assert.equal(overTrusted.id, SEED.integrations.ordersToSnowflake, JSON.stringify(overTrusted));
		assert.equal(tunnels().length, 2, JSON.stringify(proxy.seen));
		check(
			'n8n execute with the proxy and NODE_EXTRA_CA_CERTS naming the certificate: Ignore SSL Issues off, the https:// node answered through a second CONNECT tunnel',
		);

		assert.ok(
			proxy.seen.every(
				(seen) => !(seen.kind === 'plain' ? seen.url : seen.target).includes(emulator.apiKey),
			),
		);
		assertNoKey(emulator.apiKey, 'the CONNECT requests', tunnels());
		assert.equal(plain()[0].headers['x-api-key'], emulator.apiKey);
		assertNoKey(emulator.apiKey, 'the runs', [run, trusted]);
		check(
			'the key: in no URL the proxy saw, nowhere in the CONNECT requests, in the x-api-key header of the plain http:// request (which a proxy forwards as it is), in nothing n8n returned',
		);
	} finally {
		await proxy.close();
	}
}

/** A write tool over a read-only credential, called by an MCP client. */
export async function checkReadOnlyMcp(context: NetworkContext, check: Check): Promise<void> {
	const { api, emulator, mcpToken } = context;
	await api.publish(WORKFLOWS.mcp);
	const client = new Client({
		name: 'n8n-nodes-data-integration-management-e2e',
		version: '1.0.0',
	});
	try {
		const url = await mcpUrl(context, MCP_PATH);
		await client.connect(
			new StreamableHTTPClientTransport(url, {
				requestInit: { headers: { authorization: `Bearer ${mcpToken}` } },
			}),
		);
		// Not a reset: the entry added for the trigger over HTTPS must stay.
		await emulator.control.clearRequests();
		const write = (await client.callTool({
			name: 'Create_tag',
			arguments: {
				name: 'Read-only check',
				ownerId: SEED.users.maya,
				description: 'Must not be created',
			},
		})) as ToolResult;
		assert.equal(write.isError, true, resultText(write));
		assert.match(resultText(write), /Allow Changes is off/);
		const read = (await client.callTool({
			name: 'Get_integration',
			arguments: { integrationId: SEED.integrations.ordersToSnowflake },
		})) as ToolResult;
		assert.ok(!read.isError, resultText(read));
		assert.match(resultText(read), new RegExp(SEED.integrations.ordersToSnowflake));
		const requests = (await emulator.control.requests()).map(
			({ method, path }) => `${method} ${path}`,
		);
		assert.deepEqual(requests, [`GET /integrations/${SEED.integrations.ordersToSnowflake}`]);
		assertNoKey(emulator.apiKey, 'the tool results', [write, read]);
		check(
			`MCP tools/call Create_tag over a read-only credential → tool error "${resultText(write).split('\n')[0]}"; Get_integration works; the service received only ${requests.join(', ')}`,
		);
	} finally {
		await client.close();
		await api.unpublish(WORKFLOWS.mcp);
	}
}

/** n8n 2.x's SSRF protection on: blocked while the address is not allowed, working once it is. */
export async function checkSsrf(context: NetworkContext, check: Check): Promise<void> {
	const { n8n, emulator } = context;
	const protection = { N8N_SSRF_PROTECTION_ENABLED: 'true' };
	await emulator.control.clearRequests();
	const blocked = firstItem(
		(await n8n.execute(WORKFLOWS.ssrf, protection)).data.resultData.runData,
		'On loopback',
	);
	assert.equal(
		blocked.error,
		'n8n blocked the request to 127.0.0.1: its SSRF protection does not allow this address',
	);
	assert.match(
		String(blocked.description),
		/N8N_SSRF_ALLOWED_HOSTNAMES, or its address range to N8N_SSRF_ALLOWED_IP_RANGES/,
	);
	assert.deepEqual(await emulator.control.requests(), []);
	check(`n8n execute, N8N_SSRF_PROTECTION_ENABLED=true → "${String(blocked.error)}", nothing sent`);

	const allowed = firstItem(
		(
			await n8n.execute(WORKFLOWS.ssrf, {
				...protection,
				N8N_SSRF_ALLOWED_IP_RANGES: '127.0.0.1/32',
			})
		).data.resultData.runData,
		'On loopback',
	);
	assert.equal(allowed.id, SEED.integrations.ordersToSnowflake, JSON.stringify(allowed));
	check('… with N8N_SSRF_ALLOWED_IP_RANGES=127.0.0.1/32 → the integration');
}
