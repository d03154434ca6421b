/**
 * The API's types: its envelope and resources, with field names exactly as the specification
 * gives them. Choices the specification leaves open live in ./choices.ts, not here.
 */

export type SortOrder = 'asc' | 'desc';

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
	/** Left out by some services: the end is then an empty page. */
	totalItems?: number;
	items: AuditLogEntry[];
}
