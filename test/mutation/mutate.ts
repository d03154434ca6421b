/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions, no-console -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * `npm run mutate [-- stryker options]`: runs Stryker (stryker.config.json; e.g.
 * `-- --mutate 'nodes/DataIntegrationManagement/trigger/**\/*.ts'` for one area), then writes the
 * areas it measured into docs/mutation.md from reports/mutation/mutation.json, with the date,
 * the commit and how long the run took.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { countAreas, updateDocument, type MutationReport } from './summary';

const ROOT = join(__dirname, '../..');
const REPORT = join(ROOT, 'reports/mutation/mutation.json');
const DOCUMENT = join(ROOT, 'docs/mutation.md');

function main(): void {
	const options = process.argv.slice(2);
	const git = (...args: string[]) => execFileSync('git', args, { cwd: ROOT }).toString().trim();
	const changed = git('status', '--porcelain', '--', 'nodes', 'test') !== '';
	const commit = git('rev-parse', '--short', 'HEAD') + (changed ? ' with uncommitted changes' : '');
	const started = Date.now();
	const stryker = spawnSync('npx', ['stryker', 'run', ...options], { cwd: ROOT, stdio: 'inherit' });
	if (stryker.status !== 0) {
		console.error(
			`stryker run failed (exit ${stryker.status ?? stryker.signal}): docs/mutation.md left as it was`,
		);
		process.exit(stryker.status ?? 1);
	}
	const minutes = Math.round((Date.now() - started) / 60_000);
	const report = JSON.parse(readFileSync(REPORT, 'utf8')) as MutationReport;
	const areas = countAreas(report, ROOT);
	const date = new Date(started).toISOString().slice(0, 10);
	const document = readFileSync(DOCUMENT, 'utf8');
	writeFileSync(DOCUMENT, updateDocument(document, areas, { date, commit, minutes }));
	console.log(
		`docs/mutation.md: ${[...areas.keys()].join(', ')} updated (commit ${commit}, ${minutes} min)`,
	);
}

main();
