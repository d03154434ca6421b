/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * The emulator as its own process (`npm run emulator`, i.e. test/emulator/cli.ts), seeded, on
 * loopback; the run drives it through its HTTP control endpoints under /__emulator, as a test
 * in another process must.
 */
import type { AuditLogEntry } from '../../../nodes/DataIntegrationManagement/client/types';
import type { TrafficEntry } from '../../emulator/rate-limit';
import type { FaultSpec, NewAuditEntry, RecordedRequest } from '../../emulator/types';
import { REPO_ROOT } from './n8n';
import { startService, waitFor, type Service } from './processes';

export interface RunningEmulator {
	service: Service;
	/** What goes into the credential. */
	baseUrl: string;
	apiKey: string;
	control: EmulatorControl;
}

export async function startEmulatorProcess(options: {
	port: number;
	apiKey: string;
	logFile: string;
}): Promise<RunningEmulator> {
	// The same Node that runs this script, with tsx's loader: what `npm run emulator` does.
	const service = startService(
		'emulator',
		process.execPath,
		['--import', 'tsx', 'test/emulator/cli.ts'],
		{
			cwd: REPO_ROOT,
			env: {
				...process.env,
				EMULATOR_PORT: String(options.port),
				EMULATOR_HOST: '127.0.0.1',
				EMULATOR_API_KEY: options.apiKey,
			},
			logFile: options.logFile,
		},
	);
	const origin = `http://127.0.0.1:${options.port}`;
	const control = new EmulatorControl(`${origin}/__emulator`);
	await waitFor('the emulator to listen', async () => ((await control.isUp()) ? true : undefined), {
		timeoutMs: 30_000,
		intervalMs: 250,
		services: [service],
	});
	return { service, baseUrl: `${origin}/v1`, apiKey: options.apiKey, control };
}

export class EmulatorControl {
	constructor(readonly url: string) {}

	private async call(method: string, path: string, body?: unknown): Promise<Response> {
		const response = await fetch(`${this.url}${path}`, {
			method,
			headers: body === undefined ? {} : { 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		if (!response.ok)
			throw new Error(
				`${method} ${this.url}${path} answered ${response.status}: ${await response.text()}`,
			);
		return response;
	}

	async isUp(): Promise<boolean> {
		return await fetch(`${this.url}/requests`).then(
			(response) => response.ok,
			() => false,
		);
	}

	/** Back to the seed, with an empty request log. */
	async reset(): Promise<void> {
		await this.call('POST', '/reset', {});
	}

	async clearRequests(): Promise<void> {
		await this.call('DELETE', '/requests');
	}

	/** Every /v1 request received since the last clear or reset, in arrival order (key redacted). */
	async requests(): Promise<RecordedRequest[]> {
		return ((await (await this.call('GET', '/requests')).json()) as { requests: RecordedRequest[] })
			.requests;
	}

	/**
	 * Every /v1 request answered since the last reset, in the order answered: when it arrived and
	 * when it was answered (ms on the emulator's own clock), and the status.
	 */
	async traffic(): Promise<TrafficEntry[]> {
		return ((await (await this.call('GET', '/traffic')).json()) as { traffic: TrafficEntry[] })
			.traffic;
	}

	/** Answers the next matching /v1 request (`count` of them, if given) with a fault; reset clears it. */
	async injectFault(fault: FaultSpec): Promise<void> {
		await this.call('POST', '/faults', fault);
	}

	/** A fixed delay before every /v1 answer (0: none). */
	async setLatency(ms: number): Promise<void> {
		await this.call('PUT', '/latency', { ms });
	}

	/** Appends entries to the audit log, as the service would log them. */
	async addAuditEntries(entries: NewAuditEntry[]): Promise<AuditLogEntry[]> {
		const response = await this.call('POST', '/audit-logs', { entries });
		return ((await response.json()) as { entries: AuditLogEntry[] }).entries;
	}
}
