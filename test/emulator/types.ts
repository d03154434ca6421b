import type {
	AuditLogEntry,
	TagRelation,
} from '../../nodes/DataIntegrationManagement/client/types';
import type { ChosenAnswer } from './answers';
import type { RequestMatch } from './armed';
import type { Capacity, CapacitySpec } from './capacity';
import type { Latency, LatencySpec } from './latency';
import type { RateLimit, RateLimitSpec } from './rate-limit';
import type { NewAuditEntry, Store } from './store';

export interface StartOptions {
	/** Port to listen on; 0 (the default) picks a free one. */
	port?: number;
	/** Address to listen on; default 127.0.0.1. */
	host?: string;
	/** The one key the emulator accepts; default DEFAULT_API_KEY. */
	apiKey?: string;
	/** Load the seed data; default true. */
	seed?: boolean;
	/** Fixed delay before every /v1 response; default 0. */
	latencyMs?: number;
	/** A delay that varies (jitter, a heavy tail; see latency.ts); overrides `latencyMs`. */
	latency?: LatencySpec;
	/** A token-bucket rate limit answering 429 with Retry-After; default none. */
	rateLimit?: RateLimitSpec;
	/** Finite capacity: workers, service time, a bounded queue, 503 beyond it; default none. */
	capacity?: CapacitySpec;
}

export interface RecordedRequest {
	method: string;
	/** Relative to /v1 and as sent on the wire (not URL-decoded), without the query string. */
	path: string;
	query: Record<string, string | string[]>;
	/** Header names lowercased. */
	headers: Record<string, string | string[] | undefined>;
	/** Parsed JSON body, or undefined when there was none or it did not parse. */
	body: unknown;
}

export type FaultKind = 'status' | 'drop' | 'malformed' | 'redirect';

export interface FaultSpec extends RequestMatch {
	kind: FaultKind;
	/** HTTP status answered by a 'status' fault (400-599), or a 'redirect' (300-399, default 307). */
	status?: number;
	/**
	 * Location header of a 'redirect' (none when unset), as sent but for `{path}`: the request's
	 * path, /v1 included, without its query. E.g. `https://new-host{path}`, `/v1/moved{path}`.
	 */
	location?: string;
	/** Sets the Retry-After header on a 'status' fault. */
	retryAfterSeconds?: number;
	/** Error message of a 'status' fault. */
	message?: string;
}

/**
 * A request held in transit: it reaches the service `ms` after it was sent, so requests sent
 * after it are acted on first (a slow hop, a busy load balancer). It is in `requests` from when
 * it was sent.
 */
export interface HoldSpec extends RequestMatch {
	/** The longest it is held, ms. */
	ms: number;
}

export type { NewAuditEntry };

export interface Emulator {
	/** e.g. http://127.0.0.1:41234/v1 */
	baseUrl: string;
	apiKey: string;
	/** The emulator's state, for assertions and direct setup. */
	store: Store;
	/** Every /v1 request received, rejected ones included, in arrival order. */
	requests: RecordedRequest[];
	clearRequests(): void;
	/**
	 * Empties or re-seeds the state (default: as at start), clears requests, faults and chosen
	 * answers, and puts the latency, the rate limit and the capacity model back to the start options
	 * (StartOptions.latency or latencyMs, rateLimit, capacity; none unless given): a full bucket, every worker
	 * free, counts at 0. The audit log is answered as the spec-following service again
	 * (`store.auditLogVariant`, see variants.ts). A request still held, waiting out the latency, or
	 * waiting for or holding a worker from before the reset (its client gone, e.g. a poll its budget
	 * cut) then has its connection cut: it takes no fault or chosen answer set after the reset,
	 * holds no worker of the model after it, and changes nothing.
	 */
	reset(options?: { seed?: boolean }): void;
	/** Appends audit-log entries, filling a missing id (UUID v4), event, actor and context. */
	addAuditEntries(entries: NewAuditEntry[]): AuditLogEntry[];
	addTagRelation(tagId: string, relation: TagRelation): void;
	injectFault(fault: FaultSpec): void;
	clearFaults(): void;
	/** Holds matching /v1 requests in transit (see HoldSpec); reset forgets holds not used yet. */
	holdInTransit(hold: HoldSpec): void;
	/** Answers the next matching /v1 request(s) with a chosen status and body (see answers.ts). */
	answerWith(answer: ChosenAnswer): void;
	/**
	 * Delay before every /v1 response: a number of ms, or one that varies (jitter, a heavy tail;
	 * see latency.ts), its draws from the seed's start.
	 */
	setLatency(latency: number | LatencySpec): void;
	/** The latency now (`current`), as set or as at start. */
	readonly latency: Latency;
	/** Sets the service's clock `offsetMs` from this machine's: its Date header says so; reset puts it back. */
	setClockOffset(offsetMs: number): void;
	/** Whether answers carry a Date header; reset puts it back. */
	setDateHeader(sent: boolean): void;
	/** The token-bucket rate limit (`set` it, read `refused`) and the log of /v1 traffic. */
	readonly rateLimit: RateLimit;
	/** The capacity model (`set` it, read `shed`, `open`, `maxOpen`); see capacity.ts. */
	readonly capacity: Capacity;
	close(): Promise<void>;
}
