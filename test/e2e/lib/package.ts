/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * The package as users get it: built, packed by npm into the tarball the registry would serve,
 * and installed from that tarball into n8n's community-nodes folder.
 *
 * Why that folder and not N8N_CUSTOM_EXTENSIONS: n8n 2.40.7 loads, at start-up, every
 * `n8n-nodes-*` package it finds in `<N8N_USER_FOLDER>/.n8n/nodes/node_modules`, which is where
 * Settings → Community Nodes → Install puts them (no database entry needed), so this is the path
 * a user's install takes and it works headless. N8N_CUSTOM_EXTENSIONS is not needed, and would
 * prove less: it loads loose node files, not an npm package, and names their types `CUSTOM.*`
 * instead of `n8n-nodes-data-integration-management.*` as a user's saved workflows do.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { REPO_ROOT } from './n8n';
import { runCommand } from './processes';

export interface PackedPackage {
	name: string;
	version: string;
	tarball: string;
	files: string[];
}

/**
 * `npm run build && npm pack`, the tarball written to `outDir`. With E2E_BUILT=1 (`npm run
 * test:e2e:all` builds once for the runs it starts side by side) only `npm pack`.
 */
export async function buildAndPack(outDir: string): Promise<PackedPackage> {
	if (process.env.E2E_BUILT !== '1') await runCommand('npm', ['run', 'build'], { cwd: REPO_ROOT });
	const { stdout } = await runCommand('npm', ['pack', '--json', `--pack-destination=${outDir}`], {
		cwd: REPO_ROOT,
	});
	const [packed] = JSON.parse(stdout) as Array<{
		name: string;
		version: string;
		filename: string;
		files: Array<{ path: string }>;
	}>;
	return {
		name: packed.name,
		version: packed.version,
		tarball: join(outDir, packed.filename),
		files: packed.files.map(({ path }) => path),
	};
}

/**
 * Installs the tarball into `<userFolder>/.n8n/nodes` as n8n's own installer does: no install
 * scripts, and no peer dependencies. n8n strips `peerDependencies` from a package before it
 * installs it, so `n8n-workflow` resolves to n8n's own copy; `--legacy-peer-deps` has the same
 * effect here (and needs no registry).
 */
export async function installIntoCommunityNodes(
	tarball: string,
	nodesFolder: string,
): Promise<void> {
	mkdirSync(nodesFolder, { recursive: true });
	writeFileSync(
		join(nodesFolder, 'package.json'),
		JSON.stringify({ name: 'installed-nodes', private: true, dependencies: {} }, null, 2),
	);
	await runCommand(
		'npm',
		[
			'install',
			tarball,
			'--ignore-scripts',
			'--legacy-peer-deps',
			'--no-audit',
			'--no-fund',
			'--loglevel=error',
		],
		{ cwd: nodesFolder },
	);
}

/**
 * Lines of an n8n log that report a problem loading a community package, or this package's
 * nodes or credential.
 */
export function packageLoadProblems(log: string, packageName: string): string[] {
	const generic =
		/Failed to load package|Skipping package|failed to load package metadata|is already loaded|Unknown credential name/i;
	// Stack frames are left out: n8n's own files live under a cache folder named after the package.
	return log
		.split('\n')
		.filter((line) => !/^\s+at /.test(line))
		.filter(
			(line) => generic.test(line) || (line.includes(packageName) && /error|fail|warn/i.test(line)),
		);
}
