/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions, no-console -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * `npm run mutate [-- area ...] [-- stryker options]`: runs Stryker (stryker.config.json) on each
 * area named (transport, client, trigger; all three when none is), one run per area with that
 * area's tests (AREAS in summary.ts), and writes each area's results into docs/mutation.md from
 * reports/mutation/mutation.json, with the date, the commit and how long the run took.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { AREAS, countAreas, updateDocument, type MutationReport } from './summary';

const ROOT = join(__dirname, '../..');
const REPORT = join(ROOT, 'reports/mutation/mutation.json');
const DOCUMENT = join(ROOT, 'docs/mutation.md');

function mutate(area: (typeof AREAS)[number], options: string[], commit: string): void {
	const started = Date.now();
	const stryker = spawnSync(
		'npx',
		[
			'stryker',
			'run',
			'--mutate',
			area.mutate,
			// One incremental file per area: each run keeps only the results of what it mutated.
			'--incrementalFile',
			`reports/stryker-incremental-${area.id}.json`,
			...options,
		],
		{
			cwd: ROOT,
			stdio: 'inherit',
			env: { ...process.env, MUTATE_TESTS: area.tests.join(',') },
		},
	);
	if (stryker.status !== 0) {
		console.error(
			`stryker run on ${area.name} failed (exit ${stryker.status ?? stryker.signal}): docs/mutation.md keeps its row`,
		);
		process.exit(stryker.status ?? 1);
	}
	const minutes = Math.round((Date.now() - started) / 60_000);
	const report = JSON.parse(readFileSync(REPORT, 'utf8')) as MutationReport;
	const areas = countAreas(report, ROOT);
	const date = new Date(started).toISOString().slice(0, 10);
	const document = readFileSync(DOCUMENT, 'utf8');
	writeFileSync(DOCUMENT, updateDocument(document, areas, { date, commit, minutes }));
	console.log(`docs/mutation.md: ${area.name} updated (commit ${commit}, ${minutes} min)`);
}

function main(): void {
	const args = process.argv.slice(2);
	const named = args.filter((arg) => AREAS.some(({ id }) => id === arg));
	const options = args.filter((arg) => !named.includes(arg));
	const git = (...words: string[]) => execFileSync('git', words, { cwd: ROOT }).toString().trim();
	const changed = git('status', '--porcelain', '--', 'nodes', 'test') !== '';
	const commit = git('rev-parse', '--short', 'HEAD') + (changed ? ' with uncommitted changes' : '');
	for (const area of AREAS) {
		if (named.length === 0 || named.includes(area.id)) mutate(area, options, commit);
	}
}

main();
