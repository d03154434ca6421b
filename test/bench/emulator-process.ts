/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * The emulator in a child process (`test/emulator/cli.ts`), so its CPU does not compete with the
 * code under measurement in one event loop, and a client for its HTTP controls under /__emulator.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import path from 'node:path';

import type {
	CapacitySpec,
	FaultSpec,
	LatencySpec,
	NewAuditEntry,
	RateLimitSpec,
	RecordedRequest,
	ServiceVariant,
	TrafficEntry,
} from '../emulator';

export interface EmulatorProcess {
	/** e.g. http://127.0.0.1:41234/v1 */
	baseUrl: string;
	apiKey: string;
	/** Re-seeds the state, clears requests and faults, restores the start latency (no rate limit or capacity). */
	reset(): Promise<void>;
	/** Sets the latency of every /v1 answer (jitter, a heavy tail: test/emulator/latency.ts) until reset. */
	setLatency(latency: LatencySpec): Promise<void>;
	addAuditEntries(entries: NewAuditEntry[]): Promise<void>;
	injectFault(fault: FaultSpec): Promise<void>;
	/** Answers GET /audit-logs as this variant service does (reset goes back to the spec's). */
	setAuditLogVariant(variant: ServiceVariant): Promise<void>;
	requests(): Promise<RecordedRequest[]>;
	clearRequests(): Promise<void>;
	/** Sets the token-bucket rate limit (with a full bucket), or removes it. */
	setRateLimit(limit: RateLimitSpec | undefined): Promise<void>;
	/** Sets the capacity model (every worker free, its counts at 0), or removes it. */
	setCapacity(spec: CapacitySpec | undefined): Promise<void>;
	/** The capacity model's counts since it was last set: 503s answered, requests held now and at most. */
	capacity(): Promise<{ shed: number; open: number; maxOpen: number }>;
	/** Every /v1 answer since the last reset: arrival, answer (the emulator's ms clock), status. */
	traffic(): Promise<TrafficEntry[]>;
	/** CPU time (user + system) the emulator process has used so far, in ms; undefined off Linux. */
	cpuMs(): number | undefined;
	stop(): Promise<void>;
}

const REPO = path.resolve(__dirname, '../..');
const CLI = path.join(REPO, 'test/emulator/cli.ts');
/** Entries per control call: a 20,000-entry body would come close to fastify's 1 MiB body limit. */
const AUDIT_CHUNK = 2000;

/** The emulator in a child process of its own, and the base URL it listens on. */
async function spawnEmulator(options: {
	latencyMs: number;
	apiKey: string;
}): Promise<{ child: ChildProcess; baseUrl: string }> {
	const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', CLI], {
		cwd: REPO,
		env: {
			...process.env,
			EMULATOR_PORT: '0',
			EMULATOR_API_KEY: options.apiKey,
			EMULATOR_LATENCY_MS: String(options.latencyMs),
			// No varying latency nor capacity model from the caller's environment: sections set their own.
			EMULATOR_LATENCY_MAX_MS: '',
			EMULATOR_LATENCY_TAIL_MS: '',
			EMULATOR_LATENCY_TAIL_ONE_IN: '',
			EMULATOR_WORKERS: '',
			EMULATOR_SERVICE_MS: '',
			EMULATOR_QUEUE: '',
			EMULATOR_RETRY_AFTER_SECONDS: '',
			EMULATOR_SERVICE_TAIL_MS: '',
			EMULATOR_SERVICE_TAIL_ONE_IN: '',
		},
		stdio: ['ignore', 'pipe', 'inherit'],
	});
	const baseUrl = await new Promise<string>((resolve, reject) => {
		let output = '';
		const onData = (chunk: Buffer) => {
			output += chunk.toString();
			const match = /base URL:\s+(\S+)/.exec(output);
			if (match) {
				child.stdout?.off('data', onData);
				child.stdout?.resume();
				resolve(match[1]);
			}
		};
		child.stdout?.on('data', onData);
		child.once('exit', (code) =>
			reject(new Error(`the emulator exited with code ${code} before listening`)),
		);
		child.once('error', reject);
	});
	return { child, baseUrl };
}

/** A call to the emulator's control routes (/__emulator) beside `baseUrl`. */
function controlOf(baseUrl: string) {
	const controlUrl = baseUrl.replace(/\/v1$/, '/__emulator');
	return async (method: string, route: string, body?: unknown): Promise<unknown> => {
		const response = await fetch(`${controlUrl}${route}`, {
			method,
			headers: body === undefined ? {} : { 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await response.text();
		if (!response.ok)
			throw new Error(`emulator control ${method} ${route}: HTTP ${response.status} ${text}`);
		return text ? JSON.parse(text) : undefined;
	};
}

/** The counts in the answer to GET /capacity, without the model. */
function capacityCounts(answer: unknown): { shed: number; open: number; maxOpen: number } {
	const { shed, open, maxOpen } = answer as { shed: number; open: number; maxOpen: number };
	return { shed, open, maxOpen };
}

export async function startEmulatorProcess(options: {
	latencyMs: number;
	apiKey: string;
}): Promise<EmulatorProcess> {
	const { child, baseUrl } = await spawnEmulator(options);
	const control = controlOf(baseUrl);

	return {
		baseUrl,
		apiKey: options.apiKey,
		reset: async () => {
			await control('POST', '/reset', { seed: true });
		},
		setLatency: async (latency) => {
			await control('PUT', '/latency', latency);
		},
		addAuditEntries: async (entries) => {
			for (let start = 0; start < entries.length; start += AUDIT_CHUNK) {
				await control('POST', '/audit-logs', {
					entries: entries.slice(start, start + AUDIT_CHUNK),
				});
			}
		},
		injectFault: async (fault) => {
			await control('POST', '/faults', fault);
		},
		setAuditLogVariant: async (variant) => {
			await control('PUT', '/audit-log-variant', variant);
		},
		requests: async () =>
			((await control('GET', '/requests')) as { requests: RecordedRequest[] }).requests,
		clearRequests: async () => {
			await control('DELETE', '/requests');
		},
		setRateLimit: async (limit) => {
			await (limit ? control('PUT', '/rate-limit', limit) : control('DELETE', '/rate-limit'));
		},
		setCapacity: async (spec) => {
			await (spec ? control('PUT', '/capacity', spec) : control('DELETE', '/capacity'));
		},
		capacity: async () => capacityCounts(await control('GET', '/capacity')),
		traffic: async () =>
			((await control('GET', '/traffic')) as { traffic: TrafficEntry[] }).traffic,
		cpuMs: () => processCpuMs(child.pid),
		stop: async () => {
			if (child.exitCode !== null || child.signalCode !== null) return;
			const exited = once(child, 'exit');
			child.kill('SIGTERM');
			const forced = setTimeout(() => child.kill('SIGKILL'), 5000);
			await exited;
			clearTimeout(forced);
		},
	};
}

/** utime + stime of a process from /proc/<pid>/stat, in ms (clock ticks are 100 Hz on Linux). */
function processCpuMs(pid: number | undefined): number | undefined {
	if (pid === undefined) return undefined;
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
		const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
		// Fields after the command: state is [0], utime is [11], stime is [12].
		return (Number(fields[11]) + Number(fields[12])) * 10;
	} catch {
		return undefined;
	}
}
