/**
 * Concurrency Auto on a fake clock: runs of the router's own loop (`runEachItem`) whose items go
 * through the transport's own loop (`sendWithRetries`), paced by real shared paces, against a
 * simulated service behind a network (./simulated-service.ts): round trips with jitter or a heavy
 * tail, a token bucket whose limit may change mid-run, a service of finite capacity (workers, a
 * queue, 503 beyond it). Only the service and the clock are simulated. Runs may share one process
 * (one registry of paces) or each have their own (queue-mode workers), and a run may use
 * Concurrency Fixed instead. A scenario may follow another on the same processes (`Processes`):
 * same clock, same paces, another service (one that slowed down or sped up).
 */
import { runEachItem } from '../../nodes/DataIntegrationManagement/actions/router';
import { FixedConcurrency } from '../../nodes/DataIntegrationManagement/actions/fixedConcurrency';
import { RETRY_AFTER_WAITS, type Pacer } from '../../nodes/DataIntegrationManagement/pacing/pacer';
import { sendWithRetries } from '../../nodes/DataIntegrationManagement/transport';
import {
	failureOfAnswer,
	type FullResponse,
} from '../../nodes/DataIntegrationManagement/transport/failures';
import {
	openEndedTurn,
	PaceRegistry,
} from '../../nodes/DataIntegrationManagement/pacing/shared-pace';
import { FakeClock, seededRandom } from '../helpers/fake-clock';
import {
	allowedBetween,
	finiteCapacity,
	network,
	tokenBucket,
	type ServiceSpec,
} from './simulated-service';

export { allowedBetween, type CapacitySpec, type LimitPhase } from './simulated-service';

/**
 * One execution of the node: `items` items, started `startAtMs` in, in process `process`, under
 * Concurrency Auto (capped at `max`, else its default), or Fixed at `fixed`.
 */
export interface RunSpec {
	items: number;
	startAtMs?: number;
	process?: number;
	max?: number;
	fixed?: number;
	/**
	 * Instead, `items` requests one after another that say nothing of what follows them, as the
	 * trigger's pages or a picker's request (transport/index.ts): each in the open-ended lane, its
	 * wait and retries within `budgetMs` from the first (a picker's OPEN_ENDED_WAIT_MS for its turn).
	 */
	openEnded?: { budgetMs?: number };
}

export interface Scenario extends ServiceSpec {
	runs: RunSpec[];
	seed: number;
}

export interface RunOutcome {
	failed: number;
	/** ms from the start of the scenario. */
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
	/** Requests answered 503, and the most the service held at once (acting or queued). */
	shed: number;
	maxOpen: number;
	/** From the start of the scenario to the end of its last run. */
	ms: number;
	/** Items that succeeded as a share of what the limit allowed from the first start to the end. */
	shareOfLimit: number;
	/** Jain's fairness index of the runs' rates: 1 when equal, 1/n when one run took all. */
	fairness: number;
	/** Answers that were not 429, and 429s, in each second of the run. */
	perSecond: Array<{ answered: number; refused: number }>;
}

/**
 * The n8n processes of a simulation, by number, each with its registry of paces, on one clock. A
 * scenario simulated on them starts where the one before ended, on the paces it left.
 */
export class Processes {
	readonly clock = new FakeClock();
	private readonly registries = new Map<number, PaceRegistry>();

	/** The registry of paces of process `process`, made when missing. */
	registry(process: number): PaceRegistry {
		if (!this.registries.has(process)) this.registries.set(process, new PaceRegistry(this.clock));
		return this.registries.get(process)!;
	}
}

/** What every run of a simulation paces under: one service, one key. */
const KEY = 'one service, one key';

/** Jain's fairness index: (Σx)² / (n Σx²). */
export const jainIndex = (rates: number[]) =>
	rates.reduce((a, b) => a + b, 0) ** 2 / (rates.length * rates.reduce((a, b) => a + b * b, 0));

/**
 * The service of `scenario` on `clock` from now on: `send` makes one request, answered as n8n's
 * HTTP helper returns an answer in full; what it answered is counted.
 */
function serviceOf(scenario: Scenario, clock: FakeClock, random: () => number) {
	const origin = clock.now();
	const elapsed = () => clock.now() - origin;
	const admit = tokenBucket(scenario, elapsed);
	const capacity = finiteCapacity(scenario.capacity, clock, random);
	const roundTrip = network(scenario, random);
	const counts = { sent: 0, refused: 0 };
	const perSecond: Outcome['perSecond'] = [];
	const second = () => (perSecond[Math.floor(elapsed() / 1000)] ??= { answered: 0, refused: 0 });
	const send = async (): Promise<FullResponse> => {
		counts.sent++;
		const oneWay = roundTrip();
		await clock.sleep(oneWay());
		const refusal = admit();
		const served = refusal ? undefined : await capacity.serve();
		await clock.sleep(oneWay());
		if (served === 'served') {
			second().answered++;
			return { statusCode: 200 };
		}
		if (served === 'shed') return withRetryAfter(503, scenario.capacity!.retryAfterSeconds);
		counts.refused++;
		second().refused++;
		return withRetryAfter(429, refusal!.retryAfterSeconds);
	};
	return { send, elapsed, counts, perSecond, held: capacity.held };
}

/**
 * Runs every run of `scenario` to its end on a fake clock, in fresh processes unless `processes`
 * are given (then on their clock and paces, from where they are).
 */
export async function simulate(scenario: Scenario, processes = new Processes()): Promise<Outcome> {
	const { clock } = processes;
	const random = seededRandom(scenario.seed);
	const service = serviceOf(scenario, clock, random);

	const run = async (spec: RunSpec): Promise<RunOutcome> => {
		await clock.sleep(spec.startAtMs ?? 0);
		if (spec.openEnded) return await openEnded(spec, processes, service.send, random);
		// Fixed keeps out of the shared pace, as in the node.
		const pace =
			spec.fixed === undefined
				? processes
						.registry(spec.process ?? 0)
						.pace(KEY)
						.join(spec.max)
				: undefined;
		const [concurrency, pacer] = pace ? [pace, pace] : fixed(spec.fixed!, clock);
		const startedAt = service.elapsed();
		let failed = 0;
		const runItem = async () => {
			const options = { pacer, kind: 'POST tags', clock, random, failureOf: failureOfAnswer };
			await sendWithRetries(service.send, options, () => new Error('failed')).catch(() => failed++);
		};
		try {
			await runEachItem(spec.items, concurrency, runItem, undefined, clock);
		} finally {
			pace?.leave();
		}
		const endedAt = service.elapsed();
		return {
			failed,
			startedAt,
			endedAt,
			rate: (spec.items - failed) / ((endedAt - startedAt) / 1000),
		};
	};

	const runs = await clock.run(Promise.all(scenario.runs.map(run)));
	const { shed, most: maxOpen } = service.held;
	const { counts, perSecond } = service;
	return { ...summary(scenario, runs), ...counts, shed, maxOpen, perSecond };
}

/** `spec`'s open-ended requests, in turn, as transport/index.ts sends them: what came of them. */
async function openEnded(
	spec: RunSpec,
	processes: Processes,
	send: () => Promise<FullResponse>,
	random: () => number,
): Promise<RunOutcome> {
	const { clock } = processes;
	const startedAt = clock.now();
	const { budgetMs } = spec.openEnded!;
	const deadline = budgetMs === undefined ? undefined : startedAt + budgetMs;
	let failed = 0;
	for (let request = 0; request < spec.items; request++) {
		const pace = processes.registry(spec.process ?? 0).pace(KEY);
		const slot = await openEndedTurn(pace, deadline, clock.now()).catch(() => undefined);
		if (!slot) {
			failed++;
			continue;
		}
		const options = { pacer: slot, kind: 'GET logs', clock, random, deadline };
		await sendWithRetries(send, { ...options, failureOf: failureOfAnswer }, () => new Error())
			.catch(() => failed++)
			.finally(() => slot.leave());
	}
	const endedAt = clock.now();
	return {
		failed,
		startedAt,
		endedAt,
		rate: (spec.items - failed) / ((endedAt - startedAt) / 1000),
	};
}

/** An error answer, with Retry-After when the service says one. */
const withRetryAfter = (statusCode: number, seconds: number | undefined): FullResponse => ({
	statusCode,
	headers: seconds === undefined ? {} : { 'retry-after': String(seconds) },
});

/** Concurrency Fixed at `limit`, and its pacer (plainPacer), on the simulation's clock. */
const fixed = (limit: number, clock: FakeClock): [FixedConcurrency, Pacer] => [
	new FixedConcurrency(limit, clock),
	{
		retryAfterWaits: RETRY_AFTER_WAITS,
		limitsInFlight: false,
		max: limit,
		answered: () => {},
		rateLimited: async (waitMs) => await clock.sleep(waitMs),
		overloaded: async (waitMs) => await clock.sleep(waitMs),
	},
];

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
