/**
 * The service's contract as this package reads it: the API's types, and every choice the
 * specification leaves open ("not shown"). The nodes and the test emulator both import this
 * file, so the two cannot drift apart. The README's "Choices we made" section mirrors it.
 */

/** Header that carries the API key on every request. */
export const API_KEY_HEADER = 'x-api-key';

/** Literal query-parameter names of `GET /audit-logs` (the spec gives only their meaning). */
export const AUDIT_LOG_QUERY = {
	limit: 'limit',
	offset: 'offset',
	sortBy: 'sortBy',
	sortOrder: 'sortOrder',
	/** Inclusive lower bound. */
	startTime: 'startTime',
	/** Exclusive upper bound. */
	endTime: 'endTime',
} as const;

/** The spec's limit for one `GET /audit-logs` request; the nodes always page with it. */
export const AUDIT_LOG_MAX_PAGE_SIZE = 100;

/** Page size the emulator applies when a client sends no limit (the spec does not say). */
export const AUDIT_LOG_DEFAULT_PAGE_SIZE = 50;

/** The only sort field the spec allows. */
export const AUDIT_LOG_SORT_FIELD = 'timestamp';

export type SortOrder = 'asc' | 'desc';
export const SORT_ORDERS: readonly SortOrder[] = ['asc', 'desc'];

/** Value of `code` in a successful envelope (the spec does not list code values). */
export const SUCCESS_CODE = 'SUCCESS';

/**
 * HTTP statuses the spec leaves open, with the error `code` we use for each.
 * The spec states only 400 for an invalid `POST /tags`; the rest are the usual REST choices.
 */
export const ERROR_CODES = {
	400: 'BAD_REQUEST',
	401: 'UNAUTHORIZED',
	404: 'NOT_FOUND',
	429: 'RATE_LIMITED',
	500: 'INTERNAL_ERROR',
} as const;

/** Value of `origin` on a tag created or edited through the API (allowed values not shown). */
export const TAG_ORIGIN_API = 'api';

// ----- Types of the API's resources (field names exactly as the spec gives them) -----

export interface Envelope<T> {
	code: string;
	message?: string;
	data?: T;
}

export interface ErrorBody {
	code: string;
	message: string;
}

export interface Tag {
	id: string;
	name: string;
	description?: string;
	owner: string;
	origin?: string;
	createdAt: string;
	lastUpdatedAt: string;
}

export interface TagRelation {
	resourceId: string;
	resourceType: string;
}

export interface Asset {
	id: string;
	name: string;
	type: string;
	description?: string;
	connection?: Record<string, unknown>;
}

export interface Connector {
	id: string;
	name: string;
	type: string;
	description?: string;
	connection?: Record<string, unknown>;
	connectionType: string;
	authMethod: string;
}

export interface IntegrationEndpoint {
	id: string;
	name: string;
	type: string;
}

export interface Integration {
	id: string;
	name: string;
	createdAt: string;
	paused: boolean;
	source: IntegrationEndpoint;
	destination: IntegrationEndpoint;
	latestRunId: string;
}

export interface ColumnConfig {
	nameInDestination: string;
	enabled: boolean;
	hashed: boolean;
	isPrimaryKey: boolean;
}

export interface TableConfig {
	nameInDestination: string;
	enabled: boolean;
	syncMode: string;
	cursorField?: string;
	columns: Record<string, ColumnConfig>;
}

export interface SchemaConfig {
	nameInDestination: string;
	enabled: boolean;
	tables: Record<string, TableConfig>;
}

export type SchemasConfig = Record<string, SchemaConfig>;

/** Request shape of `PATCH /integrations/{id}/schemas`: only writable flags, every level optional. */
export interface ColumnPatch {
	enabled?: boolean;
	hashed?: boolean;
}
export interface TablePatch {
	enabled?: boolean;
	columns?: Record<string, ColumnPatch>;
}
export interface SchemaPatch {
	enabled?: boolean;
	tables?: Record<string, TablePatch>;
}
export type SchemasPatch = Record<string, SchemaPatch>;

export interface User {
	id: string;
	email: string;
	createdAt: string;
	name: string;
}

export interface AuditLogEntry {
	id: string;
	timestamp: string;
	event: string;
	actor: { type: string; email: string };
	context: { ipAddress: string; userAgent: string };
}

export interface AuditLogPage {
	totalItems: number;
	items: AuditLogEntry[];
}
