/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test tooling: watches process.stdout/stderr for the API key; runs under Node in this repo only */
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import {
	AUTO_RETRY_AFTER_WAITS,
	BACKOFF_FIRST_MS,
} from '../../nodes/DataIntegrationManagement/pacing/pacer';
import { processPaces } from '../../nodes/DataIntegrationManagement/pacing/shared-pace';
import { SEED, type FaultSpec } from '../emulator';
import { useEmulator } from '../helpers/emulator';
import { credentialNotFound, runActionNode, type RunActionResult } from '../helpers/n8n';
import { sent } from './support';

const { emulator, credentials } = useEmulator();
// Every test starts Concurrency Auto afresh, not from the pace earlier tests left.
beforeEach(() => processPaces.clear());

const ORDERS = SEED.integrations.ordersToSnowflake;
const REFUSED_HEADER_VALUE = 'wrong-key-7d1e0c55b9';

const DESCRIPTIONS = {
	400: 'The service rejected the request as invalid. Check the fields the message names, or the values set in the node when it names none.',
	401: 'The API key was refused. Check the API Key in the credential.',
	404: "Nothing answers at /users under the Base URL in the credential. If other operations work with this credential, the service does not offer this one; else the Base URL is likely wrong: it must be the API's address, ending in /v1 (e.g. https://api.example.com/v1).",
	429: 'The service is limiting the rate of requests. Wait a moment, then try again.',
	500: 'The service had an internal problem. Try again later.',
	503: 'The service is overloaded and turned the request away. It was sent again after each wait the node allows; try again later, or lower Options → Max Concurrency.',
	none: 'The service could not be reached or closed the connection (network error ECONNRESET). Check the Base URL in the credential and that the service is up, then try again.',
	malformed:
		"The response could not be read as the JSON envelope the API promises. Check that the Base URL points at the API (ending in /v1), then try again. If it does, the service answers otherwise than its API description: tell the service's owner, or this package's maintainers.",
};

/** Runs the node while capturing everything written to stdout and stderr (n8n-core's log goes there). */
async function runLogged(
	options: Parameters<typeof runActionNode>[0],
): Promise<RunActionResult & { log: string }> {
	const chunks: string[] = [];
	const capture = (stream: NodeJS.WriteStream) => {
		const write = stream.write.bind(stream);
		return jest.spyOn(stream, 'write').mockImplementation(((chunk: unknown, ...rest: unknown[]) => {
			chunks.push(String(chunk));
			return (write as (...args: unknown[]) => boolean)(chunk, ...rest);
		}) as typeof stream.write);
	};
	const spies = [capture(process.stdout), capture(process.stderr)];
	try {
		return { ...(await runActionNode(options)), log: chunks.join('') };
	} finally {
		for (const spy of spies) spy.mockRestore();
	}
}

/** Neither the right key nor the wrong one shows up in outputs, the error, the run data or the log. */
function expectNoKey(result: RunActionResult & { log: string }) {
	for (const key of [emulator().apiKey, REFUSED_HEADER_VALUE]) {
		expect(JSON.stringify(result.items)).not.toContain(key);
		expect(JSON.stringify(result.error ?? null)).not.toContain(key);
		expect(JSON.stringify(result.run)).not.toContain(key);
		expect(result.log).not.toContain(key);
	}
}

/** `integration get` over three items (with these Options); the fault (if any) hits the third request. */
async function getThreeWithFault(fault?: FaultSpec, options?: INodeParameters) {
	if (fault) emulator().injectFault({ skip: 2, ...fault });
	return await runLogged({
		credentials: credentials(),
		parameters: {
			resource: 'integration',
			operation: 'get',
			integrationId: ORDERS,
			...(options && { options }),
		},
		items: [{}, {}, {}],
	});
}

describe('API errors become NodeApiErrors naming the item', () => {
	it('400: the API message and code, with the 400 description; one at a time, no later item is sent', async () => {
		const result = await runLogged({
			credentials: credentials(),
			parameters: {
				resource: 'tag',
				operation: 'create',
				name: 'T',
				owner: '={{ $json.owner }}',
				options: { concurrencyMode: 'fixed' },
			},
			items: [{ owner: SEED.users.maya }, { owner: 'usr_missing' }, { owner: SEED.users.maya }],
		});

		expect(result.error).toMatchObject({
			name: 'NodeApiError',
			message: "owner 'usr_missing' is not the id of an existing user [BAD_REQUEST]",
			httpCode: '400',
			// The item before it made its change: a re-run makes it again.
			description: `${DESCRIPTIONS[400]}\n\nItem 0 had already made its change: running the node again sends it again.`,
			errorResponse: {
				code: 'BAD_REQUEST',
				message: "owner 'usr_missing' is not the id of an existing user",
			},
			context: { itemIndex: 1 },
		});
		// One item at a time (Fixed, Concurrency unset), the node stops at the failing item: the third is never sent.
		expect(sent(emulator()).map((request) => request.body)).toEqual([
			{ name: 'T', owner: SEED.users.maya },
			{ name: 'T', owner: 'usr_missing' },
		]);
		expect(result.items).toEqual([]);
		expectNoKey(result);
	});

	it('401: a wrong key is refused, and the key is never shown', async () => {
		const result = await runLogged({
			credentials: { ...credentials(), apiKey: REFUSED_HEADER_VALUE },
			parameters: { resource: 'user', operation: 'getAll', returnAll: true },
		});

		expect(emulator().requests[0].headers['x-api-key']).toBe(REFUSED_HEADER_VALUE);
		expect(result.error).toMatchObject({
			name: 'NodeApiError',
			message: 'invalid API key in x-api-key header [UNAUTHORIZED]',
			httpCode: '401',
			description: DESCRIPTIONS[401],
			context: { itemIndex: 0 },
		});
		// The API's own body, nothing from the HTTP client (such as its ERR_BAD_REQUEST code).
		expect(result.error?.errorResponse).toEqual({
			code: 'UNAUTHORIZED',
			message: 'invalid API key in x-api-key header',
		});
		expectNoKey(result);
	});

	it('a credential deleted or not shared with the workflow: n8n says so, declared as a configuration to change, nothing sent', async () => {
		const result = await runActionNode({
			credentials: credentialNotFound(),
			parameters: { resource: 'user', operation: 'getAll', returnAll: true },
		});

		expect(result.error).toMatchObject({
			message: expect.stringContaining('does not exist'),
			failure: { cause: 'configuration-invalid' },
			context: { itemIndex: 0 },
		});
		expect(emulator().requests).toEqual([]);
	});

	it('404: an unknown id, named with the field that held it', async () => {
		const result = await runLogged({
			credentials: credentials(),
			parameters: { resource: 'integration', operation: 'get', integrationId: 'int_missing' },
		});

		expect(result.error).toMatchObject({
			name: 'NodeApiError',
			message: "integration 'int_missing' does not exist [NOT_FOUND]",
			httpCode: '404',
			description: `The service found nothing for Integration ID "int_missing". Check that the Integration ID names one that exists, and that the Base URL in the credential is the API's address, ending in /v1.`,
			errorResponse: { code: 'NOT_FOUND', message: "integration 'int_missing' does not exist" },
			context: { itemIndex: 0 },
		});
		expectNoKey(result);
	});

	it('404 of a request that names several fields: each field and its value', async () => {
		const result = await runLogged({
			credentials: credentials(),
			parameters: {
				resource: 'integration',
				operation: 'getColumns',
				integrationId: ORDERS,
				schema: { __rl: true, mode: 'name', value: 'public' },
				table: { __rl: true, mode: 'name', value: 'nope' },
			},
		});

		expect(result.error).toMatchObject({
			httpCode: '404',
			description: `The service found nothing for Integration ID "${ORDERS}", Schema "public" and Table "nope". Check that each of Integration ID, Schema and Table names one that exists, and that the Base URL in the credential is the API's address, ending in /v1.`,
		});
	});

	it('404 of a request no field named (a listing): the Base URL', async () => {
		emulator().injectFault({ kind: 'status', status: 404, message: 'gone' });
		const result = await runLogged({
			credentials: credentials(),
			parameters: { resource: 'user', operation: 'getAll', returnAll: true },
		});

		expect(result.error).toMatchObject({ httpCode: '404', description: DESCRIPTIONS[404] });
	});

	it('429 one item at a time (Fixed): waited out and retried three times, then reported', async () => {
		const result = await getThreeWithFault(
			{ kind: 'status', status: 429, retryAfterSeconds: 0, count: 10, message: 'slow down' },
			{ concurrencyMode: 'fixed' },
		);

		expect(emulator().requests).toHaveLength(2 + 4);
		expect(result.error).toMatchObject({
			name: 'NodeApiError',
			message: 'slow down [RATE_LIMITED]',
			httpCode: '429',
			description: DESCRIPTIONS[429],
			errorResponse: { code: 'RATE_LIMITED', message: 'slow down' },
			context: { itemIndex: 2 },
		});
		expectNoKey(result);
	});

	// Lowering the concurrency helps only where more than one item of the run may be in flight.
	it.each<[string, INodeParameters, IDataObject[], string]>([
		['Fixed at 2', { concurrency: 2 }, [{}, {}, {}], ', or lower Options → Concurrency'],
		['Fixed at 8, one item', { concurrency: 8 }, [{}], ''],
		['Auto', {}, [{}, {}], ', or lower Options → Max Concurrency'],
		['Auto at Max Concurrency 1', { maxConcurrency: 1 }, [{}, {}], ''],
		['Auto, one item', {}, [{}], ''],
	])(
		'429 that outlasts the waits, %s: says to lower the concurrency only where it can help',
		async (_, options, items, lower) => {
			emulator().injectFault({ kind: 'status', status: 429, retryAfterSeconds: 0, count: 100 });
			const result = await runActionNode({
				credentials: credentials(),
				parameters: { resource: 'integration', operation: 'get', integrationId: ORDERS, options },
				items,
			});

			expect(result.error?.description).toBe(
				`The service is limiting the rate of requests. Wait a moment${lower}, then try again.`,
			);
		},
	);

	it('an operation this version does not have (a workflow from another): says to pick it again, before any request', async () => {
		const result = await runActionNode({
			credentials: credentials(),
			parameters: { resource: 'tag', operation: 'archive' },
		});

		expect(result.error).toMatchObject({
			message: 'The operation "archive" of resource "tag" is not supported',
			description:
				'Pick the Resource and the Operation again in the node: the workflow may come from another version of this package.',
		});
		expect(emulator().requests).toEqual([]);
	});

	it('429 with Retry-After: waits that long, then the retry succeeds', async () => {
		emulator().injectFault({ kind: 'status', status: 429, retryAfterSeconds: 1 });
		const started = Date.now();

		const result = await runLogged({
			credentials: credentials(),
			parameters: { resource: 'integration', operation: 'get', integrationId: ORDERS },
		});

		expect(Date.now() - started).toBeGreaterThanOrEqual(950);
		expect(result.error).toBeUndefined();
		expect(emulator().requests).toHaveLength(2);
		expect(result.items).toEqual([
			{ json: expect.objectContaining({ id: ORDERS }), pairedItem: { item: 0 } },
		]);
	});

	it('429 without Retry-After: retried after a backoff (at most 1 s the first time), then succeeds', async () => {
		const started = Date.now();
		const result = await getThreeWithFault({ kind: 'status', status: 429 });

		expect(Date.now() - started).toBeLessThan(BACKOFF_FIRST_MS + 1000);
		expect(result.error).toBeUndefined();
		expect(emulator().requests).toHaveLength(4);
		expect(result.items).toHaveLength(3);
	});

	it.each([500, 502])('%i: the 5xx description, sent once', async (status) => {
		const result = await getThreeWithFault({ kind: 'status', status, message: 'database on fire' });

		expect(result.error).toMatchObject({
			name: 'NodeApiError',
			message: 'database on fire [INTERNAL_ERROR]',
			httpCode: String(status),
			description: DESCRIPTIONS[500],
			errorResponse: { code: 'INTERNAL_ERROR' },
			context: { itemIndex: 2 },
		});
		// No deadline ended the waiting: the error is not marked as one that did.
		expect(result.error?.context).not.toHaveProperty('deadlineReached');
		expect(emulator().requests).toHaveLength(3);
		expectNoKey(result);
	});

	it('503: sent again as often as a 429 is (Retry-After: 0 here), then fails with its own description', async () => {
		const result = await getThreeWithFault({
			kind: 'status',
			status: 503,
			retryAfterSeconds: 0,
			message: 'too busy',
			count: 100,
		});

		expect(result.error).toMatchObject({
			name: 'NodeApiError',
			httpCode: '503',
			description: DESCRIPTIONS[503],
			context: { itemIndex: 2 },
		});
		// Items 0 and 1, then item 2 once and again as often as Auto waits out a 429.
		expect(emulator().requests).toHaveLength(2 + 1 + AUTO_RETRY_AFTER_WAITS);
		expectNoKey(result);
	});

	it('a dropped connection: no status, the network code, and its own description', async () => {
		const result = await getThreeWithFault({ kind: 'drop' });

		expect(result.error).toMatchObject({
			name: 'NodeApiError',
			httpCode: null,
			description: DESCRIPTIONS.none,
			errorResponse: { message: 'No response', networkCode: 'ECONNRESET' },
			context: { itemIndex: 2 },
		});
		// In words: a message naming ECONNRESET gets n8n's sentence, which says to retry at once.
		expect(result.error?.message).toBe('The service closed the connection before answering');
		expectNoKey(result);
	});

	it('a body that is not JSON: reported as such, not as an HTTP failure', async () => {
		const result = await getThreeWithFault({ kind: 'malformed' });

		expect(result.error).toMatchObject({
			name: 'NodeApiError',
			message: `The service's answer to GET /integrations/${ORDERS} is not the JSON object the API promises`,
			httpCode: null,
			description: DESCRIPTIONS.malformed,
			errorResponse: { message: 'Response is not a JSON object' },
			context: { itemIndex: 2 },
		});
		expect(emulator().requests).toHaveLength(3);
		expectNoKey(result);
	});

	it('gives every class of failure its own description', () => {
		expect(new Set(Object.values(DESCRIPTIONS)).size).toBe(Object.keys(DESCRIPTIONS).length);
	});

	it('keeps the key out of successful output too, while sending it', async () => {
		const result = await getThreeWithFault();

		expect(result.items).toHaveLength(3);
		expect(
			emulator().requests.every((request) => request.headers['x-api-key'] === emulator().apiKey),
		).toBe(true);
		expectNoKey(result);
	});
});

describe('continue on fail', () => {
	/** Asset → Update of each item: one that works, one of no asset, one of a bad Connection. */
	const assetUpdates = [
		{ id: SEED.assets.ordersDb, connection: '{"port": 5433}' },
		{ id: 'ast_missing', connection: '{}' },
		{ id: SEED.assets.revenueDashboard, connection: '{"port": ' },
	];
	const updateAssets = async (continueOnFail: true | 'errorOutput', items: IDataObject[]) =>
		await runLogged({
			credentials: credentials(),
			continueOnFail,
			parameters: {
				resource: 'asset',
				operation: 'update',
				assetId: '={{ $json.id }}',
				updateFields: { description: 'checked', connection: '={{ $json.connection }}' },
			},
			items,
		});

	it('turns each failing item into an { error } item paired to it, and goes on', async () => {
		const result = await updateAssets(true, [
			...assetUpdates,
			{ id: SEED.assets.revenueDashboard, connection: '{"url": "https://bi.example"}' },
		]);

		expect(result.error).toBeUndefined();
		expect(sent(emulator()).map((request) => request.path)).toEqual([
			`/assets/${SEED.assets.ordersDb}`,
			'/assets/ast_missing',
			`/assets/${SEED.assets.revenueDashboard}`,
		]);
		expect(result.items.map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
			{ item: 3 },
		]);
		expect(result.items[0].json).toEqual({
			id: SEED.assets.ordersDb,
			description: 'checked',
			connection: { port: 5433 },
		});
		expect(result.items[1].json).toEqual({
			error: "asset 'ast_missing' does not exist [NOT_FOUND]",
			httpCode: '404',
			code: 'NOT_FOUND',
			description: `The service found nothing for Asset ID "ast_missing". Check that the Asset ID names one that exists, and that the Base URL in the credential is the API's address, ending in /v1.`,
		});
		expect(result.items[2].json).toEqual({
			error: expect.stringMatching(/^The field "Connection" is not valid JSON \(item 2\)/),
			description:
				'Unexpected end of JSON input. Give a JSON object, e.g. {"host": "db.example.com", "port": 5432, "database": "shop"}.',
		});
		expect(result.items[3].json).toEqual({
			id: SEED.assets.revenueDashboard,
			description: 'checked',
			connection: { url: 'https://bi.example' },
		});
		expect(emulator().store.assets.get(SEED.assets.revenueDashboard)?.connection).toEqual({
			url: 'https://bi.example',
		});
		expectNoKey(result);
	});

	it('with "Continue (using error output)", sends each failing item to the error output, paired to its input', async () => {
		const result = await updateAssets('errorOutput', assetUpdates);

		expect(result.error).toBeUndefined();
		expect(result.items.map(({ json, pairedItem }) => [json.id, pairedItem])).toEqual([
			[SEED.assets.ordersDb, { item: 0 }],
		]);
		// n8n keeps `{ error }` as the item's json, and the whole error beside it.
		expect(
			result.errorItems.map(({ json, error, pairedItem }) => [
				json,
				error?.description,
				pairedItem,
			]),
		).toEqual([
			[
				{ error: "asset 'ast_missing' does not exist [NOT_FOUND]" },
				expect.stringMatching(/^The service found nothing for Asset ID "ast_missing"/),
				{ item: 1 },
			],
			[
				{ error: expect.stringMatching(/^The field "Connection" is not valid JSON \(item 2\)/) },
				expect.stringMatching(/^Unexpected end of JSON input/),
				{ item: 2 },
			],
		]);
		expectNoKey(result);
	});

	it('goes on after network failures and 5xx answers of a read', async () => {
		// Faults answer in turn: the first request is dropped, the second gets a 500.
		emulator().injectFault({ kind: 'drop' });
		emulator().injectFault({ kind: 'status', status: 500 });

		const result = await runLogged({
			credentials: credentials(),
			continueOnFail: true,
			parameters: {
				resource: 'integration',
				operation: 'getSchemas',
				integrationId: ORDERS,
				options: { output: 'schemas' },
			},
			items: [{}, {}, {}],
		});

		expect(
			result.items.map((item) => [item.pairedItem, item.json.error ?? item.json.schema]),
		).toEqual([
			[{ item: 0 }, 'The service closed the connection before answering'],
			[{ item: 1 }, 'injected fault: HTTP 500 [INTERNAL_ERROR]'],
			[{ item: 2 }, 'public'],
			[{ item: 2 }, 'billing'],
			[{ item: 2 }, 'audit'],
		]);
		expect(result.items[1].json).toMatchObject({
			httpCode: '500',
			code: 'INTERNAL_ERROR',
			description: DESCRIPTIONS[500],
		});
	});
});

describe('an expression n8n cannot run', () => {
	it.each([
		['Name', { name: '={{ $json.a. }}' }],
		[
			'Update Fields → Description',
			{
				operation: 'update',
				tagId: 'tag_1',
				updateFields: { name: 'Kept', description: '={{ $json.a. }}' },
			},
		],
	])('names the field, "%s", and the item, before any request', async (label, parameters) => {
		const result = await runActionNode({
			credentials: credentials(),
			parameters: { resource: 'tag', operation: 'create', owner: SEED.users.maya, ...parameters },
			items: [{}, {}],
			continueOnFail: true,
		});

		expect(result.items.map(({ json }) => json.error)).toEqual([
			`The field "${label}" could not be read: invalid syntax (item 0)`,
			`The field "${label}" could not be read: invalid syntax (item 1)`,
		]);
		expect(result.items[0].json.description).toContain('An expression ends at its first }}');
		expect(emulator().requests).toEqual([]);
	});
});
