/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, no-console -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * `npm run n8n:newest`: the n8n releases the project is tested on (the pin in test/e2e/n8n-version
 * and the 1.x line `npm run test:e2e:all` runs) beside the newest the registry offers. One
 * `npm view`; it changes nothing.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { PINNED_N8N_VERSION, REPO_ROOT } from './lib/n8n';
import { runCommand } from './lib/processes';

const { scripts } = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
	scripts: Record<string, string>;
};
/** The 1.x release CI runs besides the pin (the one package.json's test:e2e:all names). */
const TESTED_1X = /\b(1\.\d+\.\d+)\b/.exec(scripts['test:e2e:all'])?.[1];

/** What `npm view n8n <field> --json` prints, parsed. */
async function registry<T>(field: string): Promise<T> {
	const { stdout } = await runCommand('npm', ['view', 'n8n', field, '--json'], {
		timeoutMs: 60_000,
	});
	return JSON.parse(stdout) as T;
}

async function main(): Promise<void> {
	const tags = await registry<Record<string, string>>('dist-tags');
	const versions = await registry<string[]>('versions');
	const parts = (version: string) => version.split('.').map(Number);
	const stable = versions
		.filter((version) => /^\d+\.\d+\.\d+$/.test(version))
		.sort((a, b) => parts(a).reduce((order, part, i) => order || part - parts(b)[i], 0));
	const newestOf = (major: string) =>
		stable.filter((version) => version.startsWith(`${major}.`)).pop();

	console.log(`n8n pinned (test/e2e/n8n-version):  ${PINNED_N8N_VERSION}`);
	console.log(
		`n8n newest 2.x on the registry:     ${newestOf('2')} (dist-tag latest: ${tags.latest})`,
	);
	if (TESTED_1X) console.log(`n8n 1.x tested (test:e2e:all):      ${TESTED_1X}`);
	console.log(`n8n newest 1.x on the registry:     ${newestOf('1')}`);
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
