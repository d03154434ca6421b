/**
 * The emulator's state and the rules that need it. Inputs arrive already shape-checked
 * (see validation.ts); what remains here is existence (ids, owners, schema names) and behaviour.
 */
import { randomUUID } from 'node:crypto';
import type {
	Asset,
	AuditLogEntry,
	AuditLogPage,
	ColumnConfig,
	Connector,
	Integration,
	SchemasConfig,
	SchemasPatch,
	Tag,
	TagRelation,
	User,
} from '../../nodes/DataIntegrationManagement/client/types';
import { TAG_ORIGIN_API } from './choices';
import { badRequest, notFound } from './errors';
import { parseInstant } from './timestamps';
import type { ServiceVariant } from './service-variant';
import type { AssetChanges, NewAsset, NewConnector, NewTag, TagChanges } from './validation';
import type { AuditLogQuery } from './query';

/** Fields a test's audit entry gets when it leaves them out. */
/** An audit-log entry to add: its timestamp, and whatever else it has (the rest is filled in). */
export type NewAuditEntry = Partial<AuditLogEntry> & { timestamp: string };

const AUDIT_ENTRY_DEFAULTS: Omit<AuditLogEntry, 'id' | 'timestamp'> = {
	event: 'Test event',
	actor: { type: 'system', email: 'system@northwind-data.example' },
	context: { ipAddress: '127.0.0.1', userAgent: 'data-integration-emulator' },
};

/** A stored entry whose `enabled` (and for columns `hashed`) the schema update may set. */
type FlagTarget = { enabled: boolean; hashed?: boolean };
type FlagPatch = { enabled?: boolean; hashed?: boolean };

function newId(prefix: string): string {
	return `${prefix}_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
}

function now(): string {
	return new Date().toISOString();
}

/**
 * Drops fields whose value is undefined (absent from the request): an edit then leaves those
 * fields as they were, and a created resource does not store them.
 */
function withoutUndefined<T extends object>(fields: T): T {
	return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as T;
}

/**
 * The entry `name` maps to, only when it is the map's own: names such as `__proto__` or
 * `constructor` are plain names here, not a way to reach (and then write to) a prototype.
 */
function ownEntry<T>(map: Record<string, T>, name: string): T | undefined {
	return Object.hasOwn(map, name) ? map[name] : undefined;
}

function quoted(name: string): string {
	return `'${name}'`;
}

export class Store {
	readonly users = new Map<string, User>();
	readonly tags = new Map<string, Tag>();
	/** Relations of each tag, by tag id. */
	readonly tagRelations = new Map<string, TagRelation[]>();
	readonly assets = new Map<string, Asset>();
	readonly connectors = new Map<string, Connector>();
	readonly integrations = new Map<string, Integration>();
	/** Source schema configuration of each integration, by integration id. */
	readonly schemas = new Map<string, SchemasConfig>();
	/** Audit-log entries in insertion order (the tie-breaker between equal timestamps). */
	readonly auditEntries: AuditLogEntry[] = [];
	/** How `GET /audit-logs` is answered (see variants.ts); the spec-following service by default. */
	auditLogVariant: ServiceVariant = {};

	/** Empties every collection in place, so references held by tests stay valid. */
	clear(): void {
		for (const map of [
			this.users,
			this.tags,
			this.tagRelations,
			this.assets,
			this.connectors,
			this.integrations,
			this.schemas,
		]) {
			map.clear();
		}
		this.auditEntries.length = 0;
	}

	// ----- Tags -----

	createTag(input: NewTag): Tag {
		this.requireUser(input.owner);
		const timestamp = now();
		const tag: Tag = {
			id: newId('tag'),
			name: input.name,
			description: input.description ?? '',
			owner: input.owner,
			origin: TAG_ORIGIN_API,
			createdAt: timestamp,
			lastUpdatedAt: timestamp,
		};
		this.tags.set(tag.id, tag);
		this.tagRelations.set(tag.id, []);
		return tag;
	}

	updateTag(id: string, changes: TagChanges): Tag {
		const tag = this.requireTag(id);
		if (changes.owner !== undefined) this.requireUser(changes.owner);
		Object.assign(tag, withoutUndefined(changes), { origin: TAG_ORIGIN_API, lastUpdatedAt: now() });
		return tag;
	}

	addTagRelation(tagId: string, relation: TagRelation): void {
		this.requireTag(tagId);
		const relations = this.tagRelations.get(tagId) ?? [];
		relations.push({ resourceId: relation.resourceId, resourceType: relation.resourceType });
		this.tagRelations.set(tagId, relations);
	}

	deleteTagRelation(tagId: string, relation: TagRelation): void {
		this.requireTag(tagId);
		const relations = this.tagRelations.get(tagId) ?? [];
		const index = relations.findIndex(
			(r) => r.resourceId === relation.resourceId && r.resourceType === relation.resourceType,
		);
		if (index === -1) {
			throw notFound(
				`tag ${quoted(tagId)} has no relation to ${relation.resourceType} ${quoted(relation.resourceId)}`,
			);
		}
		relations.splice(index, 1);
	}

	// ----- Assets and connectors -----

	createAsset(input: NewAsset): Asset {
		const asset: Asset = { id: newId('ast'), ...withoutUndefined(input) };
		this.assets.set(asset.id, asset);
		return asset;
	}

	updateAsset(id: string, changes: AssetChanges): Asset {
		const asset = this.assets.get(id);
		if (!asset) throw notFound(`asset ${quoted(id)} does not exist`);
		return Object.assign(asset, withoutUndefined(changes));
	}

	createConnector(input: NewConnector): Connector {
		const connector: Connector = { id: newId('con'), ...withoutUndefined(input) };
		this.connectors.set(connector.id, connector);
		return connector;
	}

	// ----- Integrations and their source schemas -----

	getIntegration(id: string): Integration {
		const integration = this.integrations.get(id);
		if (!integration) throw notFound(`integration ${quoted(id)} does not exist`);
		return integration;
	}

	getSchemas(integrationId: string): SchemasConfig {
		this.getIntegration(integrationId);
		return this.schemas.get(integrationId) ?? {};
	}

	getColumns(
		integrationId: string,
		schemaName: string,
		tableName: string,
	): Record<string, ColumnConfig> {
		const schema = ownEntry(this.getSchemas(integrationId), schemaName);
		if (!schema)
			throw notFound(
				`schema ${quoted(schemaName)} does not exist in integration ${quoted(integrationId)}`,
			);
		const table = ownEntry(schema.tables, tableName);
		if (!table)
			throw notFound(`table ${quoted(tableName)} does not exist in schema ${quoted(schemaName)}`);
		return table.columns;
	}

	/**
	 * Applies a schema patch all-or-nothing: every named schema, table and column is looked up
	 * before anything changes, so an unknown name leaves the configuration untouched.
	 */
	updateSchemas(integrationId: string, patch: SchemasPatch): SchemasConfig {
		const schemas = this.getSchemas(integrationId);
		const updates: Array<[FlagTarget, FlagPatch]> = [];
		for (const [schemaName, schemaPatch] of Object.entries(patch)) {
			const schema = ownEntry(schemas, schemaName);
			if (!schema)
				throw badRequest(
					`schema ${quoted(schemaName)} does not exist in integration ${quoted(integrationId)}`,
				);
			updates.push([schema, schemaPatch]);
			for (const [tableName, tablePatch] of Object.entries(schemaPatch.tables ?? {})) {
				const table = ownEntry(schema.tables, tableName);
				if (!table)
					throw badRequest(
						`table ${quoted(tableName)} does not exist in schema ${quoted(schemaName)}`,
					);
				updates.push([table, tablePatch]);
				for (const [columnName, columnPatch] of Object.entries(tablePatch.columns ?? {})) {
					const column = ownEntry(table.columns, columnName);
					if (!column) {
						throw badRequest(
							`column ${quoted(columnName)} does not exist in table ${quoted(`${schemaName}.${tableName}`)}`,
						);
					}
					updates.push([column, columnPatch]);
				}
			}
		}
		for (const [target, flags] of updates) {
			if (flags.enabled !== undefined) target.enabled = flags.enabled;
			if (flags.hashed !== undefined) target.hashed = flags.hashed;
		}
		return schemas;
	}

	// ----- Users -----

	listUsers(): User[] {
		return [...this.users.values()];
	}

	// ----- Audit log -----

	/** Appends entries (timestamp kept verbatim), filling in what a test left out. */
	addAuditEntries(entries: NewAuditEntry[]): AuditLogEntry[] {
		const bad = entries.find((entry) => parseInstant(entry.timestamp) === undefined);
		if (bad) {
			throw badRequest(
				`timestamp ${quoted(String(bad.timestamp))} is not an ISO 8601 date-time with a time zone`,
			);
		}
		const added = entries.map((entry) => ({ id: randomUUID(), ...AUDIT_ENTRY_DEFAULTS, ...entry }));
		this.auditEntries.push(...added);
		return added;
	}

	/**
	 * One page of the audit log. Entries are ordered by the instant their timestamp names, equal
	 * instants by insertion order; descending is the exact reverse of ascending, so paging with
	 * offsets is stable in both directions. totalItems counts entries after the time filters.
	 */
	queryAuditLog(query: AuditLogQuery): AuditLogPage {
		const matching = this.auditEntries
			.map((entry, position) => ({ entry, position, instant: parseInstant(entry.timestamp) ?? 0n }))
			.filter(
				({ instant }) =>
					(query.startTime === undefined || instant >= query.startTime) &&
					(query.endTime === undefined || instant < query.endTime),
			)
			.sort((a, b) =>
				a.instant === b.instant ? a.position - b.position : a.instant < b.instant ? -1 : 1,
			);
		if (query.sortOrder === 'desc') matching.reverse();
		return {
			totalItems: matching.length,
			items: matching.slice(query.offset, query.offset + query.limit).map(({ entry }) => entry),
		};
	}

	// ----- Lookups shared by the rules above -----

	private requireTag(id: string): Tag {
		const tag = this.tags.get(id);
		if (!tag) throw notFound(`tag ${quoted(id)} does not exist`);
		return tag;
	}

	/** An unknown owner is a bad field value (400), not a missing resource in the path (404). */
	private requireUser(id: string): User {
		const user = this.users.get(id);
		if (!user) throw badRequest(`owner ${quoted(id)} is not the id of an existing user`);
		return user;
	}
}
