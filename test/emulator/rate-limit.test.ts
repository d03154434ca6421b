/** The emulator's token-bucket rate limit, over real HTTP with the global fetch. */
import { sleep } from 'n8n-workflow';

import { ERROR_CODES } from './choices';
import { startEmulator, type Emulator } from './index';

let emulator: Emulator;

beforeAll(async () => {
	emulator = await startEmulator();
});
afterAll(async () => await emulator.close());
beforeEach(() => emulator.reset());

const getUsers = async () =>
	await fetch(`${emulator.baseUrl}/users`, { headers: { 'x-api-key': emulator.apiKey } });

const control = async (method: string, route: string, body?: unknown) =>
	await fetch(`${emulator.baseUrl.replace(/\/v1$/, '/__emulator')}${route}`, {
		method,
		headers: body === undefined ? {} : { 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});

describe('rate limit', () => {
	test('lets a burst through, then answers 429 with Retry-After in whole seconds', async () => {
		emulator.rateLimit.set({ requestsPerSecond: 1, burst: 3 });

		const statuses = [];
		for (let i = 0; i < 4; i++) statuses.push((await getUsers()).status);
		const refused = await getUsers();

		expect(statuses).toEqual([200, 200, 200, 429]);
		expect(refused.status).toBe(429);
		expect(refused.headers.get('retry-after')).toBe('1');
		expect(await refused.json()).toEqual({
			code: ERROR_CODES[429],
			message: 'rate limit exceeded',
		});
		expect(emulator.rateLimit.refused).toBe(2);
	});

	test('with omitRetryAfter, answers 429 without Retry-After', async () => {
		emulator.rateLimit.set({ requestsPerSecond: 1, burst: 1, omitRetryAfter: true });

		expect((await getUsers()).status).toBe(200);
		const refused = await getUsers();

		expect(refused.status).toBe(429);
		expect(refused.headers.has('retry-after')).toBe(false);
		expect(await refused.json()).toEqual({
			code: ERROR_CODES[429],
			message: 'rate limit exceeded',
		});
	});

	test('refills at its rate', async () => {
		emulator.rateLimit.set({ requestsPerSecond: 5, burst: 1 });

		expect((await getUsers()).status).toBe(200);
		expect((await getUsers()).status).toBe(429);
		await sleep(250);
		expect((await getUsers()).status).toBe(200);
	});

	test('logs every answer with its timing and status; reset removes the limit and the log', async () => {
		emulator.rateLimit.set({ requestsPerSecond: 1, burst: 1 });
		await getUsers();
		await getUsers();

		const [first, second] = emulator.rateLimit.traffic;
		expect([first.status, second.status]).toEqual([200, 429]);
		expect(first.answeredAt).toBeGreaterThanOrEqual(first.arrivedAt);
		expect(second.arrivedAt).toBeGreaterThanOrEqual(first.arrivedAt);

		emulator.reset();
		expect(emulator.rateLimit.traffic).toEqual([]);
		expect(emulator.rateLimit.current).toBeUndefined();
		expect((await getUsers()).status).toBe(200);
	});

	test('is set, read and removed through the control endpoints', async () => {
		const set = await control('PUT', '/rate-limit', { requestsPerSecond: 5, burst: 1 });
		expect(set.status).toBe(200);
		await getUsers();
		await getUsers();
		expect(await (await control('GET', '/rate-limit')).json()).toEqual({
			rateLimit: { requestsPerSecond: 5, burst: 1 },
			refused: 1,
		});
		const traffic = (await (await control('GET', '/traffic')).json()) as {
			traffic: Array<{ status: number }>;
		};
		expect(traffic.traffic.map((entry) => entry.status)).toEqual([200, 429]);

		expect((await control('DELETE', '/rate-limit')).status).toBe(204);
		expect((await getUsers()).status).toBe(200);
	});

	test.each([
		[{ requestsPerSecond: 0, burst: 1 }, /requestsPerSecond must be a number above 0/],
		[{ requestsPerSecond: 5 }, /burst must be an integer of 1 or more/],
		[{ requestsPerSecond: 5, burst: 1.5 }, /burst must be an integer/],
		[{ requestsPerSecond: 5, burst: 1, omitRetryAfter: 'yes' }, /omitRetryAfter must be true/],
	])('refuses %j', async (body, message) => {
		const answer = await control('PUT', '/rate-limit', body);
		expect(answer.status).toBe(400);
		expect(((await answer.json()) as { message: string }).message).toMatch(message);
	});
});
