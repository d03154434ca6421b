/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * What refuses a request, in a real n8n (E2E_ONLY=network, with network-check.ts):
 * - a read-only credential (Allow Changes off) under the MCP Server Trigger: a write tool
 *   returns the refusal to the client, and the service receives no write;
 * - n8n 2.x's SSRF protection: the service on a loopback address is blocked, with an error
 *   naming the settings, and works once N8N_SSRF_ALLOWED_IP_RANGES allows it;
 * - a Base URL that redirects to another origin: the credential's Test and a workflow's read and
 *   write fail saying so, and the other origin receives nothing (no key, no body).
 */
import assert from 'node:assert/strict';

// The SDK publishes its modules through a wildcard "exports" map, which tsc and tsx follow and
// the lint's import resolver does not.
/* eslint-disable import-x/no-unresolved */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
/* eslint-enable import-x/no-unresolved */

import { SEED } from '../../emulator/seed';
import { mcpUrl } from './ai-check';
import { resultText, type ToolResult } from './ai-examples';
import {
	assertNoKey,
	firstItem,
	HTTP_REQUEST_NODES,
	MCP_PATH,
	REDIRECTED_NODES,
	WORKFLOWS,
	type NetworkContext,
	type NetworkSetup,
} from './network-setup';
import type { Check } from './steps';
import { API_KEY_HEADER } from '../../../credentials/DataIntegrationManagementApi.credentials';
import { SAMPLE_CREDENTIAL } from './workflows';

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
		// Words for the model: it cannot change data with this credential, must not retry, asks the user.
		assert.match(
			resultText(write),
			/This tool cannot change data: its credential has Allow Changes off, so nothing was sent\. Do not retry .*tell the user/,
		);
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
		/N8N_SSRF_ALLOWED_HOSTNAMES \(where it is a name, not an address\), or a range holding 127\.0\.0\.1 to N8N_SSRF_ALLOWED_IP_RANGES/,
	);
	// A trigger another step published may poll this emulator meanwhile: only what the workflow
	// sends counts (it reads an integration).
	const sent = (await emulator.control.requests()).filter(({ path }) => path !== '/audit-logs');
	assert.deepEqual(sent, []);
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

/** n8n's SSRF protection (N8N_SSRF_PROTECTION_ENABLED) is checked from n8n 2.41 on; earlier 2.x are not assumed to have it. */
export function hasSsrfProtection(version: string): boolean {
	const [major, minor] = version.split('.').map(Number);
	return major > 2 || (major === 2 && minor >= 41);
}

/** What a redirect's Location carries in its query, which no error may show. */
const REDIRECT_QUERY = 'token=e2e-redirect-secret';

/** The credential's Test, its Base URL redirecting (to `location`), then without /v1. */
async function testCredentialRedirected(
	context: NetworkContext,
	location: string,
	check: Check,
): Promise<void> {
	const { editor, n8n, emulator } = context;
	const test = (baseUrl: string) =>
		editor.testCredential({ ...SAMPLE_CREDENTIAL, data: { apiKey: emulator.apiKey, baseUrl } });
	await emulator.control.injectFault({ kind: 'redirect', status: 308, location, path: '/users' });
	const tested = await test(emulator.baseUrl);
	const unversioned = await test(new URL(emulator.baseUrl).origin);
	// n8n 2.x's tester gives the credential's rules; n8n 1.x's error loses its cause (the answer),
	// so the rules go unread and n8n's own words show.
	const [redirected, notFound] =
		n8n.runtime.major >= 2
			? [
					/^The Base URL redirects to another address, .* ending in \/v1/,
					/^Nothing answers at this Base URL: .* ending in \/v1/,
				]
			: [
					/^Request failed with status code 308$/,
					/^The resource you are requesting could not be found$/,
				];
	assert.equal(tested.status, 'Error');
	assert.match(tested.message, redirected);
	assert.equal(unversioned.status, 'Error');
	assert.match(unversioned.message, notFound);
	check(
		`credential Test, the Base URL redirecting elsewhere → "${tested.message}"; without /v1 → "${unversioned.message}"`,
	);
}

/**
 * The service at the Base URL redirects (the emulator's 'redirect' fault) the same path to another
 * origin: the credential's Test, then a workflow's read (308) and write (307), refuse to follow.
 */
export async function checkRedirects(
	context: NetworkContext,
	{ elsewhere }: NetworkSetup,
	check: Check,
): Promise<void> {
	const { n8n, emulator } = context;
	const location = `${elsewhere.origin}{path}?${REDIRECT_QUERY}`;
	await emulator.control.clearRequests();
	elsewhere.arrivals.length = 0;
	await testCredentialRedirected(context, location, check);

	await emulator.control.injectFault({ kind: 'redirect', status: 308, location, path: '/users' });
	await emulator.control.injectFault({ kind: 'redirect', status: 307, location, path: '/tags' });
	const run = await n8n.execute(WORKFLOWS.redirect);
	const runData = run.data.resultData.runData;
	for (const [node, path] of [
		[REDIRECTED_NODES.read, '/users'],
		[REDIRECTED_NODES.write, '/tags'],
	]) {
		const item = firstItem(runData, node);
		assert.equal(
			item.error,
			`The service at the Base URL redirected the request to ${elsewhere.origin}/v1${path}, and the node follows no redirect`,
		);
		assert.match(
			String(item.description),
			new RegExp(`set the Base URL in the credential to ${elsewhere.origin}/v1\\.`),
		);
	}
	assert.ok(!JSON.stringify(run).includes(REDIRECT_QUERY), 'the run shows the redirect query');
	assertNoKey(emulator.apiKey, 'the run', run);
	assert.deepEqual(elsewhere.arrivals, []);
	// A trigger another step published may poll meanwhile: only what this part sent counts.
	const sent = (await emulator.control.requests())
		.filter(({ path }) => path !== '/audit-logs')
		.map(({ method, path }) => `${method} ${path}`);
	assert.deepEqual(sent, ['GET /users', 'GET /users', 'POST /tags']);
	check(
		`n8n execute: User → Get Many (308) and Tag → Create (307) → "${String(firstItem(runData, REDIRECTED_NODES.read).error)}"; ${elsewhere.origin} received nothing; the service received ${sent.join(', ')}`,
	);
	await checkHttpRequestNodes(context, elsewhere, location, check);
}

/**
 * n8n's HTTP Request node with this credential: a request the service redirects elsewhere (308)
 * is not followed with the key, and a URL of another origin goes without it.
 */
async function checkHttpRequestNodes(
	{ n8n, emulator }: NetworkContext,
	elsewhere: NetworkSetup['elsewhere'],
	location: string,
	check: Check,
): Promise<void> {
	elsewhere.arrivals.length = 0;
	await emulator.control.injectFault({ kind: 'redirect', status: 308, location, path: '/users' });
	const run = await n8n.execute(WORKFLOWS.httpRequest);
	const redirected = firstItem(run.data.resultData.runData, HTTP_REQUEST_NODES.redirected);
	assert.ok(redirected.error, `the redirected request did not fail: ${JSON.stringify(redirected)}`);
	assertNoKey(emulator.apiKey, 'the run', run);
	// Only the URL given elsewhere arrived there, without the key: the redirect was not followed.
	assert.deepEqual(
		elsewhere.arrivals.map(({ url, headers }) => [url, headers[API_KEY_HEADER]]),
		[['/v1/users', undefined]],
	);
	check(
		`n8n execute: HTTP Request node, the service redirecting (308) → ${JSON.stringify(redirected.error).slice(0, 160)}, not followed; a URL at ${elsewhere.origin} → sent without ${API_KEY_HEADER}`,
	);
}
