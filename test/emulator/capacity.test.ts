/**
 * The emulator's capacity model (workers, service time, a bounded queue, 503 beyond it), over
 * real HTTP with the global fetch. Requests are sent one at a time, each once the ones before it
 * are held (`open`), so the assertions are on counts and statuses, never on durations.
 */
import { sleep } from 'n8n-workflow';

import { errorCodeFor } from './errors';
import { SEED, startEmulator, type CapacitySpec, type Emulator } from './index';

/** Long enough that a request sent after the ones held arrives while they are still served. */
const SERVICE_MS = 1000;

let emulator: Emulator;

beforeAll(async () => {
	emulator = await startEmulator();
});
afterAll(async () => await emulator.close());
beforeEach(() => emulator.reset());

const createTag = async (on: Emulator, name: string) =>
	await fetch(`${on.baseUrl}/tags`, {
		method: 'POST',
		headers: { 'x-api-key': on.apiKey, 'content-type': 'application/json' },
		body: JSON.stringify({ name: `cap-${name}`, owner: SEED.users.maya }),
	});

const control = async (method: string, route: string, body?: unknown) =>
	await fetch(`${emulator.baseUrl.replace(/\/v1$/, '/__emulator')}${route}`, {
		method,
		headers: body === undefined ? {} : { 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});

/** Resolves once the service holds `count` requests (served or waiting). */
async function untilOpen(on: Emulator, count: number): Promise<void> {
	while (on.capacity.open < count) await sleep(5);
}

/** Sends creates of `names` one after the other, each once the service holds the ones before it. */
async function sendHeld(on: Emulator, names: string[]): Promise<Array<Promise<Response>>> {
	const sent: Array<Promise<Response>> = [];
	for (const name of names) {
		const held = on.capacity.open + 1;
		sent.push(createTag(on, name));
		await untilOpen(on, held);
	}
	return sent;
}

const statuses = async (responses: Array<Promise<Response>>) =>
	(await Promise.all(responses)).map((response) => response.status);

/** The tags this file created, in the order the service created them. */
const tagNames = (on: Emulator) =>
	[...on.store.tags.values()]
		.map((tag) => tag.name)
		.filter((name) => name.startsWith('cap-'))
		.map((name) => name.slice('cap-'.length));

describe('capacity', () => {
	test('acts on `workers` requests at once and answers 503 beyond a full queue', async () => {
		emulator.capacity.set({ workers: 2, serviceMs: SERVICE_MS, queue: 0 });

		const held = await sendHeld(emulator, ['w1', 'w2']);
		const shed = await createTag(emulator, 'w3');

		expect(shed.status).toBe(503);
		expect(shed.headers.has('retry-after')).toBe(false);
		expect(await shed.json()).toEqual({
			code: errorCodeFor(503),
			message: 'service overloaded: too many requests in progress',
		});
		expect(await statuses(held)).toEqual([200, 200]);
		expect(emulator.capacity).toMatchObject({ shed: 1, open: 0, maxOpen: 2 });
		expect(tagNames(emulator)).toEqual(['w1', 'w2']);
	});

	test('queues up to `queue` requests, served first come first served', async () => {
		emulator.capacity.set({ workers: 1, serviceMs: 100, queue: 3 });

		const held = await sendHeld(emulator, ['q1', 'q2', 'q3', 'q4']);
		const shed = await createTag(emulator, 'q5');

		expect(shed.status).toBe(503);
		expect(await statuses(held)).toEqual([200, 200, 200, 200]);
		expect(tagNames(emulator)).toEqual(['q1', 'q2', 'q3', 'q4']);
		expect(emulator.capacity).toMatchObject({ shed: 1, open: 0, maxOpen: 4 });
	});

	test('answers 503 with Retry-After when retryAfterSeconds is set', async () => {
		emulator.capacity.set({ workers: 1, serviceMs: SERVICE_MS, queue: 1, retryAfterSeconds: 2 });

		const held = await sendHeld(emulator, ['r1', 'r2']);
		const shed = await createTag(emulator, 'r3');

		expect(shed.status).toBe(503);
		expect(shed.headers.get('retry-after')).toBe('2');
		expect(await statuses(held)).toEqual([200, 200]);
	});

	test('with no queue bound, every request waits and none is answered 503', async () => {
		emulator.capacity.set({ workers: 2, serviceMs: 20, queue: null });

		const names = Array.from({ length: 30 }, (_, index) => `u${index}`);
		const answered = await statuses(names.map((name) => createTag(emulator, name)));

		expect(answered).toEqual(names.map(() => 200));
		expect(emulator.capacity.shed).toBe(0);
		expect(emulator.capacity.open).toBe(0);
		expect(emulator.capacity.maxOpen).toBeGreaterThanOrEqual(1);
		expect(emulator.capacity.maxOpen).toBeLessThanOrEqual(30);
	});

	test('counts the most requests it held at once, served and waiting', async () => {
		emulator.capacity.set({ workers: 3, serviceMs: SERVICE_MS });

		const held = await sendHeld(emulator, ['m1', 'm2', 'm3', 'm4', 'm5']);
		expect(emulator.capacity.open).toBe(5);

		expect(await statuses(held)).toEqual([200, 200, 200, 200, 200]);
		expect(emulator.capacity).toMatchObject({ shed: 0, open: 0, maxOpen: 5 });
	});

	test('is set, read and removed through the control endpoints', async () => {
		const spec: CapacitySpec = { workers: 1, serviceMs: SERVICE_MS, queue: 0 };
		const set = await control('PUT', '/capacity', spec);
		expect(set.status).toBe(200);
		expect(await set.json()).toEqual({ capacity: spec });

		const held = await sendHeld(emulator, ['c1']);
		expect((await createTag(emulator, 'c2')).status).toBe(503);
		expect(await (await control('GET', '/capacity')).json()).toEqual({
			capacity: spec,
			shed: 1,
			open: 1,
			maxOpen: 1,
		});
		expect(await statuses(held)).toEqual([200]);

		expect((await control('PUT', '/capacity', spec)).status).toBe(200);
		expect(await (await control('GET', '/capacity')).json()).toMatchObject({ shed: 0, maxOpen: 0 });
		expect((await control('DELETE', '/capacity')).status).toBe(204);
		expect(await (await control('GET', '/capacity')).json()).toEqual({
			capacity: null,
			shed: 0,
			open: 0,
			maxOpen: 0,
		});
	});

	test.each([
		[[], /capacity must be a JSON object/],
		[{ serviceMs: 20 }, /workers must be an integer of 1 or more/],
		[{ workers: 0, serviceMs: 20 }, /workers must be an integer of 1 or more/],
		[{ workers: 2.5, serviceMs: 20 }, /workers must be an integer/],
		[{ workers: 2 }, /serviceMs must be an integer of 0 or more/],
		[{ workers: 2, serviceMs: -1 }, /serviceMs must be an integer of 0 or more/],
		[{ workers: 2, serviceMs: 20, queue: -1 }, /queue must be an integer of 0 or more, or null/],
		[{ workers: 2, serviceMs: 20, queue: '8' }, /queue must be an integer/],
		[{ workers: 2, serviceMs: 20, retryAfterSeconds: 1.5 }, /retryAfterSeconds must be an integer/],
		[{ workers: 2, serviceMs: 20, burst: 3 }, /capacity fields are workers, serviceMs, queue/],
	])('refuses %j', async (body, message) => {
		const answer = await control('PUT', '/capacity', body);
		expect(answer.status).toBe(400);
		expect(((await answer.json()) as { message: string }).message).toMatch(message);
		expect(emulator.capacity.current).toBeUndefined();
	});

	test('reset removes a model set since the start', async () => {
		emulator.capacity.set({ workers: 1, serviceMs: 0, queue: 0 });
		emulator.reset();
		expect(emulator.capacity.current).toBeUndefined();
	});
});

describe('capacity given at start', () => {
	const spec: CapacitySpec = { workers: 1, serviceMs: SERVICE_MS, queue: 1 };
	let started: Emulator;

	beforeAll(async () => {
		started = await startEmulator({ capacity: spec });
	});
	afterAll(async () => await started.close());

	test('reset cuts the requests it held, frees every worker and keeps the model', async () => {
		const held = await sendHeld(started, ['s1', 's2']);
		const settled = Promise.allSettled(held);

		started.reset();

		expect(started.capacity.current).toEqual(spec);
		expect(started.capacity).toMatchObject({ shed: 0, open: 0, maxOpen: 0 });
		const after = await sendHeld(started, ['s3', 's4']);
		expect((await createTag(started, 's5')).status).toBe(503);
		expect((await settled).map(({ status }) => status)).toEqual(['rejected', 'rejected']);
		expect(await statuses(after)).toEqual([200, 200]);
		expect(tagNames(started)).toEqual(['s3', 's4']);
		expect(started.capacity).toMatchObject({ shed: 1, open: 0, maxOpen: 2 });
	});
});
