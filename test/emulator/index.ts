/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * In-memory emulator of the Data Integration Management Service for tests and demos.
 *
 *   const emulator = await startEmulator();
 *   // point the credential at emulator.baseUrl with emulator.apiKey, run, then assert on
 *   // emulator.store and emulator.requests
 *   await emulator.close();
 */
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type {
	AuditLogEntry,
	TagRelation,
} from '../../nodes/DataIntegrationManagement/client/types';
import { ChosenAnswers, type ChosenAnswer } from './answers';
import { Capacity } from './capacity';
import { FaultQueue } from './faults';
import { InTransit } from './in-transit';
import { Latency, type LatencySpec } from './latency';
import { RateLimit } from './rate-limit';
import { seedStore } from './seed';
import { buildServer, type ServerContext } from './server';
import { Store } from './store';
import type {
	Emulator,
	FaultSpec,
	HoldSpec,
	NewAuditEntry,
	RecordedRequest,
	StartOptions,
} from './types';

export type { ChosenAnswer } from './answers';
export { SEED } from './seed';
export {
	OFFSET_IGNORED,
	SERVICE_VARIANTS,
	servedWithoutReadableTimestamp,
	withOffsetIgnored,
	type ServiceVariant,
} from './variants';
export { Store } from './store';
export type { RateLimitSpec, TrafficEntry } from './rate-limit';
export type { CapacitySpec } from './capacity';
export type { LatencySpec } from './latency';
export type {
	Emulator,
	FaultKind,
	FaultSpec,
	HoldSpec,
	NewAuditEntry,
	RecordedRequest,
	StartOptions,
} from './types';

// eslint-disable-next-line @n8n/community-nodes/no-hardcoded-secrets -- a fixed, public key for local tests, not a secret
export const DEFAULT_API_KEY = 'emulator-test-key-4f9c2a';

class RunningEmulator implements Emulator, ServerContext {
	baseUrl = '';
	readonly apiKey: string;
	readonly store = new Store();
	readonly requests: RecordedRequest[] = [];
	readonly faults = new FaultQueue();
	readonly inTransit = new InTransit();
	readonly rateLimit = new RateLimit();
	readonly capacity = new Capacity();
	readonly answers = new ChosenAnswers();
	readonly latency = new Latency();
	/** How far the service's clock (its Date header) is from this machine's, in ms. */
	clockOffsetMs = 0;
	/** Whether answers carry a Date header (a service behind some proxies sends none). */
	sendsDateHeader = true;
	/** How many times the emulator was reset: a request that arrived before the last one is stale. */
	resets = 0;
	private readonly app: FastifyInstance;

	constructor(private readonly options: StartOptions) {
		this.apiKey = options.apiKey ?? DEFAULT_API_KEY;
		this.latency.set(options.latency ?? options.latencyMs ?? 0);
		this.rateLimit.set(options.rateLimit);
		this.capacity.set(options.capacity);
		this.app = buildServer(this);
		this.loadState(options.seed ?? true);
	}

	async listen(): Promise<void> {
		const host = this.options.host ?? '127.0.0.1';
		await this.app.listen({ port: this.options.port ?? 0, host });
		const { port } = this.app.server.address() as AddressInfo;
		this.baseUrl = `http://${host.includes(':') ? `[${host}]` : host}:${port}/v1`;
	}

	clearRequests(): void {
		this.requests.length = 0;
	}

	/**
	 * Back to the state the emulator started in: seeded unless told otherwise (default: as at
	 * start), no recorded requests, no faults or chosen answers, and the latency, rate limit and
	 * capacity model given at start (none by default), the service's clock on this machine's, with a
	 * full bucket, every worker free, the counts at 0 and an empty traffic log.
	 * Requests still in transit, waiting or being served from before are cut (see the server's gate).
	 */
	reset(options: { seed?: boolean } = {}): void {
		this.resets++;
		this.loadState(options.seed ?? this.options.seed ?? true);
		this.clearRequests();
		this.clearFaults();
		this.inTransit.clear();
		this.answers.clear();
		this.store.auditLogVariant = {};
		this.latency.set(this.options.latency ?? this.options.latencyMs ?? 0);
		this.clockOffsetMs = 0;
		this.sendsDateHeader = true;
		this.rateLimit.set(this.options.rateLimit);
		this.rateLimit.clearTraffic();
		this.capacity.set(this.options.capacity);
	}

	addAuditEntries(entries: NewAuditEntry[]): AuditLogEntry[] {
		return this.store.addAuditEntries(entries);
	}

	addTagRelation(tagId: string, relation: TagRelation): void {
		this.store.addTagRelation(tagId, relation);
	}

	injectFault(fault: FaultSpec): void {
		this.faults.add(fault);
	}

	clearFaults(): void {
		this.faults.clear();
	}

	holdInTransit(hold: HoldSpec): void {
		this.inTransit.add(hold);
	}

	answerWith(answer: ChosenAnswer): void {
		this.answers.add(answer);
	}

	setLatency(latency: number | LatencySpec): void {
		this.latency.set(latency);
	}

	/** Sets the service's clock `offsetMs` from this machine's: its Date header says so. */
	setClockOffset(offsetMs: number): void {
		this.clockOffsetMs = offsetMs;
	}

	/** Whether answers carry a Date header; reset puts it back. */
	setDateHeader(sent: boolean): void {
		this.sendsDateHeader = sent;
	}

	async close(): Promise<void> {
		await this.app.close();
	}

	private loadState(seed: boolean) {
		this.store.clear();
		if (seed) seedStore(this.store);
	}
}

export async function startEmulator(options: StartOptions = {}): Promise<Emulator> {
	const emulator = new RunningEmulator(options);
	await emulator.listen();
	return emulator;
}
