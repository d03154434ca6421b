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
import { MAX_CONCURRENCY } from '../../nodes/DataIntegrationManagement/shared/descriptions';
import { FakeClock, seededRandom } from './fake-clock';

/** A stretch of the run during which the service allows `requestsPerSecond`. */
interface LimitPhase {
	requestsPerSecond: number;
	/** ms from the start the phase lasts until; the last phase lasts to the end. */
	untilMs?: number;
}

interface Scenario {
	items: number;
	limits: LimitPhase[];
	/** Most tokens the bucket holds. */
	burst: number;
	/** The fastest round trip, ms (the service's own time included) ... */
	roundTripMs: number;
	/** ... and the most each way may add at random. */
	jitterMs: number;
	/** The service answers 429 without Retry-After. */
	omitRetryAfter?: boolean;
	seed: number;
}

interface Outcome {
	failed: number;
	sent: number;
	refused: number;
	ms: number;
	/** Items that succeeded as a share of what the limit allowed over the run. */
	shareOfLimit: number;
}

/** The rate the service allows at `ms`. */
const limitAt = (limits: LimitPhase[], ms: number) =>
	(limits.find((phase) => phase.untilMs === undefined || ms < phase.untilMs) ?? limits[0])
		.requestsPerSecond;

/** Requests the limit allowed from 0 to `ms` (the integral of the rate). */
function allowedUntil(limits: LimitPhase[], ms: number): number {
	let allowed = 0;
	let from = 0;
	for (const phase of limits) {
		const to = Math.min(ms, phase.untilMs ?? Infinity);
		if (to > from) allowed += ((to - from) / 1000) * phase.requestsPerSecond;
		from = Math.max(from, to);
	}
	return allowed;
}

/** Runs `scenario.items` items under Auto on a fake clock, as the router and transport do. */
async function simulate(scenario: Scenario): Promise<Outcome> {
	const clock = new FakeClock();
	const random = seededRandom(scenario.seed);
	const pacer = new AutoConcurrency(MAX_CONCURRENCY, clock);
	const oneWay = () => scenario.roundTripMs / 2 + random() * scenario.jitterMs;

	// The service: a token bucket, full at the start, refilled at the rate of the moment.
	let tokens = scenario.burst;
	let refilledAt = 0;
	const admit = (): { retryAfterSeconds?: number } | undefined => {
		const now = clock.now();
		const rate = limitAt(scenario.limits, now);
		tokens = Math.min(scenario.burst, tokens + ((now - refilledAt) / 1000) * rate);
		refilledAt = now;
		if (tokens >= 1) {
			tokens--;
			return undefined;
		}
		if (scenario.omitRetryAfter) return {};
		return { retryAfterSeconds: Math.max(1, Math.ceil((1 - tokens) / rate)) };
	};

	let sent = 0;
	let refused = 0;
	/** One item's request, as the transport sends it: answers and 429s reported to the pacer. */
	const sendItem = async (): Promise<boolean> => {
		for (let retries = 0; ; retries++) {
			const sentAt = clock.now();
			sent++;
			await clock.sleep(oneWay());
			const refusal = admit();
			await clock.sleep(oneWay());
			if (!refusal) {
				pacer.answered(clock.now() - sentAt);
				return true;
			}
			refused++;
			const waitMs = rateLimitWaitMs(refusal.retryAfterSeconds, retries, pacer, random);
			if (waitMs === undefined) return false;
			await pacer.rateLimited(waitMs, clock.now() - sentAt);
		}
	};

	// The router's loop: items start in order, as the pacer allows.
	const run = async () => {
		let failed = 0;
		const running: Array<Promise<void>> = [];
		for (let item = 0; item < scenario.items; item++) {
			await pacer.start();
			running.push(
				sendItem().then((succeeded) => {
					if (!succeeded) failed++;
					pacer.finish();
				}),
			);
		}
		await Promise.all(running);
		return failed;
	};

	const failed = await clock.run(run());
	const ms = clock.now();
	return {
		failed,
		sent,
		refused,
		ms,
		shareOfLimit: (scenario.items - failed) / allowedUntil(scenario.limits, ms),
	};
}

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
	'150/s over a slow, uneven network (80 ms, up to 40 ms more each way)': {
		items: 1500,
		limits: [{ requestsPerSecond: 150 }],
		burst: 5,
		roundTripMs: 80,
		jitterMs: 40,
		seed: 3,
	},
	'100/s, then 300/s from 5 s, then 60/s from 10 s': {
		items: 2500,
		limits: [
			{ requestsPerSecond: 100, untilMs: 5000 },
			{ requestsPerSecond: 300, untilMs: 10_000 },
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

	it('is the same run every time', async () => {
		const scenario = SCENARIOS['100/s, then 300/s from 5 s, then 60/s from 10 s'];
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
