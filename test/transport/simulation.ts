/**
 * The router's loop and the transport's 429 handling around Concurrency Auto, on a fake clock,
 * against a simulated service: a token bucket behind a network with latency and jitter, whose
 * limit may change mid-run.
 */
import {
	AutoConcurrency,
	rateLimitWaitMs,
} from '../../nodes/DataIntegrationManagement/transport/pacer';
import { MAX_CONCURRENCY } from '../../nodes/DataIntegrationManagement/shared/descriptions';
import { FakeClock, seededRandom } from './fake-clock';

/** A stretch of the run during which the service allows `requestsPerSecond`. */
export interface LimitPhase {
	requestsPerSecond: number;
	/** ms from the start the phase lasts until; the last phase lasts to the end. */
	untilMs?: number;
}

export interface Scenario {
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

export interface Outcome {
	failed: number;
	sent: number;
	refused: number;
	ms: number;
	/** Items that succeeded as a share of what the limit allowed over the run. */
	shareOfLimit: number;
	/** Answers that were not 429, and 429s, in each second of the run. */
	perSecond: Array<{ answered: number; refused: number }>;
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
export async function simulate(scenario: Scenario): Promise<Outcome> {
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
	const perSecond: Outcome['perSecond'] = [];
	const second = () => (perSecond[Math.floor(clock.now() / 1000)] ??= { answered: 0, refused: 0 });
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
				second().answered++;
				return true;
			}
			refused++;
			second().refused++;
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
		perSecond,
	};
}
