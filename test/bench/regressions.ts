/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * The benchmark's figures against those committed in ./figures.json: a figure more than
 * TOLERANCE worse than its committed value (or than its resolution, if more) is a regression,
 * and the benchmark then ends with a non-zero exit. `--update-figures` writes the figures of this run into the file instead (after
 * a full run on a quiet machine, with the commit that changes them). A smoke run is not held.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import type { Measure, Verdict } from './tools';

/** How much worse than committed a figure may come out before it is a regression: runs vary. */
export const TOLERANCE = 0.15;
export const FIGURES = path.join(__dirname, 'figures.json');

export type Figures = Record<string, { value: number; better: Measure['better'] }>;

const committed = (): Figures => {
	try {
		return JSON.parse(readFileSync(FIGURES, 'utf8')) as Figures;
	} catch {
		return {};
	}
};

/** The measured verdicts' figures worse than committed, as report rows (none: no regression). */
export function regressions(verdicts: Verdict[], figures: Figures = committed()): string[][] {
	const rows: string[][] = [];
	for (const [, , , , measure] of verdicts) {
		const before = measure && figures[measure.key];
		if (!measure || !before) continue;
		const slack = Math.max(before.value * TOLERANCE, measure.resolution ?? 0);
		const worse =
			measure.better === 'lower'
				? measure.value > before.value + slack
				: measure.value < before.value - slack;
		if (worse) rows.push([measure.key, String(before.value), String(measure.value)]);
	}
	return rows;
}

/** Writes this run's measured figures into ./figures.json, keeping those it did not measure. */
export function updateFigures(verdicts: Verdict[]): number {
	const figures = committed();
	let count = 0;
	for (const [, , , , measure] of verdicts)
		if (measure) {
			figures[measure.key] = { value: Number(measure.value.toFixed(3)), better: measure.better };
			count++;
		}
	const sorted = Object.fromEntries(Object.entries(figures).sort(([a], [b]) => a.localeCompare(b)));
	writeFileSync(FIGURES, `${JSON.stringify(sorted, null, '\t')}\n`);
	return count;
}
