/**
 * The shared pace through n8n-core: the trigger's polls and the pickers take a slot of the pace
 * their credential shares with the action node's runs under Auto, a 429 they meet lowers it, and
 * no slot stays taken. Concurrency Fixed keeps out of it.
 */
import type { INodeListSearchResult } from 'n8n-workflow';

import { paceKey, processPaces } from '../../nodes/DataIntegrationManagement/pacing/shared-pace';
import { SEED } from '../emulator';
import { useEmulator } from '../helpers/emulator';
import { callNodeMethod, pollTrigger, runActionNode } from '../helpers/n8n';

const { emulator, credentials } = useEmulator();

beforeEach(() => processPaces.clear());

const paceOfEmulator = () =>
	processPaces.pace(paceKey(credentials().baseUrl, credentials().apiKey));

describe('the pace a credential shares', () => {
	it("is the trigger's too: a 429 to a poll lowers it, and the poll gives its slot back", async () => {
		emulator().rateLimit.set({ requestsPerSecond: 2, burst: 1 });
		// The one token goes to a request outside n8n: the poll's first request meets a 429.
		const { baseUrl, apiKey } = credentials();
		expect((await fetch(`${baseUrl}/users`, { headers: { 'x-api-key': apiKey } })).status).toBe(
			200,
		);

		const result = await pollTrigger({
			credentials: credentials(),
			parameters: { startFrom: 'now' },
		});

		expect(result.items).toBeNull();
		expect(emulator().rateLimit.refused).toBeGreaterThan(0);
		expect(processPaces.size).toBe(1);
		const pace = paceOfEmulator();
		expect(pace.window.decreasedAt).toBeGreaterThan(0);
		expect(pace.inFlight).toBe(0);
	});

	it("is the pickers' too: their requests join it and leave no slot taken", async () => {
		const found = await callNodeMethod<INodeListSearchResult>({
			credentials: credentials(),
			method: 'searchUsers',
			parameters: { resource: 'tag', operation: 'create' },
		});

		expect(found.results.length).toBeGreaterThan(0);
		expect(processPaces.size).toBe(1);
		expect(paceOfEmulator().inFlight).toBe(0);
	});

	it('is not used by Concurrency Fixed, which sends as it is set', async () => {
		const result = await runActionNode({
			credentials: credentials(),
			parameters: {
				resource: 'tag',
				operation: 'create',
				name: 'fixed',
				owner: SEED.users.aiko,
				options: { concurrencyMode: 'fixed' },
			},
		});

		expect(result.error).toBeUndefined();
		expect(processPaces.size).toBe(0);
	});
});
