/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions, no-console -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * `npm run test:e2e:all`: the end-to-end run (e2e.ts) in the pinned n8n (test/e2e/n8n-version)
 * and in each release named after it (package.json names the 1.x release CI runs), side by side:
 * most of a run waits for n8n's scheduler, which polls once a minute, so both together take
 * little longer than the longer alone. Once, before them: redis-server installed when missing
 * (two apt-get runs cannot go at once) and the package built (E2E_BUILT: each run only packs
 * dist/ into its own folder). Each run keeps its own run folder, n8n user folder and Redis, and
 * takes its ports from a range of its own (E2E_PORTS, lib/ports.ts); each n8n release has its
 * own cache folder (install-n8n.sh), so the installs go side by side too. Every line a run prints
 * starts with its release, e.g. `[2.41.3] `; the last lines give each run's result and wall
 * time, and the exit status is 1 when any failed. `-- --install` only installs redis-server and
 * each n8n (side by side), which .ci/run does while the unit tests run.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

import { PINNED_N8N_VERSION, REPO_ROOT } from './lib/n8n';
import { runCommand } from './lib/processes';
import { ensureRedisInstalled } from './lib/redis';

const args = process.argv.slice(2);
const installOnly = args.includes('--install');
const releases = [PINNED_N8N_VERSION, ...args.filter((arg) => !arg.startsWith('--'))];

/** Each run's ports: 5,000 of them per run, below the range Linux hands out for port 0. */
const PORTS_FROM = 20_000;
const PORTS_PER_RUN = 5_000;

interface Outcome {
	release: string;
	code: number | string;
	seconds: number;
}

const children = new Set<ReturnType<typeof spawn>>();

/** Runs a command for one release, each line of its output prefixed with `[release] `. */
async function runPrefixed(
	release: string,
	command: string,
	commandArgs: string[],
	env: NodeJS.ProcessEnv,
): Promise<Outcome> {
	const started = Date.now();
	const child = spawn(command, commandArgs, {
		cwd: REPO_ROOT,
		env: { ...process.env, ...env, N8N_VERSION: release },
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	children.add(child);
	for (const [from, to] of [
		[child.stdout, process.stdout],
		[child.stderr, process.stderr],
	] as const)
		createInterface({ input: from, crlfDelay: Infinity }).on('line', (line) =>
			to.write(`[${release}] ${line}\n`),
		);
	const code = await new Promise<number | string>((resolve) => {
		child.once('error', (error) => resolve(error.message));
		child.once('close', (exitCode, signal) => resolve(exitCode ?? signal ?? 'unknown'));
	});
	children.delete(child);
	return { release, code, seconds: Math.round((Date.now() - started) / 1000) };
}

/** A signal to this process goes on to the runs, which stop their services; then it exits. */
function passSignalsOn(): void {
	for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
		process.on(signal, () => {
			for (const child of children) child.kill(signal);
			const exit = () => process.exit(signal === 'SIGINT' ? 130 : 143);
			if (children.size === 0) exit();
			else setInterval(() => children.size === 0 && exit(), 200);
		});
}

async function main(): Promise<boolean> {
	passSignalsOn();
	const started = Date.now();
	console.log(`n8n ${releases.join(' and ')} side by side; each line starts with its release`);
	console.log(await ensureRedisInstalled());
	const outcomes = installOnly
		? await Promise.all(
				releases.map((release) =>
					runPrefixed(release, 'bash', [join(REPO_ROOT, 'test/e2e/install-n8n.sh')], {}),
				),
			)
		: await runSideBySide();
	const passed = installOnly ? 'installed' : 'PASS';
	console.log(`\n${installOnly ? 'install' : 'test:e2e:all'}, side by side:`);
	for (const { release, code, seconds } of outcomes)
		console.log(`  n8n ${release}: ${code === 0 ? passed : `FAIL (exit ${code})`}, ${seconds} s`);
	console.log(`  in all: ${Math.round((Date.now() - started) / 1000)} s`);
	return outcomes.every(({ code }) => code === 0);
}

/** The package built once, then one e2e.ts run per release, each packing into its own folder. */
async function runSideBySide(): Promise<Outcome[]> {
	await runCommand('npm', ['run', 'build'], { cwd: REPO_ROOT });
	console.log('npm run build: dist/ built once for every run');
	const tsx = join(REPO_ROOT, 'node_modules/.bin/tsx');
	return await Promise.all(
		releases.map((release, index) => {
			const first = PORTS_FROM + index * PORTS_PER_RUN;
			return runPrefixed(release, tsx, [join(__dirname, 'e2e.ts')], {
				E2E_BUILT: '1',
				E2E_PORTS: `${first}-${first + PORTS_PER_RUN - 1}`,
			});
		}),
	);
}

main().then(
	(ok) => process.exit(ok ? 0 : 1),
	(error) => {
		console.error(error);
		process.exit(1);
	},
);
