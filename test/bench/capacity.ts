/**
 * Section 8 of the benchmark: services without a rate limit but with finite capacity
 * (test/emulator/capacity.ts), as a database-backed API is: Tag → Create of ITEMS items with
 * "On Error: Continue" (failed items counted), at Concurrency Auto and Fixed 1 to 64, against
 * load shedding (503 without and with Retry-After), an unbounded queue, and no limit at all.
 * Per cell: the median time, and of any run the most failed items, 503s and requests held open.
 */
import { processPaces } from '../../nodes/DataIntegrationManagement/pacing/shared-pace';
import type { CapacitySpec } from '../emulator';
import {
	AUTO_OPTIONS,
	autoVerdicts,
	fixedSetting,
	measureServices,
	type Setting,
} from './auto-against-fixed';
import { ITEMS, OWNER, RUNS, type BenchContext } from './settings';
import { createTagsOnce } from './tag-creates';
import type { Verdict } from './tools';

interface Service {
	name: string;
	/** What the emulator is set to; undefined: no capacity model (no limit). */
	spec: CapacitySpec | undefined;
}

const SERVICES: Service[] = [
	{
		name: '(a) load shedding: 8 workers, 20 ms each, queue 8, 503 without Retry-After',
		spec: { workers: 8, serviceMs: 20, queue: 8 },
	},
	{
		name: '(b) load shedding: 8 workers, 20 ms each, queue 8, 503 with Retry-After: 1',
		spec: { workers: 8, serviceMs: 20, queue: 8, retryAfterSeconds: 1 },
	},
	{
		name: '(c) unbounded queue: 8 workers, 20 ms each, never 503',
		spec: { workers: 8, serviceMs: 20, queue: null },
	},
	{ name: '(d) no limit (no capacity model)', spec: undefined },
];

const FIXED = [1, 8, 16, 32, 64];
const SETTINGS: Setting[] = [
	{ name: 'Auto', options: AUTO_OPTIONS, runs: RUNS },
	// Fixed 1 takes ITEMS × (latency + service time): one run, to keep the section to minutes.
	...FIXED.map((concurrency) => fixedSetting(concurrency, concurrency === 1 ? 1 : RUNS)),
];

let label = 0;

/** One run from a fresh pace, with the model set again (every worker free, counts at 0). */
async function measureOnce(context: BenchContext, service: Service, setting: Setting) {
	await context.emulator.reset();
	await context.emulator.setCapacity(service.spec);
	processPaces.clear();
	const run = await createTagsOnce(
		context.credentials,
		OWNER,
		`capacity ${++label}`,
		ITEMS,
		setting.options,
	);
	const counts = await context.emulator.capacity();
	return { ms: run.endedAt - run.startedAt, failed: ITEMS - run.succeeded, ...counts };
}

/** Every service at every setting: the report's lines and verdicts. */
export async function measureCapacity(
	context: BenchContext,
): Promise<{ out: string[]; verdicts: Verdict[] }> {
	return await measureServices(context, {
		label: 'capacity',
		heading: `8. Services without a rate limit: ${ITEMS} x tag create, "On Error: Continue", the service's capacity on top of the +latency; Auto: Concurrency Mode Auto, Concurrency not set; median time of ${RUNS} runs, one run of each setting in turn (Fixed 1: one run, it takes ${ITEMS} round trips); failed items, 503s and requests held open: the most of any run`,
		services: SERVICES,
		settingsOf: () => SETTINGS,
		finite: (service) => service.spec !== undefined,
		measure: (service, setting) => measureOnce(context, service, setting),
		verdictsOf: (service, [auto, ...fixed]) =>
			autoVerdicts(`(8) ${service.name.slice(0, 3)} Auto`, auto, fixed, service.spec?.workers),
	});
}
