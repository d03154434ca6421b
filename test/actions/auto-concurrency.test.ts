/**
 * Options → Concurrency Mode "Auto" against the emulator's token-bucket rate limit, the run-time
 * check of Concurrency, and the error that names the later items already sent.
 */
import { sleep, type IDataObject, type INodeParameters } from 'n8n-workflow';

import type { FaultSpec } from '../emulator';
import {
	AUTO_MAX_CONCURRENCY,
	INITIAL_WINDOW,
} from '../../nodes/DataIntegrationManagement/pacing/controller';
import { OPEN_ENDED_WAIT_MS } from '../../nodes/DataIntegrationManagement/pacing/shared-pace';
import { paceKey, processPaces } from '../../nodes/DataIntegrationManagement/pacing/shared-pace';
import { useEmulator } from '../helpers/emulator';
import { pollTrigger, runActionNode } from '../helpers/n8n';
import { createAssetsVia, namedAssets, startCountingProxy, type CountingProxy } from './support';

const { emulator, credentials } = useEmulator();

let proxy: CountingProxy;
/** Requests whose body names one of these are held this long before they reach the emulator. */
let holds: Record<string, number> = {};

beforeAll(async () => {
	proxy = await startCountingProxy(
		emulator(),
		({ body }) => holds[(body as { name?: string } | undefined)?.name ?? ''] ?? 0,
	);
});
afterAll(async () => await proxy.close());
beforeEach(() => {
	holds = {};
	proxy.resetCount();
	// Every test starts Concurrency Auto afresh, not from the pace earlier tests left.
	processPaces.clear();
});

const named = namedAssets;

const createAssets = (items: IDataObject[], options: INodeParameters, continueOnFail = false) =>
	createAssetsVia(proxy, credentials(), items, options, continueOnFail);

const AUTO = { concurrencyMode: 'auto' };

describe('Concurrency Mode "Auto"', () => {
	it('fails no item while the service is rate-limiting, keeps order and pairing, and sends few requests into a 429', async () => {
		emulator().setLatency(5);
		// A limit low enough that a machine busy with other work still reaches it.
		emulator().rateLimit.set({ requestsPerSecond: 60, burst: 5 });

		const result = await createAssets(named(300), AUTO);

		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => [item.json.name, item.pairedItem])).toEqual(
			named(300).map(({ name }, item) => [name, { item }]),
		);
		expect(emulator().store.assets.size).toBe(2 + 300);
		// It found the limit, and once there kept to it. The 10% target is asserted on a fake clock
		// (test/pacing/pacer.simulation.test.ts) and measured by `npm run bench`; in real time,
		// on a 2-core machine busy with other work, this short run measured 10 to 15%, and a third
		// once beside the rest of the suite, so here the bound only catches a pace that never settles.
		const refused = emulator().rateLimit.refused;
		expect(refused).toBeGreaterThan(0);
		expect(refused / emulator().requests.length).toBeLessThanOrEqual(0.5);
	});

	it('with continue-on-fail, turns a failed item into an error item in its place and goes on', async () => {
		emulator().setLatency(5);
		emulator().rateLimit.set({ requestsPerSecond: 100, burst: 5 });
		emulator().injectFault({ kind: 'status', status: 500, method: 'POST', skip: 7 });

		const result = await createAssets(named(20), AUTO, true);

		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.pairedItem)).toEqual(
			named(20).map((_, item) => ({ item })),
		);
		const failed = result.items.filter((item) => item.json.error);
		expect(failed).toHaveLength(1);
		expect(failed[0].json).toMatchObject({ httpCode: '500' });
		for (const item of result.items.filter((item) => !item.json.error))
			expect(item.json.name).toBe(`asset-${(item.pairedItem as { item: number }).item}`);
	});

	it('with no credential selected, fails each item on the credential, as Fixed does', async () => {
		const result = await runActionNode({
			credentials: credentials(),
			noCredentialSelected: true,
			continueOnFail: true,
			parameters: { resource: 'user', operation: 'getAll', returnAll: true },
			items: [{}, {}],
		});

		expect(result.error).toBeUndefined();
		expect(result.items).toEqual(
			[0, 1].map((item) => ({
				json: { error: 'Node does not have any credentials set' },
				pairedItem: { item },
			})),
		);
		expect(emulator().requests).toEqual([]);
	});

	it('with no credential selected and no Continue on Fail, names the first item: each reads the credential, and fails, alone', async () => {
		const result = await runActionNode({
			credentials: credentials(),
			noCredentialSelected: true,
			parameters: { resource: 'user', operation: 'getAll', returnAll: true },
			items: [{}, {}, {}],
		});

		expect(result.error?.message).toBe('Node does not have any credentials set');
		expect(result.error?.context.itemIndex).toBe(0);
		expect(emulator().requests).toEqual([]);
	});

	it('shares one pace between executions at once with the same credential, learned from the limit', async () => {
		emulator().setLatency(5);
		emulator().rateLimit.set({ requestsPerSecond: 40, burst: 5 });
		const names = (run: string) => named(60).map(({ name }) => ({ name: `${run} ${name}` }));

		const results = await Promise.all([
			createAssets(names('one'), AUTO),
			createAssets(names('two'), AUTO),
		]);

		for (const result of results) expect(result.error).toBeUndefined();
		expect(emulator().store.assets.size).toBe(2 + 120);
		expect(processPaces.size).toBe(1);
		const pace = processPaces.pace(paceKey(proxy.baseUrl, credentials().apiKey));
		expect(processPaces.size).toBe(1);
		// A refusal ended slow start; the window holds what 40 a second allow over a round trip.
		expect(pace.window.threshold).toBeLessThan(Infinity);
		expect(pace.window.size).toBeLessThan(INITIAL_WINDOW);
		expect(pace.inFlight).toBe(0);
	});

	it('never goes beyond Max Concurrency', async () => {
		emulator().setLatency(30);

		const result = await createAssets(named(40), { ...AUTO, maxConcurrency: 5 });

		expect(result.error).toBeUndefined();
		expect(proxy.maxInFlight).toBe(5);
	});

	it(`without Max Concurrency, grows past what it starts with and never past its default, ${AUTO_MAX_CONCURRENCY}`, async () => {
		// Answers slow enough that a loaded machine still sends a round's requests before they come.
		emulator().setLatency(150);

		const result = await createAssets(named(300), AUTO);

		expect(result.error).toBeUndefined();
		expect(emulator().store.assets.size).toBe(2 + 300);
		// How far it grows depends on how quick the answers stay (this busy process is part of
		// the round trip): reaching the default is asserted on a fake clock, in
		// test/pacing/pacer.simulation.test.ts.
		expect(proxy.maxInFlight).toBeGreaterThan(INITIAL_WINDOW);
		expect(proxy.maxInFlight).toBeLessThanOrEqual(AUTO_MAX_CONCURRENCY);
	});

	it('with Max Concurrency added and left as it is, is not held to one item: the field shows the default', async () => {
		emulator().setLatency(150);

		const result = await createAssets(named(60), { ...AUTO, maxConcurrency: AUTO_MAX_CONCURRENCY });

		expect(result.error).toBeUndefined();
		expect(proxy.maxInFlight).toBeGreaterThan(INITIAL_WINDOW);
	});

	/** Four 429s in a row for the requests `where` says: one more than Fixed waits out. */
	const fourTooMany = (where: Partial<FaultSpec>): FaultSpec => ({
		kind: 'status',
		status: 429,
		retryAfterSeconds: 0,
		count: 4,
		...where,
	});

	it('waits out more 429s for one item than a fixed number does', async () => {
		emulator().injectFault(fourTooMany({ method: 'POST' }));
		const auto = await createAssets(named(1), AUTO);
		emulator().injectFault(fourTooMany({ method: 'POST' }));
		const fixed = await createAssets(named(1), { concurrencyMode: 'fixed', concurrency: 1 });

		expect(auto.error).toBeUndefined();
		expect(auto.items[0].json.name).toBe('asset-0');
		expect(fixed.error).toMatchObject({ httpCode: '429' });
	});

	it('paces the page reads of Audit Log → Get Many too', async () => {
		const getMany = async (options: INodeParameters) =>
			await runActionNode({
				credentials: credentials(),
				parameters: { resource: 'auditLog', operation: 'getAll', returnAll: true, options },
			});
		emulator().injectFault(fourTooMany({ path: '/audit-logs' }));
		const auto = await getMany(AUTO);
		emulator().injectFault(fourTooMany({ path: '/audit-logs' }));
		const fixed = await getMany({ concurrencyMode: 'fixed' });

		expect(auto.error).toBeUndefined();
		expect(auto.items).toHaveLength(emulator().store.auditEntries.length);
		expect(fixed.error).toMatchObject({ httpCode: '429' });
	});
});

describe('a trigger poll beside a run, on an n8n that gives no poll budget (1.x)', () => {
	it(`finding no turn within OPEN_ENDED_WAIT_MS (${OPEN_ENDED_WAIT_MS} ms), sends nothing and says the next poll reads again from where it was`, async () => {
		// Each create held longer than the poll waits: the run's items keep every place of the pace.
		for (const { name } of named(INITIAL_WINDOW)) holds[name] = OPEN_ENDED_WAIT_MS + 2000;
		const run = createAssets(named(INITIAL_WINDOW), AUTO);
		for (let tries = 0; proxy.maxInFlight < INITIAL_WINDOW && tries < 200; tries++) await sleep(20);

		const poll = pollTrigger({
			credentials: { ...credentials(), baseUrl: proxy.baseUrl },
			parameters: { startFrom: 'now' },
			// A budget that is no number of ms reads as none, as n8n 1.x gives.
			pollBudgetMs: Infinity,
		});

		await expect(poll).rejects.toMatchObject({
			message: 'A run on this credential uses every request the service allows: nothing was sent',
			description: expect.stringContaining(
				"Try again when the run has finished (a trigger's next poll reads again from where it was)",
			),
		});
		expect(emulator().requests.filter(({ path }) => path === '/audit-logs')).toEqual([]);
		expect((await run).items).toHaveLength(INITIAL_WINDOW);
	});
});

describe('Concurrency options unset', () => {
	it('run Auto, the default Concurrency Mode shows', async () => {
		emulator().setLatency(20);

		const result = await createAssetsVia(proxy, credentials(), named(12));

		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(12);
		expect(proxy.maxInFlight).toBeGreaterThan(1);
	});

	it('leave a Concurrency Mode that is set as it is', async () => {
		emulator().setLatency(20);

		const result = await createAssetsVia(proxy, credentials(), named(12), {
			concurrencyMode: 'fixed',
			concurrency: 2,
		});

		expect(result.error).toBeUndefined();
		expect(proxy.maxInFlight).toBe(2);
	});
});

describe('429 without Retry-After', () => {
	it.each([
		['Fixed 3', { concurrencyMode: 'fixed', concurrency: 3 }],
		['Auto', AUTO],
	])('under %s, is retried after a backoff and every item succeeds', async (_, options) => {
		emulator().rateLimit.set({ requestsPerSecond: 10, burst: 3, omitRetryAfter: true });

		const result = await createAssets(named(8), options);

		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json.name)).toEqual(named(8).map(({ name }) => name));
		expect(emulator().rateLimit.refused).toBeGreaterThan(0);
	});
});

describe('the error of a failed item under concurrency', () => {
	it.each([
		[
			'a fixed 4',
			{ concurrencyMode: 'fixed', concurrency: 4 },
			'Items 1, 2 and 3 had already been sent',
			4,
		],
		[
			`Auto (${INITIAL_WINDOW} in flight at first: all six)`,
			AUTO,
			'Items 1 to 5 had already been sent',
			6,
		],
	])(
		'with %s, names the later items already sent, which may have taken effect',
		async (_, options, sentNote, requests) => {
			// The first item fails while the ones beside it are still held on their way.
			holds = { 'asset-1': 150, 'asset-2': 150, 'asset-3': 150 };
			emulator().setLatency(20);
			emulator().injectFault({ kind: 'status', status: 500, method: 'POST' });

			const result = await createAssets(named(6), options);

			expect(result.error).toMatchObject({ httpCode: '500', context: { itemIndex: 0 } });
			const description = String((result.error as { description?: string }).description);
			expect(description).toContain('The service had an internal problem.');
			expect(description).toContain(
				`${sentNote} and may have taken effect: running the node again sends`,
			);
			// No item started after the failure.
			expect(emulator().requests).toHaveLength(requests);
		},
	);

	it('shortens a run of four or more items sent', async () => {
		holds = Object.fromEntries(named(8).map(({ name }) => [name, 150]));
		delete holds['asset-0'];
		emulator().setLatency(20);
		emulator().injectFault({ kind: 'status', status: 500, method: 'POST' });

		const result = await createAssets(named(12), { concurrencyMode: 'fixed', concurrency: 8 });

		expect(String((result.error as { description?: string }).description)).toContain(
			'Items 1 to 7 had already been sent and may have taken effect',
		);
	});

	it('one at a time, names the items before it, which made their changes, and none after', async () => {
		emulator().injectFault({ kind: 'status', status: 500, method: 'POST', skip: 1 });

		const result = await createAssets(named(3), { concurrencyMode: 'fixed', concurrency: 1 });

		expect(result.error).toMatchObject({ context: { itemIndex: 1 } });
		const description = String((result.error as { description?: string }).description);
		expect(description).toContain(
			'Item 0 had already made its change: running the node again sends it again.',
		);
		expect(description).not.toContain('had already been sent');
	});

	it('names the items before a bad input found when its turn came (Name left empty on item 3)', async () => {
		const items = [...named(3), { name: '' }];

		const result = await createAssets(items, { concurrencyMode: 'fixed', concurrency: 4 });

		expect(result.error?.message).toBe(
			'The field "Name" is empty: its expression gave no value (item 3)',
		);
		expect(String((result.error as { description?: string }).description)).toContain(
			'Items 0, 1 and 2 had already made their change: running the node again sends them again.',
		);
	});
});

describe('the error of a failed read under concurrency', () => {
	it('says nothing of effects: the later items sent only read', async () => {
		emulator().setLatency(20);
		emulator().injectFault({ kind: 'status', status: 500, method: 'GET' });

		const result = await runActionNode({
			credentials: credentials(),
			parameters: {
				resource: 'integration',
				operation: 'get',
				integrationId: '={{ $json.id }}',
				options: { concurrencyMode: 'fixed', concurrency: 4 },
			},
			items: Array.from({ length: 4 }, () => ({ id: 'int_4f8a2c71e9b0' })),
		});

		expect(result.error).toMatchObject({ httpCode: '500', context: { itemIndex: 0 } });
		expect(emulator().requests).toHaveLength(4);
		const description = String((result.error as { description?: string }).description);
		expect(description).toContain('The service had an internal problem.');
		expect(description).not.toMatch(/already been sent|taken effect/);
	});
});

describe('Concurrency is checked when the node runs', () => {
	it.each([
		['-3', '={{ -3 }}'],
		['1e9', '={{ 1e9 }}'],
		['abc', '={{ "abc" }}'],
		['2.5', 2.5],
		['0', 0],
	])('refuses %s, naming the field, before any request, in either field', async (_, value) => {
		for (const [name, label] of [
			['concurrency', 'Concurrency'],
			['maxConcurrency', 'Max Concurrency'],
		]) {
			emulator().clearRequests();
			const result = await createAssets(named(2), { [name]: value });

			expect(result.error?.message).toMatch(
				new RegExp(
					`^The field "${label}" must be a whole number from 1 to ${AUTO_MAX_CONCURRENCY}`,
				),
			);
			expect(emulator().requests).toHaveLength(0);
		}
	});

	it('refuses a Concurrency Mode it does not know', async () => {
		const result = await createAssets(named(2), { concurrencyMode: '={{ "turbo" }}' });

		expect(result.error?.message).toMatch(
			/^The field "Concurrency Mode" must be one of "fixed" \(Fixed\), "auto" \(Auto\), not "turbo" \(item 0\)$/,
		);
		expect(emulator().requests).toHaveLength(0);
	});

	it('takes a whole number given as text by an expression', async () => {
		const result = await createAssets(named(3), { maxConcurrency: '={{ "3" }}' });

		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(3);
	});
});
