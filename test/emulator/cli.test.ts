/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * `npm run emulator` as a user runs it, real processes: each address it prints at start answers
 * GET, and the emulator stops when the npm process the user started stops, however it stops (npm
 * forwards some signals and not others; tsx runs the script in a child process of its own).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

import { freePort } from '../e2e/lib/ports';
import { waitFor } from '../e2e/lib/processes';

const ROOT = join(__dirname, '../..');

const answers = (url: string) =>
	fetch(url).then(
		(response) => response.status,
		() => undefined,
	);

/** Whether any process is left in the group `pid` leads. */
function groupAlive(pid: number): boolean {
	try {
		process.kill(-pid, 0);
		return true;
	} catch {
		return false;
	}
}

let npm: ChildProcess | undefined;

afterEach(() => {
	// Whatever a failed test left running.
	if (npm?.pid !== undefined && groupAlive(npm.pid)) process.kill(-npm.pid, 'SIGKILL');
});

// npm passes SIGINT on to no one (a terminal's Ctrl-C reaches the whole group, the emulator too).
test.each([
	['SIGTERM to npm', 'SIGTERM', 'npm'],
	['SIGHUP to npm', 'SIGHUP', 'npm'],
	['SIGKILL to npm', 'SIGKILL', 'npm'],
	["Ctrl-C (SIGINT to npm's process group)", 'SIGINT', 'group'],
] as const)(
	'every address it prints answers, and %s stops it',
	async (_name, signal, target) => {
		const port = await freePort();
		// Its own process group, as a terminal gives it.
		const started = spawn('npm', ['run', 'emulator'], {
			cwd: ROOT,
			env: { ...process.env, EMULATOR_PORT: String(port) },
			stdio: ['ignore', 'pipe', 'pipe'],
			detached: true,
		});
		npm = started;
		let output = '';
		started.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
		started.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
		const printed = await waitFor(
			'the emulator to print its addresses',
			() => (/control: /.test(output) ? (output.match(/http:\/\/\S+/g) ?? []) : undefined),
			{ timeoutMs: 60_000, intervalMs: 100 },
		);

		expect(printed).toEqual([`http://127.0.0.1:${port}/v1`, `http://127.0.0.1:${port}/__emulator`]);
		for (const url of printed) expect([url, await answers(url)]).toEqual([url, 200]);

		process.kill(target === 'npm' ? started.pid! : -started.pid!, signal);
		await waitFor(
			'the port to stop answering and every process to end',
			async () =>
				(await answers(printed[1])) === undefined && !groupAlive(started.pid!) ? true : undefined,
			{ timeoutMs: 20_000, intervalMs: 100 },
		);
	},
	90_000,
);
