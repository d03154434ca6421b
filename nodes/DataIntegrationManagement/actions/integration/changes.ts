import {
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeProperties,
} from 'n8n-workflow';

import { checkValue, configurationError, ofItem } from '../../shared/checks';
import type { SchemasPatch } from '../../client/types';
import { originOf, runsAsTool } from '../readers';
import { nameLocator } from './locators';
import { LEVELS, type SchemaLevel } from './sourceSchemas';

/**
 * Update Schemas → Changes: one entry per schema, table or column, how an entry is read, and the
 * request the entries make.
 */

/** Each flag's field in Changes, and its two choices: the fields, their values, a conflict's words. */
const FLAG_UI = {
	enabled: ['Enabled', 'Enable', 'Disable'],
	hashed: ['Hashed', 'Hash', 'Unhash'],
};

/** A flag that a change may set, clear, or leave as it is. */
function flagField(name: keyof typeof FLAG_UI, extra: Partial<INodeProperties>): INodeProperties {
	const [displayName, ...verbs] = FLAG_UI[name];
	return {
		displayName,
		name,
		type: 'options',
		default: 'keep',
		options: [
			{ name: 'Leave Unchanged', value: 'keep' },
			{ name: verbs[0], value: verbs[0].toLowerCase() },
			{ name: verbs[1], value: verbs[1].toLowerCase() },
		],
		...extra,
	};
}

/** A flag's choice as the request's value: true (Enable, Hash), false, or none (Leave Unchanged). */
function flagValue(name: keyof typeof FLAG_UI, choice: string): boolean | undefined {
	const [set, unset] = FLAG_UI[name].slice(1).map((verb) => verb.toLowerCase());
	return choice === set ? true : choice === unset ? false : undefined;
}

const levelField: INodeProperties = {
	displayName: 'Level',
	name: 'level',
	type: 'options',
	default: 'table',
	description: 'Whether the change is to a whole schema, a table, or one column',
	options: [
		{ name: 'Column', value: 'column' },
		{ name: 'Schema', value: 'schema' },
		{ name: 'Table', value: 'table' },
	],
};

// Both flags default to "Leave Unchanged", so hashing a column never re-enables it by surprise.
const flagFields = [
	flagField('enabled', {
		description: 'Whether to sync it. Leave Unchanged sends nothing for it.',
	}),
	flagField('hashed', {
		displayOptions: { show: { level: ['column'] } },
		description: "Whether to hash the column's values. Leave Unchanged sends nothing for it.",
	}),
];

/**
 * A name of a change, as Get Columns picks one, shown for the levels that need it; not required
 * (buildSchemasPatch reports a name left empty, for the level that needs it) and without hint
 * (Changes has one).
 */
function nameField(label: string, example: string, levels?: string[]): INodeProperties {
	const field = nameLocator(label, label.toLowerCase(), `searchChange${label}s`, example);
	delete field.required;
	delete field.builderHint;
	return { ...field, ...(levels && { displayOptions: { show: { level: levels } } }) };
}

/**
 * The fields of one entry of Changes, in the order users fill them: the level (which names it
 * needs), the names (each list reads the names above it), then the flags. Not alphabetical, as
 * n8n's lint would have a fixed collection's fields: a list above a field it reads would be empty
 * until that field is filled below it.
 */
const changeFields: INodeProperties[] = [
	levelField,
	nameField('Schema', 'public'),
	nameField('Table', 'orders', ['table', 'column']),
	nameField('Column', 'email', ['column']),
	...flagFields,
];

/** Changes, the list of changes. */
export const changesField: INodeProperties = {
	displayName: 'Changes',
	name: 'changes',
	type: 'fixedCollection',
	placeholder: 'Add Change',
	typeOptions: { multipleValues: true },
	default: {},
	displayOptions: { show: { updateMode: ['changes'] } },
	builderHint: {
		propertyHint:
			'One `change` per schema, table or column: `level`, `schema`, then `table` and `column` as the level needs; `enabled` or `hashed` left at `keep` sends nothing for it',
	},
	options: [{ displayName: 'Change', name: 'change', values: changeFields }],
};

/** A locator's value (as saved, or its default), or the value itself. */
const nameOf = (value: unknown) =>
	typeof value === 'object' && value !== null && 'mode' in value && 'value' in value
		? (value as { value?: unknown }).value
		: value;

/** One entry, its fields checked and named by the entry's number ("Level (change 2)"). */
function readChange(
	context: IExecuteFunctions,
	itemIndex: number,
	entry: unknown,
	index: number,
): SchemaChange {
	const values = (typeof entry === 'object' && entry !== null ? entry : {}) as IDataObject;
	const read = (name: string) => {
		const field = changeFields.find((candidate) => candidate.name === name)!;
		const given = Object.hasOwn(values, name) ? values[name] : field.default;
		// A name field left empty is reported by buildSchemasPatch, for the level that needs it.
		const checked =
			field.type === 'resourceLocator' ? { ...field, type: 'string' as const } : field;
		const label = `${field.displayName} (change ${index + 1})`;
		return String(
			checkValue(originOf(context, itemIndex), { ...checked, displayName: label }, nameOf(given)),
		);
	};
	const level = read('level') as SchemaLevel;
	// Hashed shows for a column only: a value left from another level is not the user's.
	return {
		level,
		schema: read('schema').trim(),
		table: read('table').trim() || undefined,
		column: read('column').trim() || undefined,
		enabled: flagValue('enabled', read('enabled')),
		hashed: level === 'column' ? flagValue('hashed', read('hashed')) : undefined,
	};
}

/** One requested change of the "changes" mode, already read from the node's parameters. */
interface SchemaChange {
	level: SchemaLevel;
	schema: string;
	table?: string;
	column?: string;
	enabled?: boolean;
	hashed?: boolean;
}

/** A map keyed by the user's names, without a prototype: `__proto__` is a name like any other. */
function namesMap<T>(): Record<string, T> {
	return Object.create(null) as Record<string, T>;
}

/**
 * Nests changes into the request shape of `PATCH /integrations/{id}/schemas`, carrying only the
 * entries and flags the changes touch. Returns the problems instead when a change is incomplete
 * or two changes disagree on one flag.
 */
function buildSchemasPatch(changes: SchemaChange[]): {
	patch: SchemasPatch;
	problems: string[];
} {
	const patch = namesMap<SchemasPatch[string]>();
	const problems: string[] = [];
	// The change that first set each flag of an entry, which a disagreement's words name.
	const setBy = new Map<object, Record<string, number>>();
	changes.forEach((change, index) => {
		const label = `change ${index + 1}`;
		const needed = LEVELS.slice(0, LEVELS.indexOf(change.level) + 1);
		const missing = needed.filter((key) => !change[key]);
		if (missing.length) {
			problems.push(`${label} (${change.level}) needs its ${missing.join(' and ')} name`);
			return;
		}
		if (change.enabled === undefined && change.hashed === undefined) {
			problems.push(`${label} sets neither Enabled nor, for a column, Hashed`);
			return;
		}
		const schemaEntry = (patch[change.schema] ??= {});
		const tables = change.level === 'schema' ? undefined : (schemaEntry.tables ??= namesMap());
		const tableEntry = tables && (tables[change.table!] ??= {});
		const columns = change.level === 'column' ? (tableEntry!.columns ??= namesMap()) : undefined;
		const target: { enabled?: boolean; hashed?: boolean } =
			(columns && (columns[change.column!] ??= {})) ?? tableEntry ?? schemaEntry;
		const path = [change.schema, change.table, change.column].filter(Boolean).join('.');
		const first = setBy.get(target) ?? {};
		setBy.set(target, first);
		for (const flag of ['enabled', 'hashed'] as const) {
			const value = change[flag];
			if (value === undefined) continue;
			if (target[flag] !== undefined && target[flag] !== value) {
				const [field, set, unset] = FLAG_UI[flag];
				problems.push(
					`${label} sets ${field} of ${path} to ${value ? set : unset}, but change ${first[flag]} set it to ${target[flag] ? set : unset}`,
				);
				continue;
			}
			target[flag] = value;
			first[flag] ??= index + 1;
		}
	});
	return { patch, problems };
}

/** Every entry of Changes as the request's shape, or an error naming the item and what is wrong. */
export function readChanges(this: IExecuteFunctions, itemIndex: number): SchemasPatch {
	const entries = this.getNodeParameter('changes.change', itemIndex, []) as unknown;
	if (!Array.isArray(entries) || entries.length === 0) {
		// A model cannot add entries to a list: only JSON mode takes its value.
		const message = runsAsTool.call(this)
			? "This tool's Update Mode is List of Changes with no change in it, which a model cannot fill: nothing was sent. Tell the user to set Update Mode to JSON, with Schemas given by $fromAI()"
			: 'Add at least one change under "Changes"';
		throw configurationError(originOf(this, itemIndex), message);
	}
	const changes = entries.map((entry: unknown, index) => readChange(this, itemIndex, entry, index));
	const { patch, problems } = buildSchemasPatch(changes);
	if (problems.length) {
		throw new NodeOperationError(
			this.getNode(),
			`The changes cannot be sent${ofItem(this.getNode(), itemIndex)}: ${problems.join('; ')}`,
			{ itemIndex, failure: { cause: 'configuration-invalid' } },
		);
	}
	return patch;
}
