/**
 * A Base URL whose server answers with a redirect (301, 302, 303, 307, 308), to the same path on
 * another origin or to another path of its own: no request of the package follows it, as n8n-core
 * runs them against the emulator (its 'redirect' fault) and a second listener standing for the
 * other origin (startRecorder). The error names where the redirect points, without its query, and
 * the Base URL to set; it declares that someone must change the configuration.
 */
import { problemsOf } from '../actions/error-walk';
import { SEED } from '../emulator';
import { useEmulator } from '../helpers/emulator';
import {
	callNodeMethod,
	pollTrigger,
	runActionNode,
	testCredential,
	type ApiCredentials,
} from '../helpers/n8n';
import { startRecorder, type Recorder } from '../helpers/network';

const { emulator, credentials } = useEmulator();

let elsewhere: Recorder;
beforeAll(async () => {
	elsewhere = await startRecorder();
});
afterAll(async () => await elsewhere.close());
beforeEach(() => {
	elsewhere.arrivals.length = 0;
});

const STATUSES = [301, 302, 303, 307, 308];
/** What the Location's query carries, which no error may show. */
const QUERY = 'token=s3cret-in-query';

/** Where a redirect points: its Location (`{path}`: the request's), and the Base URL it implies. */
const TARGETS: Record<string, () => { location: string; movedTo: string }> = {
	'the same path on another origin': () => ({
		location: `${elsewhere.origin}{path}?${QUERY}`,
		movedTo: `${elsewhere.origin}/v1`,
	}),
	'another path of the same origin': () => ({
		location: `/v1/moved{path}?${QUERY}`,
		movedTo: `${new URL(emulator().baseUrl).origin}/v1/moved/v1`,
	}),
};

/** A request of each kind the package sends: what runs it, and the request the emulator gets. */
const REQUESTS: Array<{
	name: string;
	sent: string;
	run: (c: ApiCredentials) => Promise<unknown>;
}> = [
	{
		name: 'User → Get Many (a read)',
		sent: 'GET /users',
		run: async (c) =>
			(
				await runActionNode({
					credentials: c,
					parameters: { resource: 'user', operation: 'getAll', returnAll: true },
				})
			).error,
	},
	{
		name: 'Tag → Create (a write)',
		sent: 'POST /tags',
		run: async (c) =>
			(
				await runActionNode({
					credentials: c,
					parameters: {
						resource: 'tag',
						operation: 'create',
						name: 'Moved',
						owner: SEED.users.maya,
					},
				})
			).error,
	},
	{
		name: 'the Owner picker (searchUsers)',
		sent: 'GET /users',
		run: async (c) =>
			await callNodeMethod({
				credentials: c,
				method: 'searchUsers',
				parameters: { resource: 'tag', operation: 'create' },
			}).catch((error: unknown) => error),
	},
	{
		name: "the trigger's poll",
		sent: 'GET /audit-logs',
		run: async (c) =>
			await pollTrigger({ credentials: c, parameters: { startFrom: 'now' } }).catch(
				(error: unknown) => error,
			),
	},
];

const CASES = Object.keys(TARGETS).flatMap((where) =>
	STATUSES.flatMap((status) => REQUESTS.map((request) => ({ where, status, request }))),
);

describe('a redirect is never followed', () => {
	it.each(CASES)('$status to $where: $request.name', async ({ where, status, request }) => {
		const { location, movedTo } = TARGETS[where]();
		emulator().injectFault({ kind: 'redirect', status, location, count: 10 });

		const error = (await request.run(credentials())) as {
			message: string;
			description: string;
		};

		expect(elsewhere.arrivals).toEqual([]);
		expect(emulator().requests.map(({ method, path }) => `${method} ${path}`)).toEqual([
			request.sent,
		]);
		const path = request.sent.split(' ')[1];
		expect(error).toMatchObject({
			name: 'NodeApiError',
			httpCode: String(status),
			message: `The service at the Base URL redirected the request to ${movedTo}${path}, and the node follows no redirect`,
			description: expect.stringContaining(
				`If the service has moved there, set the Base URL in the credential to ${movedTo}. The node sends the API key only to the Base URL: nothing was sent where the redirect points.`,
			),
			failure: { cause: 'configuration-invalid' },
		});
		expect(problemsOf(error.message, error.description, status)).toEqual([]);
		for (const secret of [QUERY, emulator().apiKey])
			expect(JSON.stringify({ ...error, message: error.message })).not.toContain(secret);
	});

	it.each(STATUSES)(
		'%s under On Error: Continue: an error item, paired, nothing sent on',
		async (status) => {
			emulator().injectFault({
				kind: 'redirect',
				status,
				location: `${elsewhere.origin}{path}`,
				count: 10,
			});
			const result = await runActionNode({
				credentials: credentials(),
				parameters: { resource: 'tag', operation: 'create', name: 'Moved', owner: SEED.users.maya },
				items: [{}, {}],
				continueOnFail: true,
			});

			expect(elsewhere.arrivals).toEqual([]);
			expect(
				result.items.map(({ json, pairedItem }) => [json.error, json.httpCode, pairedItem]),
			).toEqual(
				[0, 1].map((item) => [
					`The service at the Base URL redirected the request to ${elsewhere.origin}/v1/tags, and the node follows no redirect`,
					String(status),
					{ item },
				]),
			);
		},
	);

	it('a 303 to a write says the change may have been made (it answers a request acted on)', async () => {
		emulator().injectFault({
			kind: 'redirect',
			status: 303,
			location: `${elsewhere.origin}/v1/tags/tag_1`,
		});
		const error = await REQUESTS[1].run(credentials());
		expect((error as { description: string }).description).toMatch(/The change may have been made/);
		emulator().injectFault({
			kind: 'redirect',
			status: 307,
			location: `${elsewhere.origin}{path}`,
		});
		const not = await REQUESTS[1].run(credentials());
		expect((not as { description: string }).description).not.toMatch(/may have been made/);
	});

	it('a Location carrying the key: the error shows where it points, the key as [API key]', async () => {
		const location = `${elsewhere.origin}/v1/keys/${encodeURIComponent(emulator().apiKey)}/users`;
		emulator().injectFault({ kind: 'redirect', status: 307, location, count: 10 });
		const error = (await REQUESTS[0].run(credentials())) as {
			message: string;
			description: string;
		};
		expect(error.message).toBe(
			`The service at the Base URL redirected the request to ${elsewhere.origin}/v1/keys/[API key]/users, and the node follows no redirect`,
		);
		// No Base URL to set that holds the marker: the key is no part of an address.
		expect(error.description).toMatch(/^Check the Base URL in the credential/);
		expect(JSON.stringify(error)).not.toContain(emulator().apiKey);
		expect(elsewhere.arrivals).toEqual([]);
	});

	it.each<[string, () => string | undefined, () => string]>([
		[
			'a sign-in page elsewhere',
			() => `${elsewhere.origin}/login?next=%2Fv1%2Fusers`,
			() => `redirected the request to ${elsewhere.origin}/login`,
		],
		[
			'no Location',
			() => undefined,
			() => 'answered with a redirect (HTTP 302) that named no address',
		],
	])('%s: names what it can, and the Base URL to check', async (_title, location, said) => {
		emulator().injectFault({ kind: 'redirect', status: 302, location: location(), count: 10 });
		const error = await REQUESTS[0].run(credentials());
		expect(error).toMatchObject({
			message: `The service at the Base URL ${said()}, and the node follows no redirect`,
			description:
				"Check the Base URL in the credential: it must be the API's address, ending in /v1. The node sends the API key only to the Base URL: nothing was sent where the redirect points.",
		});
		expect(elsewhere.arrivals).toEqual([]);
	});
});

describe("the credential's Test", () => {
	it.each(Object.keys(TARGETS).flatMap((where) => STATUSES.map((status) => ({ where, status }))))(
		'$status to $where: an Error saying so, and nothing sent there',
		async ({ where, status }) => {
			emulator().injectFault({ kind: 'redirect', status, location: TARGETS[where]().location });

			expect(await testCredential(credentials())).toEqual({
				status: 'Error',
				message:
					'The Base URL redirects to another address, which n8n does not follow with the API key: nothing was sent there. Set the Base URL to the address the service now answers at, ending in /v1 (a node run with this credential names where the redirect points).',
			});
			expect(elsewhere.arrivals).toEqual([]);
			expect(emulator().requests.map(({ method, path }) => `${method} ${path}`)).toEqual([
				'GET /users',
			]);
		},
	);
});
