/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * n8n 2.x's SSRF protection, through the n8n-core these tests run: turned on as an administrator
 * does, by its settings, read when n8n-core's HTTP client first sends (so set before any request
 * of this file, and restored after it).
 */
import { SEED } from '../emulator';
import { problemsOf } from '../actions/error-walk';
import { useEmulator } from '../helpers/emulator';
import { getIntegration } from './get-integration';

const { emulator, credentials } = useEmulator();

const SETTINGS = {
	N8N_SSRF_PROTECTION_ENABLED: 'true',
	// The service by this name is allowed; by its address (127.0.0.1) it is not.
	N8N_SSRF_ALLOWED_HOSTNAMES: 'localhost',
};
const saved = Object.fromEntries(Object.keys(SETTINGS).map((name) => [name, process.env[name]]));
beforeAll(() => Object.assign(process.env, SETTINGS));
afterAll(() => {
	for (const [name, value] of Object.entries(saved))
		if (value === undefined) delete process.env[name];
		else process.env[name] = value;
});

describe("n8n's SSRF protection on (N8N_SSRF_PROTECTION_ENABLED)", () => {
	it('blocks the service on a loopback address: the error says n8n blocked it and names the settings', async () => {
		const result = await getIntegration(credentials());

		expect(emulator().requests).toEqual([]);
		expect(result.error?.message).toBe(
			'n8n blocked the request to 127.0.0.1: its SSRF protection does not allow this address',
		);
		expect(result.error?.description).toMatch(
			/add the Base URL's host name to N8N_SSRF_ALLOWED_HOSTNAMES \(where it is a name, not an address\), or a range holding 127\.0\.0\.1 to N8N_SSRF_ALLOWED_IP_RANGES/,
		);
		expect(problemsOf(result.error!.message, result.error?.description ?? undefined)).toEqual([]);
		expect(JSON.stringify(result.error)).not.toContain(emulator().apiKey);
	});

	it('lets the service through by a host name N8N_SSRF_ALLOWED_HOSTNAMES allows', async () => {
		const baseUrl = emulator().baseUrl.replace('127.0.0.1', 'localhost');
		const result = await getIntegration({ ...credentials(), baseUrl });

		expect(result.error).toBeUndefined();
		expect(result.items[0].json.id).toBe(SEED.integrations.ordersToSnowflake);
	});
});
