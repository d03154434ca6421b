/**
 * Concurrency Auto on a fake clock: runs of the router's own loop (`runEachItem`) whose items go
 * through the transport's own loop (`sendWithRetries`), paced by real shared paces, against a
 * simulated service: a token bucket behind a network with latency and jitter, whose limit may
 * change mid-run. Only the service and the clock are simulated. Runs may share one process (one
 * registry of paces) or each have their own (queue-mode workers).
 */
import { runEachItem } from '../../nodes/DataIntegrationManagement/actions/router';
import { sendWithRetries } from '../../nodes/DataIntegrationManagement/transport';
import {
	failureOfAnswer,
	type FullResponse,
} from '../../nodes/DataIntegrationManagement/transport/failures';
import { PaceRegistry } from '../../nodes/DataIntegrationManagement/transport/shared-pace';
import { FakeClock, seededRandom } from './fake-clock';

/** A stretch of the run during which the service allows `requestsPerSecond`. */
export interface LimitPhase {
	requestsPerSecond: number;
	/** ms from the start the phase lasts until; the last phase lasts to the end. */
	untilMs?: number;
}

/** One execution of the node: `items` items, started `startAtMs` in, in process `process`. */
export interface RunSpec {
	items: number;
	startAtMs?: number;
	process?: number;
}

export interface Scenario {
	runs: RunSpec[];
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

export interface RunOutcome {
	failed: number;
	startedAt: number;
	endedAt: number;
	/** Items that succeeded a second, start to end. */
	rate: number;
}

export interface Outcome {
	runs: RunOutcome[];
	failed: number;
	sent: number;
	refused: number;
	ms: number;
	/** Items that succeeded as a share of what the limit allowed from the first start to the end. */
	shareOfLimit: number;
	/** Jain's fairness index of the runs' rates: 1 when equal, 1/n when one run took all. */
	fairness: number;
	/** Answers that were not 429, and 429s, in each second of the run. */
	perSecond: Array<{ answered: number; refused: number }>;
}

/** The rate the service allows at `ms`. */
const limitAt = (limits: LimitPhase[], ms: number) =>
	(limits.find((phase) => phase.untilMs === undefined || ms < phase.untilMs) ?? limits[0])
		.requestsPerSecond;

/** Requests the limit allowed from `start` to `end` ms (the integral of the rate). */
export function allowedBetween(limits: LimitPhase[], start: number, end: number): number {
	let allowed = 0;
	let from = 0;
	for (const phase of limits) {
		const to = Math.min(end, phase.untilMs ?? Infinity);
		const span = to - Math.max(from, start);
		if (span > 0) allowed += (span / 1000) * phase.requestsPerSecond;
		from = Math.max(from, to);
	}
	return allowed;
}

/** Jain's fairness index: (Σx)² / (n Σx²). */
export const jainIndex = (rates: number[]) =>
	rates.reduce((a, b) => a + b, 0) ** 2 / (rates.length * rates.reduce((a, b) => a + b * b, 0));

/** The service: a token bucket, full at the start, refilled at the rate of the moment. */
function tokenBucket(scenario: Scenario, clock: FakeClock) {
	let tokens = scenario.burst;
	let refilledAt = 0;
	/** Undefined when admitted; else the 429's Retry-After (seconds), when it says one. */
	return (): { retryAfterSeconds?: number } | undefined => {
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
}

/** Runs every run of `scenario` to its end on a fake clock. */
export async function simulate(scenario: Scenario): Promise<Outcome> {
	const clock = new FakeClock();
	const random = seededRandom(scenario.seed);
	const admit = tokenBucket(scenario, clock);
	const oneWay = () => scenario.roundTripMs / 2 + random() * scenario.jitterMs;
	const registries = new Map<number, PaceRegistry>();
	const counts = { sent: 0, refused: 0 };
	const perSecond: Outcome['perSecond'] = [];
	const second = () => (perSecond[Math.floor(clock.now() / 1000)] ??= { answered: 0, refused: 0 });

	/** One request to the service, answered as n8n's HTTP helper returns an answer in full. */
	const send = async (): Promise<FullResponse> => {
		counts.sent++;
		await clock.sleep(oneWay());
		const refusal = admit();
		await clock.sleep(oneWay());
		if (!refusal) {
			second().answered++;
			return { statusCode: 200 };
		}
		counts.refused++;
		second().refused++;
		const retryAfter = refusal.retryAfterSeconds;
		const headers = retryAfter === undefined ? {} : { 'retry-after': String(retryAfter) };
		return { statusCode: 429, headers };
	};

	const run = async (spec: RunSpec): Promise<RunOutcome> => {
		await clock.sleep(spec.startAtMs ?? 0);
		const process = spec.process ?? 0;
		if (!registries.has(process)) registries.set(process, new PaceRegistry(clock));
		const pace = registries.get(process)!.pace('one service, one key').join(Infinity);
		const startedAt = clock.now();
		let failed = 0;
		const runItem = async () => {
			const options = { pacer: pace, clock, random, failureOf: failureOfAnswer };
			await sendWithRetries(send, options, () => new Error('failed')).catch(() => failed++);
		};
		try {
			await runEachItem(spec.items, pace, runItem);
		} finally {
			pace.leave();
		}
		const endedAt = clock.now();
		return {
			failed,
			startedAt,
			endedAt,
			rate: (spec.items - failed) / ((endedAt - startedAt) / 1000),
		};
	};

	const runs = await clock.run(Promise.all(scenario.runs.map(run)));
	return { ...summary(scenario, runs), ...counts, perSecond };
}

/** What the runs of `scenario` came to together. */
function summary(scenario: Scenario, runs: RunOutcome[]) {
	const start = Math.min(...runs.map((outcome) => outcome.startedAt));
	const ms = Math.max(...runs.map((outcome) => outcome.endedAt));
	const items = scenario.runs.reduce((sum, spec) => sum + spec.items, 0);
	const failed = runs.reduce((sum, outcome) => sum + outcome.failed, 0);
	return {
		runs,
		failed,
		ms,
		shareOfLimit: (items - failed) / allowedBetween(scenario.limits, start, ms),
		fairness: jainIndex(runs.map((outcome) => outcome.rate)),
	};
}
