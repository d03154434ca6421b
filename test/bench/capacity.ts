/**
 * Section 8 of the benchmark: services without a rate limit but with finite capacity
 * (test/emulator/capacity.ts), as a database-backed API is: Tag → Create of ITEMS items with
 * "On Error: Continue" (failed items counted), at Concurrency Auto and Fixed 1 to 64, against
 * load shedding (503 without and with Retry-After), an unbounded queue, and no limit at all.
 * Per cell: the median time, and of any run the most failed items, 503s and requests held open.
 */
import type { INodeParameters } from 'n8n-workflow';

import { processPaces } from '../../nodes/DataIntegrationManagement/transport/shared-pace';
import type { CapacitySpec } from '../emulator';
import { ITEMS, OWNER, RUNS, WARM_UP_ITEMS, type BenchContext } from './settings';
import { createTagsOnce } from './tag-creates';
import {
	interleaved,
	median,
	progress,
	runsInSeconds,
	seconds,
	table,
	times,
	type Verdict,
} from './tools';

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

interface Setting {
	/** "Auto": Concurrency Mode Auto, Concurrency not set; "Fixed n": Concurrency Mode Fixed, n. */
	name: string;
	options: INodeParameters;
	/** Fixed 1 takes ITEMS × (latency + service time): one run, to keep the section to minutes. */
	runs: number;
}

const FIXED = [1, 8, 16, 32, 64];
const SETTINGS: Setting[] = [
	{ name: 'Auto', options: { concurrencyMode: 'auto' }, runs: RUNS },
	...FIXED.map((concurrency) => ({
		name: `Fixed ${concurrency}`,
		options: { concurrencyMode: 'fixed', concurrency },
		runs: concurrency === 1 ? 1 : RUNS,
	})),
];

interface Cell {
	service: Service;
	setting: Setting;
	times: number[];
	/** The most of any run. */
	failed: number;
	shed: number;
	maxOpen: number;
}

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

/** Every setting against `service`, one run of each in turn: a cell a setting. */
async function measureService(context: BenchContext, service: Service): Promise<Cell[]> {
	const all = await interleaved(
		SETTINGS,
		(setting) => setting.runs,
		async (setting, run) => {
			const last = await measureOnce(context, service, setting);
			progress(
				`capacity ${service.name.slice(0, 3)}, ${setting.name} run ${run}/${setting.runs}: ${seconds(last.ms)}, ${last.failed} failed, ${last.shed} x 503, ${last.maxOpen} open at most`,
			);
			return last;
		},
	);
	return SETTINGS.map((setting, index) => {
		const runs = all[index];
		const most = (key: 'failed' | 'shed' | 'maxOpen') => Math.max(...runs.map((one) => one[key]));
		return {
			service,
			setting,
			times: runs.map((one) => one.ms),
			failed: most('failed'),
			shed: most('shed'),
			maxOpen: most('maxOpen'),
		};
	});
}

/** Auto against the Fixed settings of one service: no failures where Fixed has none, its speed, what it holds open. */
function verdicts(service: Service, cells: Cell[]): Verdict[] {
	const [auto, ...fixed] = cells;
	const name = `(8) ${service.name.slice(0, 3)} Auto`;
	const clean = fixed.filter((cell) => cell.failed === 0);
	const best = clean.reduce<Cell | undefined>(
		(a, b) => (a && median(a.times) <= median(b.times) ? a : b),
		undefined,
	);
	const ratio = best && median(auto.times) / median(best.times);
	const out: Verdict[] = [
		[
			`${name}: failed items (Fixed with none: ${clean.map((cell) => cell.setting.name).join(', ') || 'none'})`,
			String(auto.failed),
			'0',
			clean.length > 0 ? auto.failed === 0 : undefined,
		],
		[
			`${name}: time / best Fixed without failures${best ? ` (${best.setting.name}, ${seconds(median(best.times))})` : ''}`,
			ratio === undefined ? 'n/a' : `${seconds(median(auto.times))}, ${times(ratio)}`,
			'<= 1.11x (90% of its speed)',
			ratio === undefined ? undefined : ratio <= 1 / 0.9,
		],
	];
	if (service.spec)
		out.push([
			`${name}: most requests the service held open`,
			String(auto.maxOpen),
			`<= ${4 * service.spec.workers} (4 x workers)`,
			auto.maxOpen <= 4 * service.spec.workers,
		]);
	return out;
}

function report(cells: Cell[]): string[] {
	const out = [
		'',
		`8. Services without a rate limit: ${ITEMS} x tag create, "On Error: Continue", the service's capacity on top of the +latency; Auto: Concurrency Mode Auto, Concurrency not set; median time of ${RUNS} runs, one run of each setting in turn (Fixed 1: one run, it takes ${ITEMS} round trips); failed items, 503s and requests held open: the most of any run`,
	];
	for (const service of SERVICES) {
		out.push(`  ${service.name}`);
		const rows = cells.filter((cell) => cell.service === service);
		out.push(
			table(
				[
					['Concurrency', 'Time', 'Runs (s)', 'Failed items', '503s answered', 'Most held open'],
					...rows.map((cell) => [
						cell.setting.name,
						seconds(median(cell.times)),
						runsInSeconds(cell.times),
						String(cell.failed),
						String(cell.shed),
						service.spec ? String(cell.maxOpen) : 'n/a',
					]),
				],
				'    ',
			),
		);
	}
	return out;
}

/** Every service at every setting: the report's lines and verdicts. */
export async function measureCapacity(
	context: BenchContext,
): Promise<{ out: string[]; verdicts: Verdict[] }> {
	// Warm-up: the first runs compile n8n-core's and the nodes' code paths.
	await context.emulator.reset();
	await createTagsOnce(context.credentials, OWNER, 'capacity warm', WARM_UP_ITEMS, {
		concurrencyMode: 'fixed',
		concurrency: 8,
	});
	const cells: Cell[] = [];
	const all: Verdict[] = [];
	for (const service of SERVICES) {
		const rows = await measureService(context, service);
		cells.push(...rows);
		all.push(...verdicts(service, rows));
	}
	return { out: report(cells), verdicts: all };
}
