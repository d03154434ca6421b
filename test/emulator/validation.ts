/**
 * Turns request bodies into typed inputs (query strings: ./query.ts), or a 400 naming the offending field.
 * Only shapes and types are checked here; rules that need state (does the owner exist, does the
 * schema exist) live in the store.
 *
 * Unknown body fields and query parameters are rejected rather than ignored: the emulator exists
 * to catch a client that sends a field under the wrong name.
 */
import type {
	Asset,
	ColumnPatch,
	Connector,
	SchemaPatch,
	SchemasPatch,
	TablePatch,
	TagRelation,
} from '../../nodes/DataIntegrationManagement/client/types';
import { badRequest } from './errors';

type Fields = Record<string, unknown>;

export interface NewTag {
	name: string;
	description?: string;
	owner: string;
}
export type TagChanges = Partial<NewTag>;

export type NewAsset = Omit<Asset, 'id'>;
export type AssetChanges = Partial<Omit<NewAsset, 'type'>>;

export type NewConnector = Omit<Connector, 'id'>;

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

export function rejectUnknownKeys(
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
