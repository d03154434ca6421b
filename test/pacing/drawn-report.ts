/* eslint-disable no-console, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test tooling: prints the simulated figures; never part of the published package */
/**
 * `npm run simulate`: Concurrency Auto on the fake clock. First the named services
 * (./named-services.ts, `--named=<seeds>`, 3 seeds unless said), then services drawn at random
 * (./drawn-services.ts, `--seeds=<seeds>`, e.g. `1001-1300`): for each figure, how many services
 * have it, the worst and the median, how many miss its target, and the services that miss. Seeds
 * 1 to 200 are the ones the design was tuned on; report on others (docs/pacer.md, "How it is
 * checked"). `--verbose` prints every drawn service's figures, `--json=<file>` writes them;
 * `--only=named` or `--only=drawn` runs one part.
 */
import { writeFileSync } from 'node:fs';

import {
	describe,
	distribution,
	drawService,
	measure,
	seedsOf,
	type DrawnFigures,
} from './drawn-services';
import { measureNamed, NAMED, RATE_NAMED } from './named-services';
import { simulate } from './simulation';

const argument = (name: string) =>
	process.argv.find((arg) => arg.startsWith(`--${name}=`))?.split('=')[1];
const only = argument('only');

const percent = (share: number) => `${(share * 100).toFixed(0)}%`;
const format = (figure: string, value: number | undefined) =>
	value === undefined
		? '-'
		: figure === 'failed'
			? String(value)
			: figure === 'openPerWorker' || figure === 'afterChange'
				? `${value.toFixed(2)}x`
				: percent(value);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1];
const worst = (values: number[], low: boolean) => (low ? Math.min : Math.max)(...values);
const both = (values: number[], low: boolean, show: (value: number) => string) =>
	`${show(worst(values, low))} (median ${show(median(values))})`;

/** ` MISS: …` naming the targets whose worst seed misses, or nothing. */
const misses = (targets: Record<string, boolean>) => {
	const missed = Object.keys(targets).filter((name) => !targets[name]);
	return missed.length ? `  MISS: ${missed.join(', ')}` : '';
};

/** The named services, each over `seeds`: Auto's worst and median against the best fixed. */
async function named(seeds: number[]) {
	console.log(`Named services, ${seeds.length} seeds: worst (median)`);
	for (const service of NAMED) {
		const all = [];
		for (const seed of seeds) all.push(await measureNamed(service, seed));
		const of = all.map((one) => one.ofBestFixed ?? NaN);
		const capacity = service.network.capacity;
		const fresh = all.filter((one) => one.fresh).map((one) => one.auto.ms / one.fresh!.ms);
		const open = all.map((one) => one.auto.maxOpen);
		const miss = misses({
			'of the best fixed ≥ 90%': Math.min(...of) >= 0.9,
			'failed 0': all.every((one) => one.auto.failed === 0),
			'open ≤ 4× workers': !capacity || Math.max(...open) <= 4 * capacity.workers,
			'over fresh ≤ 1.25x': fresh.every((ratio) => ratio <= 1.25),
		});
		console.log(
			`  ${service.name}: of the best fixed ${both(of, true, percent)}, failed ${Math.max(...all.map((one) => one.auto.failed))}, 503s ${both(
				all.map((one) => one.auto.shed),
				false,
				String,
			)}${capacity ? `, open ${both(open, false, String)} of ${4 * capacity.workers}` : ''}${
				fresh.length ? `, over fresh ${both(fresh, false, (v) => `${v.toFixed(2)}x`)}` : ''
			}; Auto ${(median(all.map((one) => one.auto.ms)) / 1000).toFixed(2)} s${miss}`,
		);
	}
	for (const [name, scenario] of RATE_NAMED) {
		const all = [];
		for (const seed of seeds) all.push(await simulate({ ...scenario, seed }));
		// Processes pace alone: the issue asks 85% of the limit of them, 90% of one.
		const share = name.includes('processes') ? 0.85 : 0.9;
		const miss = misses({
			[`of the limit ≥ ${percent(share)}`]: all.every((one) => one.shareOfLimit >= share),
			'429s ≤ 10%': all.every((one) => one.refused <= 0.1 * one.sent),
			'failed 0': all.every((one) => one.failed === 0),
		});
		console.log(
			`  ${name}: of the limit ${both(
				all.map((one) => one.shareOfLimit),
				true,
				percent,
			)}, 429s ${both(
				all.map((one) => one.refused / one.sent),
				false,
				percent,
			)}, failed ${Math.max(...all.map((one) => one.failed))}${
				scenario.runs.length > 1
					? `, fairness ${both(
							all.map((one) => one.fairness),
							true,
							(v) => v.toFixed(2),
						)}`
					: ''
			}${miss}`,
		);
	}
}

async function drawn(seeds: number[]) {
	const all: DrawnFigures[] = [];
	for (const seed of seeds) {
		const figures = await measure(drawService(seed));
		all.push(figures);
		if (process.argv.includes('--verbose'))
			console.log(
				`${describe(figures.drawn)} | Auto ${(figures.auto.ms / 1000).toFixed(2)} s, ${figures.auto.shed} 503s, ${figures.auto.maxOpen} open, ${figures.auto.failed} failed, ${figures.auto.refused} 429s | ${figures.fixed.map((o) => `${(o.ms / 1000).toFixed(2)}${o.failed ? `(${o.failed}f)` : ''}/${o.maxOpen}`).join(' ')} | of best ${format('ofBestFixed', figures.ofBestFixed)}`,
			);
	}
	const json = argument('json');
	if (json)
		writeFileSync(
			json,
			JSON.stringify(
				all.map(({ drawn, ofBestFixed, failed, openPerWorker, refused, ofLimit, afterChange }) => ({
					drawn,
					ofBestFixed,
					failed,
					openPerWorker,
					refused,
					ofLimit,
					afterChange,
				})),
				null,
				1,
			),
		);
	console.log(`Drawn services, ${seeds.length} seeds (${argument('seeds') ?? '1001-1300'})`);
	for (const { figure, name, count, worst, median, missed } of distribution(all)) {
		console.log(
			`  ${name}: ${count} services, worst ${format(figure, worst?.value)}, median ${format(figure, median)}, ${missed.length} miss`,
		);
		for (const miss of missed.slice(0, 5))
			console.log(`    ${format(figure, miss.value)}  ${describe(miss.drawn)}`);
	}
}

async function main() {
	if (only !== 'drawn') await named(seedsOf(argument('named') ?? '1-3'));
	if (only !== 'named') await drawn(seedsOf(argument('seeds') ?? '1001-1300'));
}

void main();
