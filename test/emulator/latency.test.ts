/**
 * Latency that varies (latency.ts): jitter between two bounds and a heavy tail, on every /v1
 * answer, and the same tail on the capacity model's service time. The draws are checked on the
 * model; over real HTTP, the assertions on time are lower bounds only (a timer never fires early),
 * but where an answer must be quick, against a wait of half a second.
 */
import { drawMs, seededRandom, type Spread } from '../helpers/random';
import { SEED, startEmulator, type Emulator, type LatencySpec } from './index';
import { Latency } from './latency';

let emulator: Emulator;

beforeAll(async () => {
	emulator = await startEmulator();
});
afterAll(async () => await emulator.close());
beforeEach(() => emulator.reset());

/** How long a create took, ms. */
async function timedCreate(on: Emulator, name: string): Promise<number> {
	const start = performance.now();
	const answer = await fetch(`${on.baseUrl}/tags`, {
		method: 'POST',
		headers: { 'x-api-key': on.apiKey, 'content-type': 'application/json' },
		body: JSON.stringify({ name, owner: SEED.users.maya }),
	});
	expect(answer.status).toBe(200);
	return performance.now() - start;
}

const control = async (method: string, route: string, body?: unknown) =>
	await fetch(`${emulator.baseUrl.replace(/\/v1$/, '/__emulator')}${route}`, {
		method,
		headers: body === undefined ? {} : { 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});

/** `count` draws of a model set to `spec`. */
function draws(spec: number | LatencySpec, count: number): number[] {
	const latency = new Latency();
	latency.set(spec);
	return Array.from({ length: count }, () => latency.draw());
}

const share = (values: number[], test: (value: number) => boolean) =>
	values.filter(test).length / values.length;
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;

describe('the draws', () => {
	test('jitter: uniform between ms and maxMs', () => {
		const drawn = draws({ ms: 10, maxMs: 100 }, 10_000);
		expect(Math.min(...drawn)).toBeGreaterThanOrEqual(10);
		expect(Math.max(...drawn)).toBeLessThanOrEqual(100);
		expect(mean(drawn)).toBeGreaterThan(53);
		expect(mean(drawn)).toBeLessThan(57);
		// A tenth of the range holds about a tenth of the draws.
		expect(share(drawn, (ms) => ms < 19)).toBeGreaterThan(0.08);
		expect(share(drawn, (ms) => ms < 19)).toBeLessThan(0.12);
	});

	test('a heavy tail: one answer in tailOneIn takes tailMs, drawn at random, the rest ms', () => {
		const drawn = draws({ ms: 20, tailMs: 200, tailOneIn: 10 }, 10_000);
		expect(new Set(drawn)).toEqual(new Set([20, 200]));
		expect(share(drawn, (ms) => ms === 200)).toBeGreaterThan(0.09);
		expect(share(drawn, (ms) => ms === 200)).toBeLessThan(0.11);
		// At random, not every tenth: the gaps between tails differ.
		const tails = drawn.flatMap((ms, index) => (ms === 200 ? [index] : []));
		const gaps = tails.slice(1).map((at, index) => at - tails[index]);
		expect(new Set(gaps).size).toBeGreaterThan(5);
	});

	test('the same seed gives the same draws, from its start at each set; another seed others', () => {
		const spec = { ms: 10, maxMs: 100, tailMs: 500, tailOneIn: 4, seed: 7 };
		const latency = new Latency();
		latency.set(spec);
		const first = [latency.draw(), latency.draw(), latency.draw()];
		latency.set(spec);
		expect([latency.draw(), latency.draw(), latency.draw()]).toEqual(first);
		expect(draws({ ...spec, seed: 8 }, 3)).not.toEqual(first);
	});

	test('a plain ms draws nothing from the generator', () => {
		const random = jest.fn(() => 0.5);
		expect(drawMs({ ms: 20 }, random)).toBe(20);
		expect(random).not.toHaveBeenCalled();
		expect(draws(35, 3)).toEqual([35, 35, 35]);
	});
});

describe('latency over HTTP', () => {
	test('each answer waits its own draw: the first answers of a seed wait what it draws', async () => {
		const spec: LatencySpec = { ms: 50, maxMs: 400, seed: 3 };
		const random = seededRandom(3);
		const expected = [drawMs(spec, random), drawMs(spec, random)];
		emulator.setLatency(spec);
		const took = [await timedCreate(emulator, 'j1'), await timedCreate(emulator, 'j2')];
		expect(took[0]).toBeGreaterThanOrEqual(expected[0] - 2);
		expect(took[1]).toBeGreaterThanOrEqual(expected[1] - 2);
	});

	test('PUT /latency sets a spread, GET reads it, a plain ms reads back as before', async () => {
		const spec = { ms: 20, tailMs: 200, tailOneIn: 10, seed: 2 };
		const set = await control('PUT', '/latency', spec);
		expect(set.status).toBe(200);
		expect(await set.json()).toEqual(spec);
		expect(await (await control('GET', '/latency')).json()).toEqual(spec);
		expect(await (await control('PUT', '/latency', { ms: 5 })).json()).toEqual({ ms: 5 });
		emulator.reset();
		expect(await (await control('GET', '/latency')).json()).toEqual({ ms: 0 });
	});

	test.each([
		[[], /request body must be a JSON object/],
		[{ maxMs: 20 }, /ms must be an integer of 0 or more/],
		[{ ms: 20, maxMs: 10 }, /maxMs must be an integer of at least ms/],
		[{ ms: 20, maxMs: 30.5 }, /maxMs must be an integer of at least ms/],
		[{ ms: 20, tailMs: 200 }, /tailMs and tailOneIn go together/],
		[{ ms: 20, tailOneIn: 10 }, /tailMs and tailOneIn go together/],
		[{ ms: 20, tailMs: -1, tailOneIn: 10 }, /tailMs must be an integer of 0 or more/],
		[{ ms: 20, tailMs: 200, tailOneIn: 0 }, /tailOneIn must be an integer of 1 or more/],
		[{ ms: 20, seed: 'a' }, /seed must be an integer of 0 or more/],
		[{ ms: 20, jitterMs: 5 }, /latency fields are ms, maxMs, tailMs, tailOneIn, seed/],
	])('PUT /latency refuses %j', async (body, message) => {
		const answer = await control('PUT', '/latency', body);
		expect(answer.status).toBe(400);
		expect(((await answer.json()) as { message: string }).message).toMatch(message);
		expect(emulator.latency.current).toEqual({ ms: 0 });
	});
});

describe('latency given at start', () => {
	const spec: LatencySpec = { ms: 0, tailMs: 300, tailOneIn: 1 };
	let started: Emulator;

	beforeAll(async () => {
		started = await startEmulator({ latency: spec, latencyMs: 1000 });
	});
	afterAll(async () => await started.close());

	test('wins over latencyMs, and reset puts it back', async () => {
		expect(started.latency.current).toEqual(spec);
		started.setLatency(0);
		started.reset();
		expect(started.latency.current).toEqual(spec);
		expect(await timedCreate(started, 's1')).toBeGreaterThanOrEqual(298);
	});
});

describe('a capacity model whose service time has a tail', () => {
	test('one request in tailOneIn, drawn with the seed, holds its worker tailMs', async () => {
		const tail: Spread = { ms: 0, tailMs: 500, tailOneIn: 2 };
		emulator.capacity.set({ workers: 1, serviceMs: 0, tailMs: 500, tailOneIn: 2, seed: 5 });
		const random = seededRandom(5);
		const slow = Array.from({ length: 6 }, () => drawMs(tail, random) === 500);
		expect(slow).toContain(true);
		expect(slow).toContain(false);

		const took: number[] = [];
		for (const index of slow.keys()) took.push(await timedCreate(emulator, `t${index}`));

		expect(took.map((ms) => ms >= 450)).toEqual(slow);
		expect(emulator.capacity.current).toMatchObject({ tailMs: 500, tailOneIn: 2, seed: 5 });
	});

	test.each([
		[{ workers: 1, serviceMs: 10, tailMs: 150 }, /tailMs and tailOneIn go together/],
		[{ workers: 1, serviceMs: 10, tailMs: 150, tailOneIn: 0 }, /tailOneIn must be an integer/],
		[{ workers: 1, serviceMs: 10, maxMs: 20 }, /capacity fields are .*tailMs, tailOneIn, seed/],
	])('PUT /capacity refuses %j', async (body, message) => {
		const answer = await control('PUT', '/capacity', body);
		expect(answer.status).toBe(400);
		expect(((await answer.json()) as { message: string }).message).toMatch(message);
	});
});
