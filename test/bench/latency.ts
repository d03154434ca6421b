/**
 * Section 9 of the benchmark: services whose answers vary in time (issue 56), Tag → Create of
 * ITEMS items with "On Error: Continue", at Concurrency Auto and Fixed 8 to 64, one run of each
 * setting in turn: answers that take 10 to 100 ms (uniform); a heavy tail (one in ten ten times
 * slower); 16 workers whose service time has that tail, 32 waiting, then 503; and a service that
 * slows down (2 -> 100 ms) or speeds up (100 -> 2 ms) after a first run of FIRST_ITEMS under Auto,
 * against the same base URL and key in this process: the measured run follows it on the same pace
 * (processPaces is not cleared in between), and is compared with Auto in a fresh process
 * (processPaces cleared) and with the fixed settings. The latency is the emulator's
 * (test/emulator/latency.ts), its tail drawn at random from a seed.
 */
import { processPaces } from '../../nodes/DataIntegrationManagement/pacing/shared-pace';
import type { CapacitySpec, LatencySpec } from '../emulator';
import {
	AUTO_OPTIONS,
	autoVerdicts,
	fixedSetting,
	measureServices,
	type Cell,
	type Setting,
} from './auto-against-fixed';
import { LATENCY_ITEMS as ITEMS, LATENCY_MS, OWNER, RUNS, type BenchContext } from './settings';
import { createTagsOnce } from './tag-creates';
import { lower, median, seconds, times, type Verdict } from './tools';

interface Service {
	name: string;
	/** The latency of the measured run ... */
	latency: LatencySpec;
	/** ... and the capacity model's; none when unset. */
	capacity?: CapacitySpec;
	/** The latency a first run under Auto met, in the same process, before it changed. */
	before?: LatencySpec;
	/** Runs of BACK_TO_BACK_ITEMS one right after the other, measured together, instead of one. */
	runs?: number;
}

const BACK_TO_BACK_ITEMS = Math.min(100, ITEMS);

const FIRST_ITEMS = Math.min(100, ITEMS);

const SERVICES: Service[] = [
	{
		name: '(e) jitter: answers in 10 to 100 ms, uniform, no capacity limit',
		latency: { ms: 10, maxMs: 100 },
	},
	{
		name: '(f) heavy tail: 20 ms, one answer in ten 200 ms, no capacity limit',
		latency: { ms: 20, tailMs: 200, tailOneIn: 10 },
	},
	{
		name: `(g) 16 workers x 10 ms, one answer in ten 150 ms, 32 waiting, then 503 (no Retry-After), +${LATENCY_MS} ms`,
		latency: { ms: LATENCY_MS },
		capacity: { workers: 16, serviceMs: 10, tailMs: 150, tailOneIn: 10, queue: 32 },
	},
	{
		name: `(h) slows down: after a run of ${FIRST_ITEMS} at 2 ms, the same base URL and key answer in 100 ms`,
		before: { ms: 2 },
		latency: { ms: 100 },
	},
	{
		name: `(i) speeds up: after a run of ${FIRST_ITEMS} at 100 ms, the same base URL and key answer in 2 ms`,
		before: { ms: 100 },
		latency: { ms: 2 },
	},
	{
		name: `(j) back to back: 10 runs of ${BACK_TO_BACK_ITEMS} one right after the other (a batch loop), answers in 50 to 100 ms`,
		latency: { ms: 50, maxMs: 100 },
		runs: 10,
	},
];

/** Auto's measured run: after the first run where the service changes, on the pace it left. */
const AUTO: Setting = { name: 'Auto', options: AUTO_OPTIONS, runs: RUNS };
const FRESH: Setting = { name: 'Auto, fresh process', options: AUTO_OPTIONS, runs: RUNS };
const FIXED = [8, 16, 32, 64].map((concurrency) => fixedSetting(concurrency, RUNS));
const settingsOf = (service: Service) => [AUTO, ...(service.before ? [FRESH] : []), ...FIXED];

let label = 0;
const createTags = async (context: BenchContext, items: number, setting: Setting) =>
	await createTagsOnce(context.credentials, OWNER, `latency ${++label}`, items, setting.options);

/** One run, from a fresh pace but for Auto's after a first run; counts of the measured run alone. */
async function measureOnce(context: BenchContext, service: Service, setting: Setting) {
	const { emulator } = context;
	await emulator.reset();
	processPaces.clear();
	if (service.before && setting === AUTO) {
		await emulator.setLatency(service.before);
		await createTags(context, FIRST_ITEMS, setting);
	}
	await emulator.setLatency(service.latency);
	await emulator.setCapacity(service.capacity);
	const [items, runs] = service.runs ? [BACK_TO_BACK_ITEMS, service.runs] : [ITEMS, 1];
	const startedAt = Date.now();
	let failed = 0;
	for (let run = 0; run < runs; run++)
		failed += items - (await createTags(context, items, setting)).succeeded;
	const counts = service.capacity ? await emulator.capacity() : { shed: 0, maxOpen: 0 };
	return { ms: Date.now() - startedAt, failed, ...counts };
}

/** After the change, Auto's run on the pace the first run used against a fresh process's. */
function afterChangeVerdict(service: Service, auto: Cell, fresh: Cell): Verdict {
	const ratio = median(auto.times) / median(fresh.times);
	return [
		`(9) ${service.name.slice(0, 3)} Auto after the change / Auto in a fresh process (${seconds(median(fresh.times))})`,
		`${seconds(median(auto.times))}, ${times(ratio)}`,
		'<= 1.25x',
		ratio <= 1.25,
		lower(`(9) ${service.name.slice(0, 3)} after the change / fresh`, ratio),
	];
}

function verdictsOf(service: Service, cells: Cell[]): Verdict[] {
	const auto = cells[0];
	const fixed = cells.filter((cell) => cell.setting.name.startsWith('Fixed'));
	const name = `(9) ${service.name.slice(0, 3)} Auto`;
	const verdicts = autoVerdicts(name, auto, fixed, service.capacity?.workers);
	// The target is for the slowdown; after a speed-up the table shows the same ratio.
	if (service.before && service.before.ms < service.latency.ms)
		verdicts.push(afterChangeVerdict(service, auto, cells[1]));
	return verdicts;
}

/** Every service at every setting: the report's lines and verdicts. */
export async function measureLatencyServices(
	context: BenchContext,
): Promise<{ out: string[]; verdicts: Verdict[] }> {
	return await measureServices(context, {
		label: 'latency',
		heading: `9. Services whose answers vary in time: ${ITEMS} x tag create, "On Error: Continue", the latency below instead of +${LATENCY_MS} ms; Auto: Concurrency Mode Auto, Concurrency not set, in (h) and (i) after a first run of ${FIRST_ITEMS} on the same pace, "Auto, fresh process" without it; median time of ${RUNS} runs, one run of each setting in turn; failed items, 503s and requests held open: the most of any run`,
		services: SERVICES,
		settingsOf,
		finite: (service) => service.capacity !== undefined,
		measure: (service, setting) => measureOnce(context, service, setting),
		verdictsOf,
	});
}
