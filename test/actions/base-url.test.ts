/**
 * A 404 points at the field to fix, the Base URL first. With a Base URL without /v1 (the likeliest
 * first mistake), every operation, a picker, the trigger and the credential's Test say that the
 * Base URL must end in /v1, and what to set it to; a missing ID names its field and the Base URL.
 */
import { SEED } from '../emulator';
import { useEmulator } from '../helpers/emulator';
import {
	callNodeMethod,
	pollTrigger,
	runActionNode,
	testCredential,
	type ApiCredentials,
} from '../helpers/n8n';
import { startRecorder } from '../helpers/network';
import { OPERATIONS, problemsOf } from './error-walk';
import { WORKING_PARAMETERS } from './working-parameters';

const { emulator, credentials } = useEmulator();

/** The emulator's origin alone: what a user types who leaves out /v1. */
const origin = () => new URL(emulator().baseUrl).origin;
const withoutVersion = (): ApiCredentials => ({ ...credentials(), baseUrl: origin() });
const setBaseUrl = () =>
	`Nothing answers at this address: the Base URL in the credential, ${origin()}, does not end in /v1. Set it to the API's address, ending in /v1, e.g. ${origin()}/v1.`;

describe('a Base URL without /v1', () => {
	it.each(OPERATIONS)(
		'$key: names the Base URL and what to set it to',
		async ({ resource, operation, key }) => {
			const { error } = await runActionNode({
				credentials: withoutVersion(),
				parameters: { resource, operation, ...WORKING_PARAMETERS[key] },
			});

			expect(error).toMatchObject({
				name: 'NodeApiError',
				httpCode: '404',
				message: expect.stringMatching(
					/^no operation (GET|POST|PUT|PATCH|DELETE) \/\S+ \[NOT_FOUND\]$/,
				),
				description: expect.stringContaining(setBaseUrl()),
				failure: { cause: 'configuration-invalid' },
			});
			expect(problemsOf(error!.message, error!.description ?? undefined, 404)).toEqual([]);
		},
	);

	it('under On Error: Continue, each item says so', async () => {
		const result = await runActionNode({
			credentials: withoutVersion(),
			parameters: { resource: 'tag', operation: 'create', ...WORKING_PARAMETERS['tag.create'] },
			items: [{}, {}],
			continueOnFail: true,
		});

		expect(result.items.map(({ json, pairedItem }) => [json.description, pairedItem])).toEqual([
			[setBaseUrl(), { item: 0 }],
			[setBaseUrl(), { item: 1 }],
		]);
	});

	it.each([
		['searchUsers', { resource: 'tag', operation: 'create' }],
		[
			'searchSchemas',
			{
				resource: 'integration',
				operation: 'getColumns',
				integrationId: SEED.integrations.ordersToSnowflake,
			},
		],
	])('the %s picker: the Base URL, not the ID fields', async (method, parameters) => {
		await expect(
			callNodeMethod({ credentials: withoutVersion(), method, parameters }),
		).rejects.toMatchObject({ httpCode: '404', description: setBaseUrl() });
	});

	it("the trigger's poll", async () => {
		await expect(
			pollTrigger({ credentials: withoutVersion(), parameters: { startFrom: 'now' } }),
		).rejects.toMatchObject({
			httpCode: '404',
			description: setBaseUrl(),
			failure: { cause: 'configuration-invalid' },
		});
	});

	it("the credential's Test", async () => {
		expect(await testCredential(withoutVersion())).toEqual({
			status: 'Error',
			message:
				"Nothing answers at this Base URL: set it to the API's address, ending in /v1 (e.g. https://api.example.com/v1).",
		});
	});
});

describe('a Base URL that is not a URL, or names an endpoint', () => {
	it.each([
		['without its scheme', () => emulator().baseUrl.replace(/^http:\/\//, '')],
		// A URL parser reads `localhost:` as the scheme.
		[
			'a host and port without the scheme',
			() => emulator().baseUrl.replace(/^http:\/\/127\.0\.0\.1/, 'localhost'),
		],
		['a misspelt scheme', () => emulator().baseUrl.replace(/^http:/, 'htp:')],
		// A path after it would land in the query: `…/v1?tenant=a/users`.
		['with a query', () => `${emulator().baseUrl}?tenant=a`],
		['empty', () => ''],
	])('%s: a write says so, that nothing was sent, and what to set', async (_label, baseUrl) => {
		const { error } = await runActionNode({
			credentials: { ...credentials(), baseUrl: baseUrl() },
			parameters: { resource: 'tag', operation: 'create', ...WORKING_PARAMETERS['tag.create'] },
		});

		expect(error).toMatchObject({
			name: 'NodeApiError',
			message:
				'The Base URL in the credential is not a plain http:// or https:// address: nothing was sent',
			description:
				"Set it to the API's address, ending in /v1, with its scheme and without a query (?), fragment (#) or space: e.g. https://api.example.com/v1.",
			failure: { cause: 'configuration-invalid' },
		});
		expect(error?.description).not.toMatch(/may have been made/);
		expect(emulator().requests).toHaveLength(0);
	});

	it("the trigger's poll: the same, as a setting to change", async () => {
		await expect(
			pollTrigger({
				credentials: { ...credentials(), baseUrl: 'localhost:5678/v1' },
				parameters: { startFrom: 'now' },
			}),
		).rejects.toMatchObject({
			message:
				'The Base URL in the credential is not a plain http:// or https:// address: nothing was sent',
			failure: { cause: 'configuration-invalid' },
		});
	});

	it("an endpoint's address: the Base URL cut after /v1", async () => {
		const { error } = await runActionNode({
			credentials: { ...credentials(), baseUrl: `${emulator().baseUrl}/users` },
			parameters: { resource: 'user', operation: 'getAll', ...WORKING_PARAMETERS['user.getAll'] },
		});

		expect(error?.description).toBe(
			`Nothing answers at this address: the Base URL in the credential, ${origin()}/v1/users, does not end in /v1. Set it to the API's address, ending in /v1, e.g. ${origin()}/v1.`,
		);
	});
});

describe('a Base URL naming another version of the API', () => {
	it.each(['/v2', '/v2/users'])('%s: suggests /v1 in place of it', async (tail) => {
		const { error } = await runActionNode({
			credentials: { ...credentials(), baseUrl: `${origin()}${tail}` },
			parameters: { resource: 'user', operation: 'getAll', ...WORKING_PARAMETERS['user.getAll'] },
		});

		expect(error?.description).toBe(
			`Nothing answers at this address: the Base URL in the credential, ${origin()}${tail}, does not end in /v1. Set it to the API's address, ending in /v1, e.g. ${origin()}/v1.`,
		);
	});
});

describe('an ID the service does not have', () => {
	it('names the ID field and the Base URL', async () => {
		const { error } = await runActionNode({
			credentials: credentials(),
			parameters: {
				resource: 'tag',
				operation: 'update',
				tagId: 'tag_missing',
				updateFields: { description: 'x' },
			},
		});

		expect(error).toMatchObject({
			httpCode: '404',
			description:
				'The service found nothing for Tag ID "tag_missing". Check that the Tag ID names one that exists, and that the Base URL in the credential is the API\'s address, ending in /v1.',
			failure: { cause: 'configuration-invalid' },
		});
	});

	it("a 404 without the API's error body (a web server's page): the ID field first", async () => {
		const notFoundPage = await startRecorder({
			status: 404,
			contentType: 'text/html',
			body: '<html><body><h1>404 Not Found</h1></body></html>',
		});
		try {
			const { error } = await runActionNode({
				credentials: { ...credentials(), baseUrl: `${notFoundPage.origin}/v1` },
				parameters: {
					resource: 'tag',
					operation: 'update',
					tagId: 'tag_missing',
					updateFields: { description: 'x' },
				},
			});

			expect(error?.description).toBe(
				'The service found nothing for Tag ID "tag_missing". Check that the Tag ID names one that exists, and that the Base URL in the credential is the API\'s address, ending in /v1.',
			);
			expect(notFoundPage.arrivals.map(({ url }) => url)).toEqual(['/v1/tags/tag_missing']);
		} finally {
			await notFoundPage.close();
		}
	});

	it("a 400 web page (nginx's answer to http:// on its https:// port): not the API's, the Base URL to check", async () => {
		const page = await startRecorder({
			status: 400,
			contentType: 'text/html',
			body: '<html><head><title>400 The plain HTTP request was sent to HTTPS port</title></head></html>',
		});
		try {
			const { error } = await runActionNode({
				credentials: { ...credentials(), baseUrl: `${page.origin}/v1` },
				parameters: { resource: 'user', operation: 'getAll', returnAll: true },
			});

			expect(error).toMatchObject({
				message: "The service answered with a web page (HTTP 400), not the API's JSON",
				description:
					'A server other than the API may have answered (a proxy, a sign-in page, http:// to an https:// port). Check the Base URL in the credential: its scheme, host, port and path.',
				failure: { cause: 'configuration-invalid' },
			});
			expect(page.arrivals).toHaveLength(1);
		} finally {
			await page.close();
		}
	});

	it('the trigger, on a service without the beta audit log: the endpoint, then the Base URL', async () => {
		emulator().injectFault({ kind: 'status', status: 404, message: 'gone', path: '/audit-logs' });
		await expect(
			pollTrigger({ credentials: credentials(), parameters: { startFrom: 'now' } }),
		).rejects.toMatchObject({
			httpCode: '404',
			description:
				"Nothing answers at /audit-logs under the Base URL in the credential. If other operations work with this credential, the service does not offer this one; else the Base URL is likely wrong: it must be the API's address, ending in /v1 (e.g. https://api.example.com/v1).",
		});
	});

	it('a list or a create the service answers with a 404: the Base URL, as there is no ID', async () => {
		emulator().injectFault({ kind: 'status', status: 404, message: 'gone', count: 2 });
		const { error } = await runActionNode({
			credentials: credentials(),
			parameters: { resource: 'user', operation: 'getAll', returnAll: true },
		});

		expect(error?.description).toBe(
			"Nothing answers at /users under the Base URL in the credential. If other operations work with this credential, the service does not offer this one; else the Base URL is likely wrong: it must be the API's address, ending in /v1 (e.g. https://api.example.com/v1).",
		);
	});
});
