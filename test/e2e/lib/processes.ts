/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/require-node-api-error, no-console -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * The child processes of a run. Every service (emulator, n8n, worker, Redis) starts in its own
 * process group, so that stopping it also stops what it started (n8n's task runners), and writes
 * its output to a log file. Every service still running is stopped when the run ends, however it
 * ends: normally, on a failure, on Ctrl-C or SIGTERM, or on an uncaught error.
 */
import { spawn, type SpawnOptions } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
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

/** Makes sure no service outlives this process, whatever way it ends. */
export function stopServicesOnExit(): void {
	if (cleanupInstalled) return;
	cleanupInstalled = true;
	// Last resort, synchronous: 'exit' handlers cannot wait for a graceful stop.
	process.on('exit', () => {
		for (const service of running) signalGroup(service.pid, 'SIGKILL');
	});
	// Ctrl-C reaches npm, tsx and this process alike, and each passes it on: a signal can come
	// more than once, and a repeat must not end this process before the services are stopped.
	for (const signal of ['SIGINT', 'SIGTERM'] as const) {
		process.on(signal, () => {
			if (stoppingAll) return;
			console.log(`\n${signal} received: stopping ${running.size} service(s)`);
			void stopAllServices().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
		});
	}
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
	options: SpawnOptions & { timeoutMs?: number; allowFailure?: boolean } = {},
): Promise<CommandResult> {
	const { timeoutMs = 300_000, allowFailure = false, ...spawnOptions } = options;
	const child = spawn(command, args, {
		...spawnOptions,
		stdio: ['ignore', 'pipe', 'pipe'],
		detached: true,
	});
	let stdout = '';
	let stderr = '';
	child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
	child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
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

/** A TCP port on the loopback interface that nothing listens on right now. */
export async function freePort(): Promise<number> {
	const server = createServer();
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, '127.0.0.1', resolve);
	});
	const { port } = server.address() as AddressInfo;
	await new Promise((resolve) => server.close(resolve));
	return port;
}

/** Whether something accepts connections on 127.0.0.1:port. */
export async function isPortInUse(port: number): Promise<boolean> {
	const server = createServer();
	return await new Promise((resolve) => {
		server.once('error', () => resolve(true));
		server.listen(port, '127.0.0.1', () => server.close(() => resolve(false)));
	});
}
