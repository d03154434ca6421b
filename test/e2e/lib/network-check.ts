/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * The service where companies run it, in a real n8n (E2E_ONLY=network; network-setup.ts makes
 * what it runs on, network-guards.ts checks what refuses a request):
 * - over HTTPS with a self-signed certificate made by the run: the credential's Test fails with a
 *   clear message while Ignore SSL Issues is off; with it on, the Test, an action and the
 *   trigger (published, polled by n8n's scheduler) work;
 * - behind a forward proxy named by HTTP_PROXY / HTTPS_PROXY: the requests go through it, an
 *   https:// service through a CONNECT tunnel (the proxy sees no key), an http:// one forwarded
 *   whole (the key in its header only, never in a URL); n8n 1.x drops Ignore SSL Issues in the
 *   tunnel, and NODE_EXTRA_CA_CERTS makes it work in both.
 */
import assert from 'node:assert/strict';

import { SEED } from '../../emulator/seed';
import { startForwardProxy, type ProxiedRequest } from '../../helpers/network';
import {
	assertNoKey,
	CREDENTIALS,
	firstItem,
	TRIGGER_NODE,
	WORKFLOWS,
	type NetworkContext,
	type NetworkSetup,
} from './network-setup';
import type { ExecutionRun } from './n8n';
import { waitFor } from './processes';
import type { Check } from './steps';
import { emittedCounts, unpublishAndSettle } from './trigger-runs';
import { SAMPLE_CREDENTIAL } from './workflows';

/** The credential Test, the action and the trigger over HTTPS with a self-signed certificate. */
export async function checkHttps(
	context: NetworkContext,
	setup: NetworkSetup,
	check: Check,
): Promise<void> {
	const { editor, n8n, emulator } = context;
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
	await publishTriggerOverHttps(context, setup, check);

	const run = await n8n.execute(WORKFLOWS.https);
	const runData = run.data.resultData.runData;
	const strict = firstItem(runData, 'Certificate checked');
	assert.equal(
		strict.error,
		"The service's certificate could not be verified (DEPTH_ZERO_SELF_SIGNED_CERT)",
	);
	assert.match(String(strict.description), /Ignore SSL Issues.*NODE_EXTRA_CA_CERTS/);
	assertNoKey(emulator.apiKey, 'the run', run);
	check(`n8n execute: Integration → Get, Ignore SSL Issues off → "${String(strict.error)}"`);
	const insecure = firstItem(runData, 'Ignore SSL Issues');
	assert.equal(insecure.id, SEED.integrations.ordersToSnowflake, JSON.stringify(insecure));
	check(`… Ignore SSL Issues on → the integration ${String(insecure.id)}`);
}

/**
 * Publishes the trigger on the Ignore SSL Issues credential, waits for its first poll (over
 * HTTPS) to keep its cursor, then adds the entry its next poll must emit.
 */
async function publishTriggerOverHttps(
	{ api, main, emulator }: NetworkContext,
	setup: NetworkSetup,
	check: Check,
): Promise<void> {
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
		await unpublishAndSettle(api, WORKFLOWS.trigger, [main]);
	}
	check(
		`a scheduled poll over HTTPS emitted entry ${setup.triggerEntry} once; unpublished, none of its executions still running`,
	);
}

/** `n8n execute` through the proxy with NODE_EXTRA_CA_CERTS naming the run's certificate. */
async function runTrustedThroughProxy(
	{ n8n }: NetworkContext,
	setup: NetworkSetup,
	proxies: NodeJS.ProcessEnv,
	check: Check,
): Promise<ExecutionRun> {
	const trusted = await n8n.execute(WORKFLOWS.proxyTrusted, {
		...proxies,
		NODE_EXTRA_CA_CERTS: setup.caFile,
	});
	const overTrusted = firstItem(trusted.data.resultData.runData, 'Over HTTPS, CA trusted');
	assert.equal(overTrusted.id, SEED.integrations.ordersToSnowflake, JSON.stringify(overTrusted));
	check(
		'n8n execute with the proxy and NODE_EXTRA_CA_CERTS naming the certificate: Ignore SSL Issues off, the https:// node answered',
	);
	return trusted;
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

		const trusted = await runTrustedThroughProxy(context, setup, proxies, check);
		assert.equal(tunnels().length, 2, JSON.stringify(proxy.seen));
		check('… through a second CONNECT tunnel');

		assertKeyOnlyInHeader(emulator.apiKey, proxy.seen, [run, trusted], check);
	} finally {
		await proxy.close();
	}
}

/** Where the key went: only in the header of the plain http:// request, nowhere else. */
function assertKeyOnlyInHeader(
	apiKey: string,
	seen: ProxiedRequest[],
	runs: ExecutionRun[],
	check: Check,
): void {
	assert.ok(seen.every((one) => !(one.kind === 'plain' ? one.url : one.target).includes(apiKey)));
	assertNoKey(
		apiKey,
		'the CONNECT requests',
		seen.filter(({ kind }) => kind === 'CONNECT'),
	);
	assert.ok(seen.some((one) => one.kind === 'plain' && one.headers['x-api-key'] === apiKey));
	assertNoKey(apiKey, 'the runs', runs);
	check(
		'the key: in no URL the proxy saw, nowhere in the CONNECT requests, in the x-api-key header of the plain http:// request (which a proxy forwards as it is), in nothing n8n returned',
	);
}
