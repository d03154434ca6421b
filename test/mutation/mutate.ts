/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions, no-console -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * `npm run mutate [-- area ...] [--by-file] [-- stryker options]`: runs Stryker
 * (stryker.config.json) on each area named (transport, pacing, client, trigger; all when none is),
 * one run per area with that area's tests (AREAS in summary.ts), and writes each area's results
 * into docs/mutation.md from Stryker's JSON report, with the date, the commit and how long the
 * runs took. `--by-file`: one run per file of the area, each with its own incremental file, so
 * that a run stopped part-way keeps the files it finished.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';

import { AREAS, countAreas, updateDocument, type MutationReport } from './summary';

const ROOT = join(__dirname, '../..');
const REPORT = join(ROOT, 'reports/mutation/mutation.json');
const DOCUMENT = join(ROOT, 'docs/mutation.md');

type Area = (typeof AREAS)[number];

/** One Stryker run on `mutate` with the area's tests, and its JSON report. */
function stryker(area: Area, mutate: string, name: string, options: string[]): MutationReport {
	const run = spawnSync(
		'npx',
		[
			'stryker',
			'run',
			'--mutate',
			mutate,
			'--incrementalFile',
			`reports/stryker-incremental-${name}.json`,
			...options,
		],
		{ cwd: ROOT, stdio: 'inherit', env: { ...process.env, MUTATE_TESTS: area.tests.join(',') } },
	);
	if (run.status !== 0) {
		console.error(
			`stryker run on ${mutate} failed (exit ${run.status ?? run.signal}): docs/mutation.md keeps its row`,
		);
		process.exit(run.status ?? 1);
	}
	return JSON.parse(readFileSync(REPORT, 'utf8')) as MutationReport;
}

function mutate(area: Area, options: string[], byFile: boolean, commit: string): void {
	const started = Date.now();
	// One incremental file per area (or per file): each run keeps only the results of what it mutated.
	const runs = byFile
		? readdirSync(join(ROOT, area.folder), { recursive: true, encoding: 'utf8' })
				.map((file) => `${area.folder}${file}`)
				.filter((path) => path.startsWith(area.prefix) && path.endsWith('.ts'))
				.sort()
				.map((path) => [path, `${area.id}-${basename(path, '.ts')}`])
		: [[area.mutate, area.id]];
	const reports = runs.map(([files, name]) => stryker(area, files, name, options));
	const minutes = Math.round((Date.now() - started) / 60_000);
	const report: MutationReport = { files: Object.assign({}, ...reports.map(({ files }) => files)) };
	const areas = countAreas(report, ROOT);
	const date = new Date(started).toISOString().slice(0, 10);
	const document = readFileSync(DOCUMENT, 'utf8');
	writeFileSync(DOCUMENT, updateDocument(document, areas, { date, commit, minutes }));
	console.log(`docs/mutation.md: ${area.name} updated (commit ${commit}, ${minutes} min)`);
}

function main(): void {
	const args = process.argv.slice(2);
	const named = args.filter((arg) => AREAS.some(({ id }) => id === arg));
	const byFile = args.includes('--by-file');
	const options = args.filter((arg) => !named.includes(arg) && arg !== '--by-file');
	const git = (...words: string[]) => execFileSync('git', words, { cwd: ROOT }).toString().trim();
	const changed = git('status', '--porcelain', '--', 'nodes', 'test') !== '';
	const commit = git('rev-parse', '--short', 'HEAD') + (changed ? ' with uncommitted changes' : '');
	for (const area of AREAS) {
		if (named.length === 0 || named.includes(area.id)) mutate(area, options, byFile, commit);
	}
}

main();
