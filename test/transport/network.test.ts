/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * The service where companies run it, through the n8n-core these tests run (its HTTP client is
 * n8n's own): over HTTPS with a self-signed certificate, behind a forward proxy named by
 * HTTP_PROXY / HTTPS_PROXY (n8n's SSRF protection: ssrf.test.ts).
 */
import { problemsOf } from '../actions/error-walk';
import { SEED } from '../emulator';
import { useEmulator } from '../helpers/emulator';
import { callNodeMethod, pollTrigger, testCredential, type ApiCredentials } from '../helpers/n8n';
import {
	makeCertificate,
	startForwardProxy,
	startHttpsFront,
	type ForwardProxy,
	type RunningServer,
} from '../helpers/network';
import { getIntegration } from './get-integration';

const { emulator, credentials } = useEmulator();

let https: RunningServer;
beforeAll(async () => {
	https = await startHttpsFront(new URL(emulator().baseUrl).origin, makeCertificate());
});
afterAll(async () => await https.close());

/** The credential with its Base URL on the HTTPS front, Ignore SSL Issues as given. */
const overHttps = (ignoreSSLIssues?: boolean): ApiCredentials => ({
	...credentials(),
	baseUrl: `${https.origin}/v1`,
	ignoreSSLIssues,
});

describe('a service whose certificate n8n does not trust (self-signed)', () => {
	it.each([false, undefined])(
		'with Ignore SSL Issues %s: the Test and the action fail, saying so, and nothing arrives',
		async (ignoreSSLIssues) => {
			const test = await testCredential(overHttps(ignoreSSLIssues));
			// n8n's tester gives the network's code (the declarative Test cannot word it).
			expect(test).toEqual({ status: 'Error', message: 'DEPTH_ZERO_SELF_SIGNED_CERT' });

			const result = await getIntegration(overHttps(ignoreSSLIssues));
			expect(result.error?.message).toBe(
				"The service's certificate could not be verified (DEPTH_ZERO_SELF_SIGNED_CERT)",
			);
			expect(result.error?.description).toMatch(/Ignore SSL Issues.*NODE_EXTRA_CA_CERTS/);
			expect(problemsOf(result.error!.message, result.error?.description ?? undefined)).toEqual([]);
			expect(JSON.stringify(result.error)).not.toContain(emulator().apiKey);
			expect(emulator().requests).toEqual([]);
		},
	);

	it('an https:// Base URL to the plain http:// service: the action says so, and the trigger is held', async () => {
		const plain = { ...credentials(), baseUrl: emulator().baseUrl.replace('http:', 'https:') };
		const result = await getIntegration(plain);
		expect(result.error?.message).toBe(
			'The service could not start TLS with n8n, as the https:// Base URL asks: nothing was sent',
		);
		expect(result.error?.description).toMatch(
			/^If the service takes plain HTTP only, set the Base URL/,
		);
		expect(problemsOf(result.error!.message, result.error?.description ?? undefined)).toEqual([]);
		// n8n's durable scheduler holds a trigger whose failure someone must fix: not retried soon.
		await expect(pollTrigger({ credentials: plain, parameters: {} })).rejects.toMatchObject({
			message: expect.stringMatching(/could not start TLS/),
			failure: { cause: 'configuration-invalid' },
		});
		expect(emulator().requests).toEqual([]);
	});

	it('with Ignore SSL Issues on: the Test, an action, a picker and the trigger work', async () => {
		expect(await testCredential(overHttps(true))).toEqual({
			status: 'OK',
			message: 'Connection successful!',
		});

		const result = await getIntegration(overHttps(true));
		expect(result.error).toBeUndefined();
		expect(result.items[0].json.id).toBe(SEED.integrations.ordersToSnowflake);

		const users = await callNodeMethod<{ results: unknown[] }>({
			credentials: overHttps(true),
			method: 'searchUsers',
			parameters: { resource: 'tag', operation: 'create' },
		});
		expect(users.results.length).toBeGreaterThan(0);

		const poll = await pollTrigger({
			credentials: overHttps(true),
			parameters: {},
			mode: 'manual',
		});
		expect(poll.items?.length).toBeGreaterThan(0);

		const paths = emulator().requests.map(({ path }) => path);
		expect(paths).toEqual(expect.arrayContaining(['/users', '/integrations/int_4f8a2c71e9b0']));
		expect(paths.some((path) => path.startsWith('/audit-logs'))).toBe(true);
	});
});

describe('behind a forward proxy (HTTP_PROXY, HTTPS_PROXY)', () => {
	let proxy: ForwardProxy;
	const saved = { HTTP_PROXY: process.env.HTTP_PROXY, HTTPS_PROXY: process.env.HTTPS_PROXY };
	beforeEach(async () => {
		proxy = await startForwardProxy();
		process.env.HTTP_PROXY = proxy.origin;
		process.env.HTTPS_PROXY = proxy.origin;
	});
	afterEach(async () => {
		for (const [name, value] of Object.entries(saved))
			if (value === undefined) delete process.env[name];
			else process.env[name] = value;
		await proxy.close();
	});

	it('an https:// Base URL goes through a CONNECT tunnel: the proxy sees only host and port', async () => {
		const result = await getIntegration(overHttps(true));

		expect(result.error).toBeUndefined();
		expect(proxy.seen).toEqual([
			{ kind: 'CONNECT', target: new URL(https.origin).host, headers: expect.any(Object) },
		]);
		expect(JSON.stringify(proxy.seen)).not.toContain(emulator().apiKey);
		expect(emulator().requests[0].headers['x-api-key']).toBe(emulator().apiKey);
	});

	it('an http:// Base URL is forwarded whole: the key travels in its header only, never in the URL', async () => {
		const result = await getIntegration(credentials());

		expect(result.error).toBeUndefined();
		expect(proxy.seen).toEqual([
			{
				kind: 'plain',
				method: 'GET',
				url: `${emulator().baseUrl}/integrations/${SEED.integrations.ordersToSnowflake}`,
				headers: expect.objectContaining({ 'x-api-key': emulator().apiKey }),
			},
		]);
		expect(JSON.stringify(result.items)).not.toContain(emulator().apiKey);
	});
});
