/**
 * What sections 8 and 9 of the benchmark share: Concurrency Auto against Concurrency Fixed on
 * each of a few services, one run of each setting in turn (`interleaved`), a cell per setting (the
 * median time, and of any run the most failed items, 503s and requests the service held open),
 * the verdicts of Auto against the fixed settings, and a table a service.
 */
import type { INodeParameters } from 'n8n-workflow';

import { OWNER, WARM_UP_ITEMS, type BenchContext } from './settings';
import { createTagsOnce } from './tag-creates';
import {
	interleaved,
	median,
	progress,
	runsInSeconds,
	seconds,
	table,
	times,
	lower,
	type Verdict,
} from './tools';

export interface Setting {
	/** "Auto": Concurrency Mode Auto, Concurrency not set; "Fixed n": Concurrency Mode Fixed, n. */
	name: string;
	options: INodeParameters;
	runs: number;
}

export const AUTO_OPTIONS: INodeParameters = { concurrencyMode: 'auto' };

export const fixedSetting = (concurrency: number, runs: number): Setting => ({
	name: `Fixed ${concurrency}`,
	options: { concurrencyMode: 'fixed', concurrency },
	runs,
});

/** Before a section: its first runs would compile n8n-core's and the nodes' code paths. */
async function warmUp(context: BenchContext, label: string): Promise<void> {
	await context.emulator.reset();
	await createTagsOnce(
		context.credentials,
		OWNER,
		label,
		WARM_UP_ITEMS,
		fixedSetting(8, 1).options,
	);
}

/** One run: its time, its failed items, and the service's counts (0 without a capacity model). */
export interface RunFigures {
	ms: number;
	failed: number;
	shed: number;
	maxOpen: number;
}

export interface Cell {
	setting: Setting;
	times: number[];
	/** The most of any run. */
	failed: number;
	shed: number;
	maxOpen: number;
}

/** Every setting, one run of each in turn, by `measure`: a cell a setting, in their order. */
async function measureSettings(
	/** What the progress lines start with, e.g. `capacity (a)`. */
	label: string,
	settings: Setting[],
	measure: (setting: Setting) => Promise<RunFigures>,
): Promise<Cell[]> {
	const all = await interleaved(
		settings,
		(setting) => setting.runs,
		async (setting, run) => {
			const last = await measure(setting);
			progress(
				`${label}, ${setting.name} run ${run}/${setting.runs}: ${seconds(last.ms)}, ${last.failed} failed, ${last.shed} x 503, ${last.maxOpen} open at most`,
			);
			return last;
		},
	);
	return settings.map((setting, index) => {
		const runs = all[index];
		const most = (key: 'failed' | 'shed' | 'maxOpen') => Math.max(...runs.map((one) => one[key]));
		return {
			setting,
			times: runs.map((one) => one.ms),
			failed: most('failed'),
			shed: most('shed'),
			maxOpen: most('maxOpen'),
		};
	});
}

/**
 * Auto against the fixed settings of one service, named `name` in the verdicts: no failed item
 * where a fixed setting fails none, 90% of the speed of the fastest such setting, and, against
 * `workers` when finite, at most 4 times as many requests held open.
 */
export function autoVerdicts(name: string, auto: Cell, fixed: Cell[], workers?: number): Verdict[] {
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
			ratio === undefined ? undefined : lower(`${name}: time / best Fixed`, ratio),
		],
	];
	if (workers !== undefined)
		out.push([
			`${name}: most requests the service held open`,
			String(auto.maxOpen),
			`<= ${4 * workers} (4 x workers)`,
			auto.maxOpen <= 4 * workers,
			lower(`${name}: most held open`, auto.maxOpen),
		]);
	return out;
}

/** The cells of one service as a table; requests held open only against finite capacity. */
function cellsTable(cells: Cell[], finite: boolean): string {
	return table(
		[
			['Concurrency', 'Time', 'Runs (s)', 'Failed items', '503s answered', 'Most held open'],
			...cells.map((cell) => [
				cell.setting.name,
				seconds(median(cell.times)),
				runsInSeconds(cell.times),
				String(cell.failed),
				String(cell.shed),
				finite ? String(cell.maxOpen) : 'n/a',
			]),
		],
		'    ',
	);
}

/** A section of services, each measured at its settings. */
export interface ServicesSection<S extends { name: string }> {
	/** What its progress lines start with, e.g. `capacity`. */
	label: string;
	/** The report's line above the tables. */
	heading: string;
	services: S[];
	settingsOf: (service: S) => Setting[];
	/** Whether the service has a capacity model (workers, requests held open). */
	finite: (service: S) => boolean;
	measure: (service: S, setting: Setting) => Promise<RunFigures>;
	verdictsOf: (service: S, cells: Cell[]) => Verdict[];
}

/** Every service of `section` at each of its settings, after a warm-up: the report's lines and verdicts. */
export async function measureServices<S extends { name: string }>(
	context: BenchContext,
	section: ServicesSection<S>,
): Promise<{ out: string[]; verdicts: Verdict[] }> {
	await warmUp(context, `${section.label} warm`);
	const out = ['', section.heading];
	const verdicts: Verdict[] = [];
	for (const service of section.services) {
		const cells = await measureSettings(
			`${section.label} ${service.name.slice(0, 3)}`,
			section.settingsOf(service),
			(setting) => section.measure(service, setting),
		);
		out.push(`  ${service.name}`, cellsTable(cells, section.finite(service)));
		verdicts.push(...section.verdictsOf(service, cells));
	}
	return { out, verdicts };
}
