/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/require-node-api-error, no-console -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * The child processes of a run. Every service (emulator, n8n, worker, Redis) starts in its own
 * process group, so that stopping it also stops what it started (n8n's task runners), and writes
 * its output to a log file. Every service still running is stopped when the run ends, however it
 * ends: normally, on a failure, on a signal (wherever it was sent), or on an uncaught error.
 */
import { spawn, type SpawnOptions } from 'node:child_process';
import {
	closeSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	openSync,
	readFileSync,
	rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';

export interface Service {
	name: string;
	pid: number;
	logFile: string;
	/** Exit code, or the signal's name; undefined while it runs. */
	exitStatus?: number | string;
	exited: Promise<void>;
	/** The log so far. */
	log(): string;
}

const running = new Set<Service>();

/** Sends a signal to a whole process group; a group that is already gone is fine. */
function signalGroup(pid: number, signal: NodeJS.Signals): void {
	try {
		process.kill(-pid, signal);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
	}
}

export function startService(
	name: string,
	command: string,
	args: string[],
	options: { env?: NodeJS.ProcessEnv; cwd?: string; logFile: string },
): Service {
	const fd = openSync(options.logFile, 'a');
	const child = spawn(command, args, {
		env: options.env ?? process.env,
		cwd: options.cwd,
		stdio: ['ignore', fd, fd],
		detached: true,
	});
	closeSync(fd);
	if (child.pid === undefined)
		throw new Error(`${name} did not start: ${command} ${args.join(' ')}`);
	const service: Service = {
		name,
		pid: child.pid,
		logFile: options.logFile,
		exited: new Promise((resolve) => {
			child.once('exit', (code, signal) => {
				service.exitStatus = code ?? signal ?? 'unknown';
				running.delete(service);
				resolve();
			});
		}),
		log: () => (existsSync(options.logFile) ? readFileSync(options.logFile, 'utf8') : ''),
	};
	running.add(service);
	return service;
}

/** SIGTERM to the service's group, then SIGKILL if it has not exited within `graceMs`. */
export async function stopService(service: Service, graceMs = 15_000): Promise<void> {
	if (service.exitStatus === undefined) {
		signalGroup(service.pid, 'SIGTERM');
		const stopped = await Promise.race([
			service.exited.then(() => true),
			delay(graceMs).then(() => false),
		]);
		if (!stopped) signalGroup(service.pid, 'SIGKILL');
		await service.exited;
	}
	// Whatever the leader left behind in its group (a task runner mid-shutdown) goes too.
	signalGroup(service.pid, 'SIGKILL');
}

let stoppingAll = false;

/** Stops every service still running, the last started first. */
export async function stopAllServices(): Promise<void> {
	stoppingAll = true;
	for (const service of [...running].reverse()) await stopService(service);
}

/** Whether the services are being stopped on purpose (so one exiting is no surprise). */
export function isStoppingAll(): boolean {
	return stoppingAll;
}

let cleanupInstalled = false;
let stopRequested: StopReason | undefined;

export type StopReason = NodeJS.Signals | 'parent-exit';

/**
 * The processes that launched this one and whose end should end it: up the chain of parents,
 * through `sh`, `node` and `tsx`, up to and including `npm`/`npx` when there is one. A signal
 * sent to npm (an editor's stop button, `kill`) may end npm without reaching this process;
 * watching the chain catches that. Linux only (reads /proc); elsewhere just the parent.
 */
function launchingProcesses(): number[] {
	const chain: number[] = [];
	let pid = process.ppid;
	try {
		while (pid > 1 && chain.length < 8) {
			// npm sets its title ("npm run dev"), which Linux shows as one argument with spaces.
			const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split(/[\0 ]/).filter(Boolean);
			const names = argv.slice(0, 3).map((arg) => arg.split('/').pop() ?? '');
			const isLauncher = names.some((name) => /^(npm|npx)(-cli\.js)?$/.test(name));
			const isHop =
				isLauncher || names.some((name) => /^(sh|bash|dash|node|tsx|cli\.mjs)$/.test(name));
			if (!isHop) break;
			chain.push(pid);
			if (isLauncher) break;
			const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
			pid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
		}
	} catch {
		// No /proc (not Linux) or the process is gone already: fall back to the parent alone.
	}
	return chain.length ? chain : [process.ppid];
}

function isAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code !== 'ESRCH';
	}
}

/**
 * Calls `stop` once, the first time this process is asked to stop: SIGINT, SIGTERM or SIGHUP sent
 * to it, to tsx or to npm (or to their whole group, as Ctrl-C does), or the launching npm ending.
 * `why` says which, for a person.
 */
export function whenStopRequested(stop: (reason: StopReason, why: string) => void): void {
	const request = (reason: StopReason) => {
		// A signal can come more than once (npm, tsx and this process each pass Ctrl-C on): a
		// repeat must not end this process before `stop` is done.
		if (stopRequested) return;
		stopRequested = reason;
		const why = reason === 'parent-exit' ? 'the launching process ended' : `${reason} received`;
		stop(reason, why);
	};
	for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
		process.on(signal, () => request(signal));
	const launchers = launchingProcesses();
	setInterval(() => {
		if (!launchers.every(isAlive)) request('parent-exit');
	}, 500).unref();
}

/**
 * Makes sure no service outlives this run, whatever way it ends: a stop requested (above), an
 * uncaught error, or a normal exit.
 */
export function stopServicesOnExit(): void {
	if (cleanupInstalled) return;
	cleanupInstalled = true;
	// Last resort, synchronous: 'exit' handlers cannot wait for a graceful stop.
	process.on('exit', () => {
		for (const service of running) signalGroup(service.pid, 'SIGKILL');
	});
	whenStopRequested((reason, why) => {
		console.log(`\n${why}: stopping ${running.size} service(s)`);
		void stopAllServices().finally(() => process.exit(reason === 'SIGINT' ? 130 : 143));
	});
}

/**
 * The folder a run keeps its logs and data in. It is deleted when the run ends well (and, with
 * `deleteWhenStopped`, when it is stopped on purpose); otherwise it is kept and its path printed
 * as the last thing the run says, so a failed run can be read afterwards.
 */
export function createRunFolder(
	prefix: string,
	options: { deleteWhenStopped?: boolean } = {},
): { dir: string; logDir: string; succeeded(): void } {
	const dir = mkdtempSync(join(tmpdir(), prefix));
	const logDir = join(dir, 'logs');
	mkdirSync(logDir);
	let ok = false;
	process.on('exit', () => {
		if (ok || (stopRequested && options.deleteWhenStopped)) {
			rmSync(dir, { recursive: true, force: true });
		} else {
			console.log(`\nThe run's folder is kept: ${dir}\n  logs: ${logDir}`);
		}
	});
	return { dir, logDir, succeeded: () => (ok = true) };
}

export interface CommandResult {
	code: number | null;
	stdout: string;
	stderr: string;
}

/**
 * Runs a command to completion and collects its output. It runs in its own process group, so a
 * timeout or Ctrl-C stops everything it started. Fails with the output's tail unless it exits 0
 * (or `allowFailure`).
 */
export async function runCommand(
	command: string,
	args: string[],
	options: SpawnOptions & {
		timeoutMs?: number;
		allowFailure?: boolean;
		/** Also show the command's stderr as it comes (progress of a long step). */
		echoStderr?: boolean;
	} = {},
): Promise<CommandResult> {
	const {
		timeoutMs = 300_000,
		allowFailure = false,
		echoStderr = false,
		...spawnOptions
	} = options;
	const child = spawn(command, args, {
		...spawnOptions,
		stdio: ['ignore', 'pipe', 'pipe'],
		detached: true,
	});
	let stdout = '';
	let stderr = '';
	child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
	child.stderr?.on('data', (chunk: Buffer) => {
		stderr += chunk.toString();
		if (echoStderr) process.stderr.write(chunk);
	});
	const killOnExit = () => child.pid !== undefined && signalGroup(child.pid, 'SIGKILL');
	process.on('exit', killOnExit);
	const timer = setTimeout(killOnExit, timeoutMs);
	const code = await new Promise<number | null>((resolve, reject) => {
		child.once('error', reject);
		child.once('close', resolve);
	}).finally(() => {
		clearTimeout(timer);
		process.off('exit', killOnExit);
	});
	if (code !== 0 && !allowFailure) {
		const tail = `${stdout}\n${stderr}`.trim().split('\n').slice(-25).join('\n');
		throw new Error(
			`${command} ${args.join(' ')} exited with ${code ?? 'a signal (timed out?)'}:\n${tail}`,
		);
	}
	return { code, stdout, stderr };
}

/**
 * Polls `probe` until it returns a value other than undefined. Fails after `timeoutMs`, or at
 * once when one of `services` exits (with the tail of its log), so a crash is not a long wait.
 */
export async function waitFor<T>(
	what: string,
	probe: () => Promise<T | undefined> | T | undefined,
	options: { timeoutMs: number; intervalMs?: number; services?: Service[] },
): Promise<T> {
	const deadline = Date.now() + options.timeoutMs;
	for (;;) {
		const crashed = options.services?.find((service) => service.exitStatus !== undefined);
		if (crashed) {
			const tail = crashed.log().trim().split('\n').slice(-30).join('\n');
			throw new Error(
				`${crashed.name} exited (${crashed.exitStatus}) while waiting for ${what}:\n${tail}`,
			);
		}
		const value = await probe();
		if (value !== undefined) return value;
		if (Date.now() > deadline)
			throw new Error(`Timed out after ${options.timeoutMs / 1000} s waiting for ${what}`);
		await delay(options.intervalMs ?? 1000);
	}
}
