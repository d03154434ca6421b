/* eslint-disable no-console -- test tooling: prints the simulated figures; never part of the published package */
/**
 * Concurrency Auto on a fake clock: the router's loop and the transport's 429 handling, driven
 * against a simulated service (a token bucket behind a network with latency and jitter) whose
 * limit may change mid-run. Each run is the same every time and takes milliseconds. It checks the
 * targets `npm run bench` measures in real time: no failed item, at least 90% of the limit, at
 * most 10% of requests answered 429.
 */
import {
	AutoConcurrency,
	BACKOFF_CAP_MS,
	BACKOFF_FIRST_MS,
	BACKOFF_MAX_TOTAL_MS,
	BACKOFF_RETRIES,
	MAX_RETRY_AFTER_SECONDS,
	plainPacer,
	rateLimitWaitMs,
} from '../../nodes/DataIntegrationManagement/transport/pacer';
import { FakeClock } from './fake-clock';
import { simulate, type Outcome, type Scenario } from './simulation';

const percent = (share: number) => `${(share * 100).toFixed(0)}%`;

/** The benchmark's targets. */
function expectTargets(outcome: Outcome) {
	expect(outcome.failed).toBe(0);
	expect(outcome.shareOfLimit).toBeGreaterThanOrEqual(0.9);
	expect(outcome.refused / outcome.sent).toBeLessThanOrEqual(0.1);
}

const SCENARIOS: Record<string, Scenario> = {
	'50/s, burst 10 (the benchmark)': {
		items: 600,
		limits: [{ requestsPerSecond: 50 }],
		burst: 10,
		roundTripMs: 20,
		jitterMs: 5,
		seed: 1,
	},
	'400/s, burst 10 (the benchmark)': {
		items: 600,
		limits: [{ requestsPerSecond: 400 }],
		burst: 10,
		roundTripMs: 20,
		jitterMs: 5,
		seed: 2,
	},
	'150/s over a slow network (80 ms, up to 20 ms more each way)': {
		items: 3000,
		limits: [{ requestsPerSecond: 150 }],
		burst: 5,
		roundTripMs: 80,
		jitterMs: 20,
		seed: 3,
	},
	'100/s, then 300/s from 15 s, then 60/s from 30 s': {
		items: 6900,
		limits: [
			{ requestsPerSecond: 100, untilMs: 15_000 },
			{ requestsPerSecond: 300, untilMs: 30_000 },
			{ requestsPerSecond: 60 },
		],
		burst: 10,
		roundTripMs: 20,
		jitterMs: 10,
		seed: 4,
	},
	'50/s, 429s without Retry-After': {
		items: 600,
		limits: [{ requestsPerSecond: 50 }],
		burst: 10,
		roundTripMs: 20,
		jitterMs: 5,
		omitRetryAfter: true,
		seed: 5,
	},
};

describe('Concurrency Auto, simulated on a fake clock', () => {
	it.each(Object.entries(SCENARIOS))(
		'%s: no failed item, at least 90% of the limit, at most 10% of requests into a 429',
		async (name, scenario) => {
			const outcome = await simulate(scenario);

			console.log(
				`${name}: ${percent(outcome.shareOfLimit)} of the limit, ${outcome.refused} x 429 of ${outcome.sent} requests (${percent(outcome.refused / outcome.sent)}), ${outcome.failed} failed, ${(outcome.ms / 1000).toFixed(1)} s simulated`,
			);
			expectTargets(outcome);
		},
	);

	it.each(['50/s, burst 10 (the benchmark)', '400/s, burst 10 (the benchmark)'])(
		'%s, over 40 seeds of latency jitter: no failed item and at most 10%% of requests into a 429 in every run, at least 90%% of the limit in 9 runs of 10',
		async (name) => {
			const outcomes = [];
			for (let seed = 1; seed <= 40; seed++)
				outcomes.push(await simulate({ ...SCENARIOS[name], seed }));
			const shares = outcomes.map((outcome) => outcome.shareOfLimit).sort((a, b) => a - b);
			console.log(
				`${name}, 40 seeds: share of the limit lowest ${percent(shares[0])}, median ${percent(shares[20])}; ${shares.filter((share) => share < 0.9).length} runs under 90%`,
			);
			for (const outcome of outcomes) {
				expect(outcome.failed).toBe(0);
				expect(outcome.refused / outcome.sent).toBeLessThanOrEqual(0.1);
			}
			expect(shares.filter((share) => share >= 0.9).length).toBeGreaterThanOrEqual(36);
		},
	);

	it('finds a limit that rose or fell within 3 s', async () => {
		const { perSecond } = await simulate(
			SCENARIOS['100/s, then 300/s from 15 s, then 60/s from 30 s'],
		);
		/** Answers a second, on average, over seconds `from` to `to` (excluded) of the run. */
		const answeredPerSecond = (from: number, to: number) =>
			perSecond.slice(from, to).reduce((sum, second) => sum + second.answered, 0) / (to - from);

		expect(answeredPerSecond(3, 15)).toBeGreaterThanOrEqual(0.9 * 100);
		expect(answeredPerSecond(18, 30)).toBeGreaterThanOrEqual(0.9 * 300);
		expect(answeredPerSecond(33, perSecond.length - 1)).toBeGreaterThanOrEqual(0.9 * 60);
	});

	it('is the same run every time', async () => {
		const scenario = SCENARIOS['50/s, burst 10 (the benchmark)'];
		expect(await simulate(scenario)).toEqual(await simulate(scenario));
	});
});

describe('the wait before a request answered 429 is sent again', () => {
	const highest = () => 1 - Number.EPSILON;

	it('without Retry-After: a capped exponential backoff with full jitter, then the error', () => {
		const longest = Array.from({ length: BACKOFF_RETRIES + 1 }, (_, retries) =>
			rateLimitWaitMs(undefined, retries, plainPacer, highest),
		);
		expect(longest.map((ms) => ms && Math.round(ms))).toEqual([
			BACKOFF_FIRST_MS,
			2 * BACKOFF_FIRST_MS,
			4 * BACKOFF_FIRST_MS,
			BACKOFF_CAP_MS,
			BACKOFF_CAP_MS,
			undefined,
		]);
		expect(BACKOFF_MAX_TOTAL_MS).toBe(23_000);
		expect(rateLimitWaitMs(undefined, 0, plainPacer, () => 0)).toBe(0);
		expect(rateLimitWaitMs(undefined, 2, plainPacer, () => 0.5)).toBe(2 * BACKOFF_FIRST_MS);
	});

	it('with Retry-After: that long, as often as the pacer allows, and not above the longest we honour', () => {
		const auto = new AutoConcurrency(8, new FakeClock());
		expect(rateLimitWaitMs(2, 0, plainPacer)).toBe(2000);
		expect(rateLimitWaitMs(0, plainPacer.rateLimitRetries - 1, plainPacer)).toBe(0);
		expect(rateLimitWaitMs(0, plainPacer.rateLimitRetries, plainPacer)).toBeUndefined();
		expect(rateLimitWaitMs(0, plainPacer.rateLimitRetries, auto)).toBe(0);
		expect(rateLimitWaitMs(MAX_RETRY_AFTER_SECONDS + 1, 0, plainPacer)).toBeUndefined();
	});
});
