import type { IDataObject } from 'n8n-workflow';

import type { ReceivedSchemas, SchemasPatch } from '../../client/types';
import { holds } from '../../shared/filters';
import { isObject } from '../../shared/checks';

/** An integration's source schema as Get Schemas flattens it and Update Schemas patches it; pure. */

export const LEVELS = ['schema', 'table', 'column'] as const;
export type SchemaLevel = (typeof LEVELS)[number];

/**
 * One flat record per schema, table or column of a schemas map, each naming where it sits (first,
 * and over a service field of one of those names). Nested maps are left out: each level is a list.
 */
export function flattenSchemas(schemas: ReceivedSchemas, level: SchemaLevel): IDataObject[] {
	const records: IDataObject[] = [];
	const named = (where: IDataObject, fields: object) => ({ ...where, ...fields, ...where });
	for (const [schema, schemaEntry] of Object.entries(schemas)) {
		const { tables, ...schemaFields } = schemaEntry;
		if (level === 'schema') {
			records.push(named({ schema }, schemaFields));
			continue;
		}
		for (const [table, tableEntry] of Object.entries(tables ?? {})) {
			const { columns, ...tableFields } = tableEntry;
			if (level === 'table') {
				records.push(named({ schema, table }, tableFields));
				continue;
			}
			for (const [column, columnEntry] of Object.entries(columns ?? {}))
				records.push(named({ schema, table, column }, columnEntry));
		}
	}
	return records;
}

/** What Get Schemas narrows its answer to: a schema, a table of it, a part of column names. */
export interface Narrowing {
	schema: string;
	table: string;
	column: string;
}

/**
 * The schemas map narrowed to the schema named, in it to the table named, then to the columns
 * whose names hold `column` (and the tables and schemas that have one). When a name is not in
 * the map: the field that named it, and the names it has at that level instead.
 */
export function narrowSchemas(
	schemas: ReceivedSchemas,
	{ schema, table, column }: Narrowing,
): { schemas: ReceivedSchemas } | { missing: 'schema' | 'table'; known: string[] } {
	let named = schemas;
	if (schema) {
		if (!Object.hasOwn(schemas, schema)) return { missing: 'schema', known: Object.keys(schemas) };
		const entry = schemas[schema];
		const tables = entry.tables ?? {};
		if (table && !Object.hasOwn(tables, table))
			return { missing: 'table', known: Object.keys(tables) };
		named = { [schema]: table ? { ...entry, tables: { [table]: tables[table] } } : entry };
	}
	return { schemas: column ? columnsHolding(named, column) : named };
}

/** `schemas` with only the columns whose names hold `part`, and the tables and schemas that have one. */
function columnsHolding(schemas: ReceivedSchemas, part: string): ReceivedSchemas {
	const some = <T extends object>(entry: T, key: keyof T) =>
		Object.keys(entry[key] as object).length ? entry : undefined;
	return mapEntries(schemas, (schema) => {
		const tables = mapEntries(schema.tables ?? {}, (table) => {
			const columns = mapEntries(table.columns ?? {}, (column, name) =>
				holds(part, name) ? column : undefined,
			);
			return some({ ...table, columns }, 'columns');
		});
		return some({ ...schema, tables }, 'tables');
	});
}

/** Names as a message lists them: quoted, at most `max`, then how many more. */
export function someNames(names: string[], max = 20): string {
	const shown = names.slice(0, max).map((name) => JSON.stringify(name));
	const more = names.length - shown.length;
	return more > 0 ? `${shown.join(', ')} and ${more} more` : shown.join(', ');
}

const WRITABLE_FLAGS: Record<SchemaLevel, string[]> = {
	schema: ['enabled'],
	table: ['enabled'],
	column: ['enabled', 'hashed'],
};
const CHILDREN: Record<SchemaLevel, { key: string; level: SchemaLevel } | undefined> = {
	schema: { key: 'tables', level: 'table' },
	table: { key: 'columns', level: 'column' },
	column: undefined,
};

/**
 * Checks a user-given schemas object against the request shape of the PATCH: maps of names to
 * entries, only the writable boolean flags, nothing else, and no entry that sets nothing (a change
 * of nothing). Returns one line per problem, naming its path; none means valid.
 */
export function validateSchemasPatch(value: unknown): string[] {
	const problems: string[] = [];

	const visitMap = (map: unknown, level: SchemaLevel, path: string) => {
		if (!isObject(map)) problems.push(`${path} must be an object of ${level} names to entries`);
		else
			for (const [name, entry] of Object.entries(map))
				visitEntry(entry, level, path ? `${path}.${name}` : name);
	};
	const visitEntry = (entry: unknown, level: SchemaLevel, path: string) => {
		if (!isObject(entry)) {
			problems.push(`${path} must be an object`);
			return;
		}
		const child = CHILDREN[level];
		const accepts = [...WRITABLE_FLAGS[level], ...(child ? [child.key] : [])].join(', ');
		const setsFlag = WRITABLE_FLAGS[level].some((flag) => Object.hasOwn(entry, flag));
		const below = child ? entry[child.key] : undefined;
		// A change of nothing: no flag, and no entry below that could set one.
		if (!setsFlag && !(isObject(below) && Object.keys(below).length))
			problems.push(`${path} sets nothing (a ${level} accepts ${accepts})`);
		for (const [key, v] of Object.entries(entry)) {
			if (child && key === child.key) visitMap(v, child.level, `${path}.${key}`);
			else if (!WRITABLE_FLAGS[level].includes(key))
				problems.push(`${path}.${key} cannot be set (a ${level} accepts ${accepts})`);
			else if (typeof v !== 'boolean') problems.push(`${path}.${key} must be true or false`);
		}
	};

	if (!isObject(value)) return ['Schemas must be a JSON object of schema names to entries'];
	if (!Object.keys(value).length) return ['Schemas names no schema'];
	visitMap(value, 'schema', '');
	return problems;
}

/** What a changed entry the service's answer does not list says: where it would, or not; no map. */
const NOT_IN_ANSWER = [
	"The service's answer does not list it, so this change may not have been made: check its names with Integration → Get Schemas.",
	"The service's answer leaves out the list it would be in, so it does not confirm this change: Integration → Get Schemas shows it.",
	"The service's answer is not what the API describes (see warning), so it does not confirm this change: Integration → Get Schemas shows it.",
];

/**
 * The schemas, tables and columns `patch` sets a flag of, each with its flags after the change:
 * as the service's answer, `after` (none off the API), has them, else as sent; `unconfirmed` (listed
 * first: a cut tool answer keeps them) where `after` lacks it or has a flag unlike the one sent.
 */
export function changedEntries(patch: SchemasPatch, after?: ReceivedSchemas): IDataObject[] {
	const entries = LEVELS.flatMap((level) => {
		// Matched by its place alone: a service field named `table` on a schema is no place of it.
		const places = LEVELS.slice(0, LEVELS.indexOf(level) + 1);
		const path = (entry: IDataObject) => JSON.stringify(places.map((key) => entry[key]));
		const now = new Map(flattenSchemas(after ?? {}, level).map((at) => [path(at), at]));
		return flattenSchemas(patch as ReceivedSchemas, level)
			.filter((entry) => 'enabled' in entry || 'hashed' in entry)
			.map((entry) => {
				const same = now.get(path(entry));
				const flags = same && flagsOf(same, level);
				const words = flags
					? unlikeSent(entry, flags)
					: NOT_IN_ANSWER[after ? Number(leftOut(after, entry)) : 2];
				return { ...entry, ...flags, ...(words && { unconfirmed: words }) };
			});
	});
	return entries.sort((a, b) => Number('unconfirmed' in b) - Number('unconfirmed' in a));
}

/** What an entry the answer lists without a flag as sent says (one line per flag); undefined: none. */
function unlikeSent(sent: IDataObject, answered: IDataObject): string | undefined {
	const told = WRITABLE_FLAGS.column
		.filter((flag) => flag in sent && answered[flag] !== sent[flag])
		.map(
			(flag) =>
				`${flag} is ${JSON.stringify(answered[flag]) ?? 'missing'} in the service's answer, ${sent[flag]} in the change`,
		);
	return told.length
		? `${told.join('; ')}: the change may not have taken effect; Integration → Get Schemas shows it now.`
		: undefined;
}

/** Whether `after` has an entry's parents but not the map it belongs in (a service may leave one out). */
function leftOut(after: ReceivedSchemas, { schema, table }: IDataObject): boolean {
	const own = <T>(map: Record<string, T> | undefined, name: unknown) =>
		map && Object.hasOwn(map, name as string) ? map[name as string] : undefined;
	const schemaEntry = own(after, schema);
	if (!schemaEntry) return false;
	const tableEntry = own(schemaEntry.tables, table);
	return !schemaEntry.tables || (!!tableEntry && !tableEntry.columns);
}

/** `map` with each entry as `build(entry, name)`, under the same names (own keys); undefined left out. */
function mapEntries<T, U>(
	map: Record<string, T>,
	build: (entry: T, name: string) => U | undefined,
): Record<string, U> {
	return Object.fromEntries(
		Object.entries(map).flatMap(([name, entry]) => {
			const built = build(entry, name);
			return built === undefined ? [] : [[name, built]];
		}),
	);
}

/** The writable flags `entry` has, and no others. */
function flagsOf(entry: object, level: SchemaLevel): { enabled?: boolean; hashed?: boolean } {
	return Object.fromEntries(
		WRITABLE_FLAGS[level]
			.filter((flag) => Object.hasOwn(entry, flag))
			.map((flag) => [flag, (entry as Record<string, unknown>)[flag]]),
	);
}

/**
 * Output → Compact: the schemas map with only the flags that can be changed (`enabled`, and `hashed`
 * on columns), the shape Update Schemas takes. No `tables` or `columns` where the service gave none.
 */
export function compactSchemas(schemas: ReceivedSchemas): SchemasPatch {
	return mapEntries(schemas, (schema) => ({
		...flagsOf(schema, 'schema'),
		...(schema.tables && {
			tables: mapEntries(schema.tables, (table) => ({
				...flagsOf(table, 'table'),
				...(table.columns && {
					columns: mapEntries(table.columns, (column) => flagsOf(column, 'column')),
				}),
			})),
		}),
	}));
}
