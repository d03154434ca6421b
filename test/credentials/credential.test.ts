/**
 * The credential as n8n uses it: its "Test" button (the declared test request, run through
 * n8n-core's RoutingNode as n8n's credential tester does), and the header it adds to requests.
 */
import { DataIntegrationManagementApi } from '../../credentials/DataIntegrationManagementApi.credentials';
import { SEED } from '../emulator';
import { useEmulator } from '../helpers/emulator';
import { runActionNode, testCredential } from '../helpers/n8n';

const { emulator, credentials } = useEmulator();

describe('credential test', () => {
	it('passes with the right key, asking GET /users with the key in x-api-key', async () => {
		const result = await testCredential(credentials());

		expect(result).toEqual({ status: 'OK', message: 'Connection successful!' });
		expect(
			emulator().requests.map(({ method, path, headers }) => [method, path, headers['x-api-key']]),
		).toEqual([['GET', '/users', emulator().apiKey]]);
	});

	it('fails with a wrong key, and the message does not repeat the key', async () => {
		const wrongKey = `${credentials().apiKey}-revoked`;
		const result = await testCredential({ ...credentials(), apiKey: wrongKey });

		// The credential's rule for a 401, which n8n 2.x's tester shows (1.x shows its own words).
		expect(result).toEqual({
			status: 'Error',
			message: expect.stringMatching(/^The service refused the API key\. Check the API Key/),
		});
		expect(result.message).not.toContain(wrongKey);
	});

	it('a key that may not list users: says what may have refused it, and what to do', async () => {
		emulator().injectFault({ kind: 'status', status: 403, message: 'not allowed' });
		const result = await testCredential(credentials());

		expect(result).toEqual({
			status: 'Error',
			message: expect.stringMatching(
				/^The service refused GET \/users, which the Test asks \(HTTP 403\): the API key may lack the right to list users.*ask the workspace admin/,
			),
		});
	});

	it('fails with a key of spaces only, saying it is sent empty and what to do', async () => {
		const result = await testCredential({ ...credentials(), apiKey: '  \n' });

		expect(result).toEqual({
			status: 'Error',
			message: expect.stringContaining(
				'(if the field holds only spaces, it is sent empty: paste the key)',
			),
		});
	});

	it('tolerates a trailing slash on the base URL', async () => {
		const result = await testCredential({ ...credentials(), baseUrl: `${credentials().baseUrl}/` });

		expect(result.status).toBe('OK');
		expect(emulator().requests.map((request) => request.path)).toEqual(['/users']);
	});

	it('reads the base URL as the nodes do: surrounding spaces and trailing slashes dropped', async () => {
		const baseUrl = `  ${credentials().baseUrl}// \n`;
		const result = await testCredential({ ...credentials(), baseUrl });

		expect(result.status).toBe('OK');
		const node = await runActionNode({
			credentials: { ...credentials(), baseUrl },
			parameters: { resource: 'user', operation: 'getAll', returnAll: true },
		});
		expect(node.error).toBeUndefined();
		expect(emulator().requests.map((request) => request.path)).toEqual(['/users', '/users']);
	});

	it('fails plainly when nothing answers at the base URL', async () => {
		const result = await testCredential({ ...credentials(), baseUrl: 'http://127.0.0.1:9/v1' });

		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/ECONNREFUSED|connect/i);
	});
});

describe('credential in node requests', () => {
	it('builds every request from the base URL (trailing slash or not) and sends the key in x-api-key', async () => {
		for (const baseUrl of [credentials().baseUrl, `${credentials().baseUrl}/`]) {
			const result = await runActionNode({
				credentials: { ...credentials(), baseUrl },
				parameters: { resource: 'user', operation: 'getAll', returnAll: true },
			});
			expect(result.error).toBeUndefined();
		}

		expect(emulator().requests.map(({ path, headers }) => [path, headers['x-api-key']])).toEqual([
			['/users', emulator().apiKey],
			['/users', emulator().apiKey],
		]);
	});

	it('an API Key of spaces only: says so, and sends nothing (the service would only refuse it)', async () => {
		const result = await runActionNode({
			credentials: { ...credentials(), apiKey: '  \n' },
			parameters: { resource: 'user', operation: 'getAll', returnAll: true },
		});

		expect(result.error).toMatchObject({
			message: 'The API Key in the credential is empty: nothing was sent',
			description: "Paste the service's API key into the credential's API Key field.",
		});
		expect(emulator().requests).toEqual([]);
	});

	it('asks for JSON, and sends a body as JSON', async () => {
		const result = await runActionNode({
			credentials: credentials(),
			parameters: { resource: 'tag', operation: 'create', name: 'Finance', owner: SEED.users.maya },
		});
		expect(result.error).toBeUndefined();

		expect(
			emulator().requests.map(({ method, headers }) => [
				method,
				headers.accept,
				headers['content-type'],
			]),
		).toEqual([['POST', 'application/json', 'application/json']]);
	});

	it('declares the fields n8n shows: a password API key, a required base URL, and two toggles', () => {
		const properties = new DataIntegrationManagementApi().properties;

		expect(
			properties.map(({ name, type, required, typeOptions, default: value }) => ({
				name,
				type,
				required,
				typeOptions,
				default: value,
			})),
		).toEqual([
			{
				name: 'apiKey',
				type: 'string',
				required: true,
				typeOptions: { password: true },
				default: '',
			},
			{ name: 'baseUrl', type: 'string', required: true, typeOptions: undefined, default: '' },
			// Off: a certificate is checked unless the user says otherwise.
			{
				name: 'ignoreSSLIssues',
				type: 'boolean',
				required: undefined,
				typeOptions: undefined,
				default: false,
			},
			// On: credentials saved before the toggle existed keep changing data.
			{
				name: 'allowChanges',
				type: 'boolean',
				required: undefined,
				typeOptions: undefined,
				default: true,
			},
		]);
	});
});

describe('where the credential puts the key (authenticate)', () => {
	const credential = new DataIntegrationManagementApi();
	const key = { apiKey: 'k-123', baseUrl: ' https://api.example.com/v1/ ' };
	const authenticated = async (options: object) =>
		await credential.authenticate(key, options as Parameters<typeof credential.authenticate>[1]);

	it.each([
		['a URL under the Base URL', { url: 'https://api.example.com/v1/users' }],
		['a path under baseURL (the Test)', { baseURL: 'https://api.example.com/v1', url: '/users' }],
		['another path of its origin', { url: 'https://api.example.com/other' }],
		["the HTTP Request node's legacy uri", { uri: 'https://api.example.com/v1/tags' }],
	])('%s: the key, and no redirect followed with it', async (_name, options) => {
		expect(await authenticated(options)).toEqual({
			...options,
			headers: { 'x-api-key': 'k-123' },
			disableFollowRedirect: true,
			followRedirect: false,
			followAllRedirects: false,
		});
	});

	it('a key pasted with spaces or a line break around it goes without them', async () => {
		const pasted = await credential.authenticate({ ...key, apiKey: ' k-123 \n' }, {
			url: 'https://api.example.com/v1/users',
		} as Parameters<typeof credential.authenticate>[1]);
		expect(pasted.headers).toEqual({ 'x-api-key': 'k-123' });
	});

	it.each([
		['another host', { url: 'https://api.example.org/v1/users' }],
		['another scheme', { url: 'http://api.example.com/v1/users' }],
		['another port', { url: 'https://api.example.com:8443/v1/users' }],
		['a lookalike host', { uri: 'https://api.example.com.evil.test/v1/users' }],
		['user info naming the host', { url: 'https://api.example.com@evil.test/v1' }],
		['no URL at all', {}],
		['a relative URL without baseURL', { url: '/users' }],
	])('%s: the request as it is, without the key', async (_name, options) => {
		expect(await authenticated(options)).toEqual(options);
	});

	it('a Base URL that is no URL: no request gets the key', async () => {
		const options = { url: 'https://api.example.com/v1/users' };
		expect(
			await credential.authenticate({ apiKey: 'k', baseUrl: 'api.example.com/v1' }, options),
		).toEqual(options);
	});
});
