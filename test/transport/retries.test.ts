/**
 * The transport's one loop (sendWithRetries, transport/index.ts) on the fake clock: the time each
 * attempt may take before the caller's deadline, which failures are waited out and which are
 * thrown at once, and that no wait outlasts the deadline. Each row a service's answers in turn.
 */
import { sendWithRetries } from '../../nodes/DataIntegrationManagement/transport';
import {
	failureOfAnswer,
	type FullResponse,
	type RequestFailure,
} from '../../nodes/DataIntegrationManagement/transport/failures';
import {
	BACKOFF_RETRIES,
	RETRY_AFTER_WAITS,
	type Pacer,
} from '../../nodes/DataIntegrationManagement/pacing/pacer';
import { FakeClock } from '../helpers/fake-clock';

/**
 * An answer the fake service gives after 20 ms: ok, or an HTTP status (with Retry-After); or no
 * answer, the request ended by a network code (a timeout's, ECONNABORTED, at once).
 */
type Reply = 'ok' | { status: number; retryAfter?: number } | { networkCode: string };

/** What n8n's HTTP helper returns for a status, asked for the full response whatever its status. */
const httpAnswer = (status: number, retryAfter?: number): FullResponse => ({
	statusCode: status,
	headers: retryAfter === undefined ? {} : { 'retry-after': String(retryAfter) },
});

/** Sends through the loop to a service answering `replies` in turn; records what happened. */
async function send(replies: Reply[], deadline?: number) {
	const clock = new FakeClock();
	const seen = {
		timeouts: [] as Array<number | undefined>,
		answered: [] as number[],
		waited: [] as number[],
		overloaded: [] as number[],
	};
	const pacer: Pacer = {
		retryAfterWaits: RETRY_AFTER_WAITS,
		limitsInFlight: false,
		max: 1,
		answered: (ms) => seen.answered.push(ms),
		rateLimited: async (waitMs) => (seen.waited.push(waitMs), await clock.sleep(waitMs)),
		overloaded: async (waitMs) => (
			seen.waited.push(waitMs),
			seen.overloaded.push(waitMs),
			await clock.sleep(waitMs)
		),
	};
	let attempt = 0;
	const sending = sendWithRetries(
		async (timeoutMs) => {
			seen.timeouts.push(timeoutMs);
			await clock.sleep(20);
			const reply = replies[Math.min(attempt++, replies.length - 1)];
			if (reply === 'ok') return { statusCode: 200, body: 'answer' };
			if ('networkCode' in reply)
				throw Object.assign(new Error('no answer'), { code: reply.networkCode });
			return httpAnswer(reply.status, reply.retryAfter);
		},
		{ pacer, kind: 'POST tags', deadline, clock, random: () => 0.5, failureOf: failureOfAnswer },
		(failure: RequestFailure, ended: { deadlineReached: boolean; waitMs?: number }) =>
			Object.assign(new Error('failed'), { status: failure.status, ...ended }),
	);
	const outcome = await clock.run(
		sending.then(
			(answer) => ({ answer: answer.body }),
			(error: unknown) => ({ error }),
		),
	);
	return { ...seen, ...outcome, endedAt: clock.now() };
}

const tooMany = (retryAfter?: number): Reply => ({ status: 429, retryAfter });

describe('sendWithRetries', () => {
	it('returns the answer and tells the pacer it was answered, after how long', async () => {
		expect(await send(['ok'])).toEqual({
			timeouts: [undefined],
			answered: [20],
			waited: [],
			overloaded: [],
			answer: 'answer',
			endedAt: 20,
		});
	});

	it.each([
		['the time left before the deadline', 1000, 1000],
		['at least 1 ms, the deadline gone by', -5, 1],
	])('gives the attempt %s as its timeout', async (_title, deadline, timeout) => {
		expect((await send(['ok'], deadline)).timeouts).toEqual([timeout]);
	});

	it('waits out a 429 as long as Retry-After says, then sends again', async () => {
		const outcome = await send([tooMany(2), 'ok'], 5000);
		// The answer's round trip is the request sent again's own, not counted from the first.
		expect(outcome).toMatchObject({
			waited: [2000],
			answer: 'answer',
			answered: [20],
			endedAt: 2040,
		});
		expect(outcome.timeouts).toEqual([5000, 5000 - 2020]);
	});

	it.each([
		['ends past the deadline: thrown at once', 2019, true],
		['ends exactly at the deadline: thrown at once', 2020, true],
		['ends before the deadline: waited out', 2021, false],
	])('a 429 whose wait %s', async (_title, deadline, thrown) => {
		const outcome = await send([tooMany(2), 'ok'], deadline);
		if (thrown) {
			// The wait it did not wait is handed on, to be declared for n8n's scheduler.
			expect(outcome).toMatchObject({
				error: { status: 429, deadlineReached: true, waitMs: 2000 },
				waited: [],
			});
			expect(outcome.endedAt).toBe(20);
		} else {
			expect(outcome).toMatchObject({ answer: 'answer', waited: [2000] });
		}
	});

	it.each([
		['its timeout, with a deadline: the deadline reached', 'ECONNABORTED', 1000, true],
		['its timeout, without a deadline: not reached', 'ECONNABORTED', undefined, false],
		['another network failure, with a deadline: not reached', 'ECONNRESET', 1000, false],
	])('throws a request ended by %s', async (_title, networkCode, deadline, reached) => {
		const outcome = await send([{ networkCode }, 'ok'], deadline);
		expect(outcome).toMatchObject({ error: { deadlineReached: reached }, waited: [] });
	});

	it.each([400, 404, 500, 501, 502, 504])(
		'throws a %i at once, the deadline not reached: only a 429 or 503 says the service did not act',
		async (status) => {
			const outcome = await send([{ status }, 'ok'], 10_000);
			expect(outcome).toMatchObject({ error: { status, deadlineReached: false }, waited: [] });
			expect((outcome as { error?: { waitMs?: number } }).error?.waitMs).toBeUndefined();
		},
	);

	it('tells the pacer of no answer that failed', async () => {
		expect((await send([{ status: 500 }])).answered).toEqual([]);
	});

	it('waits out a 503 as long as Retry-After says, as overload, then sends again', async () => {
		const outcome = await send([{ status: 503, retryAfter: 2 }, 'ok'], 5000);
		expect(outcome).toMatchObject({ overloaded: [2000], answer: 'answer', endedAt: 2040 });
	});

	it('backs off from 503s without Retry-After, told to the pacer as overload, then throws the last', async () => {
		const outcome = await send([{ status: 503 }]);
		// random() is 0.5: half of 1, 2, 4, 8 and 8 s.
		expect(outcome.overloaded).toEqual([500, 1000, 2000, 4000, 4000]);
		expect(outcome).toMatchObject({ error: { status: 503, deadlineReached: false } });
	});

	it('waits out 429s and 503s in turn, counting both toward the same bound', async () => {
		const outcome = await send([tooMany(1), { status: 503, retryAfter: 1 }]);
		expect(outcome.waited).toEqual(Array(RETRY_AFTER_WAITS).fill(1000));
		// One 429, then 503s: three waits in all, two of them for overload.
		expect(outcome.overloaded).toEqual([1000, 1000]);
		expect(outcome).toMatchObject({ error: { status: 503 } });
	});

	it('throws a 503 whose wait would end past the deadline at once, with the wait', async () => {
		const outcome = await send([{ status: 503, retryAfter: 3 }, 'ok'], 2000);
		expect(outcome).toMatchObject({
			error: { status: 503, deadlineReached: true, waitMs: 3000 },
			waited: [],
		});
	});

	it('throws a 429 whose Retry-After is longer than it waits at once, with no wait of its own', async () => {
		const outcome = await send([tooMany(61), 'ok']);
		expect(outcome).toMatchObject({
			error: { status: 429, deadlineReached: false },
			waited: [],
		});
		expect((outcome as { error?: { waitMs?: number } }).error?.waitMs).toBeUndefined();
	});

	it('waits out as many 429s with Retry-After as the pacer allows, then throws the last', async () => {
		const outcome = await send([tooMany(1)]);
		expect(outcome.waited).toEqual(Array(RETRY_AFTER_WAITS).fill(1000));
		expect(outcome).toMatchObject({ error: { status: 429, deadlineReached: false } });
	});

	it('backs off from 429s without Retry-After, then throws the last', async () => {
		const outcome = await send([tooMany()]);
		expect(outcome.waited).toHaveLength(BACKOFF_RETRIES);
		expect(outcome).toMatchObject({ error: { status: 429, deadlineReached: false } });
	});
});
