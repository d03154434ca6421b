/**
 * The API's types: its resources, with field names exactly as the specification gives them.
 * Choices the specification leaves open live in ./choices.ts, not here. Type aliases, not
 * interfaces, so that a resource is an IDataObject (an output item's json) without a cast.
 */

export type SortOrder = 'asc' | 'desc';

/** What every answer of the service is wrapped in: its `code`, `message` and `data`. */
export type Envelope<T> = {
	code: string;
	message?: string;
	data?: T;
};

export type Tag = {
	id: string;
	name: string;
	description?: string;
	owner: string;
	origin?: string;
	createdAt: string;
	lastUpdatedAt: string;
};

export type TagRelation = {
	resourceId: string;
	resourceType: string;
};

export type Asset = {
	id: string;
	name: string;
	type: string;
	description?: string;
	connection?: Record<string, unknown>;
};

/** A connector is described as an asset is, and says how it connects. */
export type Connector = Asset & { connectionType: string; authMethod: string };

export type IntegrationEndpoint = {
	id: string;
	name: string;
	type: string;
};

export type Integration = {
	id: string;
	name: string;
	createdAt: string;
	paused: boolean;
	source: IntegrationEndpoint;
	destination: IntegrationEndpoint;
	latestRunId: string;
};

export type ColumnConfig = {
	nameInDestination: string;
	enabled: boolean;
	hashed: boolean;
	isPrimaryKey: boolean;
};

export type TableConfig = {
	nameInDestination: string;
	enabled: boolean;
	syncMode: string;
	cursorField?: string;
	columns: Record<string, ColumnConfig>;
};

export type SchemaConfig = {
	nameInDestination: string;
	enabled: boolean;
	tables: Record<string, TableConfig>;
};

export type SchemasConfig = Record<string, SchemaConfig>;

/**
 * A schemas map as the node accepts it from the service (A_SCHEMAS_MAP, ./endpoint.ts): the
 * spec's shape, but a schema may come without `tables` and a table without `columns`.
 */
export type ReceivedSchemas = Record<
	string,
	Omit<SchemaConfig, 'tables'> & {
		tables?: Record<string, Omit<TableConfig, 'columns'> & { columns?: TableConfig['columns'] }>;
	}
>;

/** Request shape of `PATCH /integrations/{id}/schemas`: only writable flags, every level optional. */
export type ColumnPatch = {
	enabled?: boolean;
	hashed?: boolean;
};
export type TablePatch = {
	enabled?: boolean;
	columns?: Record<string, ColumnPatch>;
};
export type SchemaPatch = {
	enabled?: boolean;
	tables?: Record<string, TablePatch>;
};
export type SchemasPatch = Record<string, SchemaPatch>;

export type User = {
	id: string;
	email: string;
	createdAt: string;
	name: string;
};

export type AuditLogEntry = {
	id: string;
	timestamp: string;
	event: string;
	actor: { type: string; email: string };
	context: { ipAddress: string; userAgent: string };
};

export type AuditLogPage = {
	/** Left out by some services: the end is then an empty page. */
	totalItems?: number;
	items: AuditLogEntry[];
};
