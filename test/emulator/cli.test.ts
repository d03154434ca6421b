/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * `npm run emulator` as a user runs it, real processes: each address it prints at start answers
 * GET (the base URL with a trailing slash too), it prints the IDs to try, and the emulator stops
 * when the npm process the user started stops, however it stops (npm forwards some signals and not
 * others; tsx runs the script in a child process of its own). A port in use: words saying how to
 * choose another.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { join } from 'node:path';

import { freePort } from '../e2e/lib/ports';
import { waitFor } from '../e2e/lib/processes';
import { DEFAULT_API_KEY } from './index';
import { idsToTry, workspace } from './indexes';
import { seedStore } from './seed';
import { Store } from './store';

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

/** `npm run emulator` on `port`, in its own process group as a terminal gives it; all it prints. */
function startNpm(port: number) {
	const started = spawn('npm', ['run', 'emulator'], {
		cwd: ROOT,
		env: { ...process.env, EMULATOR_PORT: String(port) },
		stdio: ['ignore', 'pipe', 'pipe'],
		detached: true,
	});
	npm = started;
	const printed = { output: '' };
	started.stdout?.on('data', (chunk: Buffer) => (printed.output += chunk.toString()));
	started.stderr?.on('data', (chunk: Buffer) => (printed.output += chunk.toString()));
	return { started, printed };
}

/** The seeded workspace's IDs, as the emulator prints them at start. */
const seededIds = () => {
	const store = new Store();
	seedStore(store);
	return idsToTry(workspace(store));
};

/** The newest audit entry, as the API answers. */
async function newestEntry(baseUrl: string) {
	const query = 'sortBy=timestamp&sortOrder=desc&limit=1';
	const headers = { 'x-api-key': DEFAULT_API_KEY };
	const page = (await (await fetch(`${baseUrl}/audit-logs?${query}`, { headers })).json()) as {
		data: { items: Array<{ id: string; event: string; timestamp: string }> };
	};
	return page.data.items[0];
}

/** The commands it prints, run in a shell as copied: a new audit entry of now, then the seed back. */
async function expectControlCommandsWork(output: string, baseUrl: string) {
	const lines = output.split('\n');
	const at = lines.findIndex((line) => line.startsWith('Give the trigger a new audit entry'));
	const give = lines.slice(at + 1, at + 3).join('\n');
	const reset = /Put the emulator back to its seed: +(.+)/.exec(output)![1];
	const before = Date.now() - 1000;
	execFileSync('bash', ['-c', give], { stdio: 'ignore' });
	const given = await newestEntry(baseUrl);
	expect(given.event).toBe('Tag created');
	expect(Date.parse(given.timestamp)).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
	execFileSync('bash', ['-c', reset], { stdio: 'ignore' });
	expect((await newestEntry(baseUrl)).id).not.toBe(given.id);
}

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
		const { started, printed } = startNpm(port);
		const urls = await waitFor(
			'the emulator to print its addresses and the IDs to try',
			() =>
				/Put the emulator back to its seed: +curl -X POST \S+\/reset\n/.test(printed.output)
					? [...printed.output.matchAll(/(?:base URL|control): +(http:\/\/\S+)/g)].map(
							([, url]) => url,
						)
					: undefined,
			{ timeoutMs: 60_000, intervalMs: 100 },
		);

		expect(urls).toEqual([`http://127.0.0.1:${port}/v1`, `http://127.0.0.1:${port}/__emulator`]);
		for (const url of [...urls, `${urls[0]}/`])
			expect([url, await answers(url)]).toEqual([url, 200]);
		for (const line of seededIds()) expect(printed.output).toContain(`    ${line}\n`);
		if (signal === 'SIGTERM') await expectControlCommandsWork(printed.output, urls[0]);

		process.kill(target === 'npm' ? started.pid! : -started.pid!, signal);
		await waitFor(
			'the port to stop answering and every process to end',
			async () =>
				(await answers(urls[1])) === undefined && !groupAlive(started.pid!) ? true : undefined,
			{ timeoutMs: 20_000, intervalMs: 100 },
		);
	},
	90_000,
);

test('a port in use: it ends saying how to choose another, with no stack', async () => {
	const taken = createServer();
	taken.listen(await freePort(), '127.0.0.1');
	await once(taken, 'listening');
	const { port } = taken.address() as { port: number };
	try {
		const { started, printed } = startNpm(port);
		const [code] = (await once(started, 'close')) as [number | null];

		expect(code).toBe(1);
		expect(printed.output).toContain(
			`Port ${port} on 127.0.0.1 is in use (by another emulator still running?). Choose another port: EMULATOR_PORT=${port + 1} npm run emulator`,
		);
		expect(printed.output).not.toMatch(/EADDRINUSE|^\s+at /m);
	} finally {
		taken.close();
	}
}, 30_000);
