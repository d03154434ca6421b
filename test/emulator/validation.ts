/**
 * Turns request bodies and query strings into typed inputs, or a 400 naming the offending field.
 * Only shapes and types are checked here; rules that need state (does the owner exist, does the
 * schema exist) live in the store.
 *
 * Unknown body fields and query parameters are rejected rather than ignored: the emulator exists
 * to catch a client that sends a field under the wrong name.
 */
import {
	AUDIT_LOG_MAX_PAGE_SIZE,
	AUDIT_LOG_QUERY,
	AUDIT_LOG_SORT_FIELD,
} from '../../nodes/DataIntegrationManagement/client/choices';
import type {
	Asset,
	ColumnPatch,
	Connector,
	SchemaPatch,
	SchemasPatch,
	SortOrder,
	TablePatch,
	TagRelation,
} from '../../nodes/DataIntegrationManagement/client/types';
import { AUDIT_LOG_DEFAULT_PAGE_SIZE, SORT_ORDERS } from './choices';
import { badRequest } from './errors';
import { parseInstant } from './timestamps';

type Fields = Record<string, unknown>;
export type QueryParams = Record<string, string | string[]>;

export interface NewTag {
	name: string;
	description?: string;
	owner: string;
}
export type TagChanges = Partial<NewTag>;

export type NewAsset = Omit<Asset, 'id'>;
export type AssetChanges = Partial<Omit<NewAsset, 'type'>>;

export type NewConnector = Omit<Connector, 'id'>;

export interface AuditLogQuery {
	limit: number;
	offset: number;
	sortOrder: SortOrder;
	/** Inclusive lower bound, nanoseconds since the epoch. */
	startTime?: bigint;
	/** Exclusive upper bound, nanoseconds since the epoch. */
	endTime?: bigint;
}

export function isPlainObject(value: unknown): value is Fields {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// ----- Body field readers -----

/** The body's fields; no body at all reads as {}, so the first missing field gets named. */
function readBody(body: unknown, allowed: readonly string[]): Fields {
	if (body === undefined) return {};
	if (!isPlainObject(body)) throw badRequest('request body must be a JSON object');
	rejectUnknownKeys(body, allowed, (key) => `unknown field '${key}'`);
	return body;
}

function rejectUnknownKeys(
	fields: Fields,
	allowed: readonly string[],
	describe: (key: string) => string,
) {
	const unknown = Object.keys(fields).find((key) => !allowed.includes(key));
	if (unknown !== undefined) {
		const expected =
			allowed.length > 0 ? `allowed: ${allowed.join(', ')}` : 'none are accepted here';
		throw badRequest(`${describe(unknown)}; ${expected}`);
	}
}

function requireAtLeastOne(fields: Fields, names: readonly string[]) {
	if (!names.some((name) => name in fields)) {
		throw badRequest(`at least one of ${names.join(', ')} is required`);
	}
}

function requiredString(fields: Fields, name: string): string {
	const value = fields[name];
	if (typeof value !== 'string' || value.trim() === '') {
		throw badRequest(`${name} is required and must be a non-empty string`);
	}
	return value;
}

function optionalNonEmptyString(fields: Fields, name: string): string | undefined {
	if (!(name in fields)) return undefined;
	const value = fields[name];
	if (typeof value !== 'string' || value.trim() === '') {
		throw badRequest(`${name} must be a non-empty string`);
	}
	return value;
}

function optionalString(fields: Fields, name: string): string | undefined {
	if (!(name in fields)) return undefined;
	const value = fields[name];
	if (typeof value !== 'string') throw badRequest(`${name} must be a string`);
	return value;
}

function optionalObject(fields: Fields, name: string): Record<string, unknown> | undefined {
	if (!(name in fields)) return undefined;
	const value = fields[name];
	if (!isPlainObject(value)) throw badRequest(`${name} must be a JSON object`);
	return value;
}

// ----- Operation bodies -----

const TAG_EDIT_FIELDS = ['name', 'description', 'owner'] as const;
const ASSET_EDIT_FIELDS = ['name', 'description', 'connection'] as const;

export function parseNewTag(body: unknown): NewTag {
	const fields = readBody(body, ['name', 'description', 'owner']);
	return {
		name: requiredString(fields, 'name'),
		description: optionalString(fields, 'description'),
		owner: requiredString(fields, 'owner'),
	};
}

export function parseTagChanges(body: unknown): TagChanges {
	const fields = readBody(body, TAG_EDIT_FIELDS);
	requireAtLeastOne(fields, TAG_EDIT_FIELDS);
	return {
		name: optionalNonEmptyString(fields, 'name'),
		description: optionalString(fields, 'description'),
		owner: optionalNonEmptyString(fields, 'owner'),
	};
}

export function parseTagRelation(body: unknown): TagRelation {
	const fields = readBody(body, ['resourceId', 'resourceType']);
	return {
		resourceId: requiredString(fields, 'resourceId'),
		resourceType: requiredString(fields, 'resourceType'),
	};
}

export function parseNewAsset(body: unknown): NewAsset {
	const fields = readBody(body, ['name', 'type', 'description', 'connection']);
	return {
		name: requiredString(fields, 'name'),
		type: requiredString(fields, 'type'),
		description: optionalString(fields, 'description'),
		connection: optionalObject(fields, 'connection'),
	};
}

export function parseAssetChanges(body: unknown): AssetChanges {
	// Checked before the generic unknown-field rule to say why: the spec leaves type out of the edit body.
	if (isPlainObject(body) && 'type' in body) {
		throw badRequest('type cannot be changed: it is not part of the asset edit body');
	}
	const fields = readBody(body, ASSET_EDIT_FIELDS);
	requireAtLeastOne(fields, ASSET_EDIT_FIELDS);
	return {
		name: optionalNonEmptyString(fields, 'name'),
		description: optionalString(fields, 'description'),
		connection: optionalObject(fields, 'connection'),
	};
}

export function parseNewConnector(body: unknown): NewConnector {
	const fields = readBody(body, [
		'name',
		'type',
		'description',
		'connection',
		'connectionType',
		'authMethod',
	]);
	return {
		name: requiredString(fields, 'name'),
		type: requiredString(fields, 'type'),
		description: optionalString(fields, 'description'),
		connection: optionalObject(fields, 'connection'),
		connectionType: requiredString(fields, 'connectionType'),
		authMethod: requiredString(fields, 'authMethod'),
	};
}

// ----- PATCH /integrations/{id}/schemas -----

/** schemas.public.tables["Order Details"]: dotted, quoting names that are not plain identifiers. */
function childPath(parent: string, name: string): string {
	return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name)
		? `${parent}.${name}`
		: `${parent}[${JSON.stringify(name)}]`;
}

/** One level of the patch: an object holding only the writable flags and the nested map. */
function readPatchEntry(value: unknown, path: string, allowed: readonly string[]): Fields {
	if (!isPlainObject(value)) throw badRequest(`${path} must be an object`);
	rejectUnknownKeys(value, allowed, (key) => `${childPath(path, key)} cannot be set`);
	return value;
}

/** The boolean flags present in an entry; absent ones stay absent so they are left unchanged. */
function readFlags<Flag extends string>(
	fields: Fields,
	path: string,
	flags: readonly Flag[],
): Partial<Record<Flag, boolean>> {
	const result: Partial<Record<Flag, boolean>> = {};
	for (const flag of flags.filter((name) => name in fields)) {
		if (typeof fields[flag] !== 'boolean')
			throw badRequest(`${childPath(path, flag)} must be a boolean`);
		result[flag] = fields[flag];
	}
	return result;
}

function readNamedMap<T>(
	value: unknown,
	path: string,
	readItem: (item: unknown, itemPath: string) => T,
): Record<string, T> {
	if (!isPlainObject(value)) throw badRequest(`${path} must be an object keyed by name`);
	return Object.fromEntries(
		Object.entries(value).map(([name, item]) => [name, readItem(item, childPath(path, name))]),
	);
}

function parseColumnPatch(value: unknown, path: string): ColumnPatch {
	const fields = readPatchEntry(value, path, ['enabled', 'hashed']);
	return readFlags(fields, path, ['enabled', 'hashed']);
}

function parseTablePatch(value: unknown, path: string): TablePatch {
	const fields = readPatchEntry(value, path, ['enabled', 'columns']);
	const patch: TablePatch = readFlags(fields, path, ['enabled']);
	if ('columns' in fields) {
		patch.columns = readNamedMap(fields.columns, childPath(path, 'columns'), parseColumnPatch);
	}
	return patch;
}

function parseSchemaPatch(value: unknown, path: string): SchemaPatch {
	const fields = readPatchEntry(value, path, ['enabled', 'tables']);
	const patch: SchemaPatch = readFlags(fields, path, ['enabled']);
	if ('tables' in fields) {
		patch.tables = readNamedMap(fields.tables, childPath(path, 'tables'), parseTablePatch);
	}
	return patch;
}

export function parseSchemasPatch(body: unknown): SchemasPatch {
	const fields = readBody(body, ['schemas']);
	if (!('schemas' in fields)) {
		throw badRequest('schemas is required and must be an object keyed by schema name');
	}
	return readNamedMap(fields.schemas, 'schemas', parseSchemaPatch);
}

// ----- Query strings -----

/** Operations the spec gives no query parameters must not receive any. */
export function rejectQuery(query: QueryParams) {
	rejectUnknownKeys(query, [], (key) => `unknown query parameter '${key}'`);
}

function singleValue(query: QueryParams, name: string): string | undefined {
	const value = query[name];
	if (Array.isArray(value)) throw badRequest(`${name} must be given at most once`);
	return value;
}

function integerParam(
	query: QueryParams,
	name: string,
	min: number,
	max: number,
	fallback: number,
) {
	const text = singleValue(query, name);
	if (text === undefined) return fallback;
	const value = Number(text);
	if (!/^\d+$/.test(text) || value < min || value > max) {
		const range = max === Number.MAX_SAFE_INTEGER ? `${min} or more` : `between ${min} and ${max}`;
		throw badRequest(`${name} must be an integer ${range}, got '${text}'`);
	}
	return value;
}

function timestampParam(query: QueryParams, name: string): bigint | undefined {
	const text = singleValue(query, name);
	if (text === undefined) return undefined;
	const instant = parseInstant(text);
	if (instant === undefined) {
		throw badRequest(
			`${name} must be an ISO 8601 date-time with a time zone, e.g. 2026-10-01T00:00:00Z, got '${text}'`,
		);
	}
	return instant;
}

function enumParam<T extends string>(
	query: QueryParams,
	name: string,
	allowed: readonly T[],
): T | undefined {
	const text = singleValue(query, name);
	if (text !== undefined && !allowed.includes(text as T)) {
		throw badRequest(`${name} must be one of ${allowed.join(', ')}, got '${text}'`);
	}
	return text as T | undefined;
}

export function parseAuditLogQuery(query: QueryParams): AuditLogQuery {
	const names = AUDIT_LOG_QUERY;
	rejectUnknownKeys(query, Object.values(names), (key) => `unknown query parameter '${key}'`);
	enumParam(query, names.sortField, [AUDIT_LOG_SORT_FIELD]);
	return {
		limit: integerParam(
			query,
			names.pageSize,
			1,
			AUDIT_LOG_MAX_PAGE_SIZE,
			AUDIT_LOG_DEFAULT_PAGE_SIZE,
		),
		offset: integerParam(query, names.skip, 0, Number.MAX_SAFE_INTEGER, 0),
		sortOrder: enumParam(query, names.sortDirection, SORT_ORDERS) ?? 'desc',
		startTime: timestampParam(query, names.since),
		endTime: timestampParam(query, names.until),
	};
}
