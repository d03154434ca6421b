import {
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeProperties,
} from 'n8n-workflow';

import { integrationIdField } from '../../shared/descriptions';
import { checkValue } from '../../shared/checks';
import { originOf, readParameter, readPathSegment } from '../readers';
import { namingFieldsIfNotFound } from '../../shared/notFound';
import { updateSchemas } from '../../client/integrations';
import type { SchemasPatch } from '../../client/types';
import {
	buildSchemasPatch,
	validateSchemasPatch,
	type SchemaChange,
	type SchemaLevel,
} from './sourceSchemas';
import type { Pacer } from '../../transport/pacer';

/** A flag that a change may set, clear, or leave as it is. */
function flagField(
	displayName: string,
	name: string,
	verbs: [string, string],
	extra: Partial<INodeProperties> = {},
): INodeProperties {
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

const ENABLED_VALUES: Record<string, boolean | undefined> = {
	enable: true,
	disable: false,
	keep: undefined,
};
const HASHED_VALUES: Record<string, boolean | undefined> = {
	hash: true,
	unhash: false,
	keep: undefined,
};

const updateModeField: INodeProperties = {
	displayName: 'Update Mode',
	name: 'updateMode',
	type: 'options',
	noDataExpression: true,
	default: 'changes',
	description: 'How to say what changes: a list built here, or one JSON object',
	builderHint: {
		propertyHint:
			'`changes` is the safe way to change a flag: each entry changes only the schema, table or column it names, and only the flags not left at `keep`. `json` sends `schemas` as written.',
	},
	options: [
		{
			name: 'List of Changes',
			value: 'changes',
			description: 'Pick schemas, tables and columns and say what to change',
		},
		{
			name: 'JSON',
			value: 'json',
			description: 'Write the changes as one JSON object',
		},
	],
};

/** The fields of one entry of Changes, in the order they are checked. */
const changeFields: INodeProperties[] = [
	{
		displayName: 'Level',
		name: 'level',
		type: 'options',
		default: 'table',
		description: 'Whether the change is to a whole schema, a table, or one column',
		options: [
			{ name: 'Schema', value: 'schema' },
			{ name: 'Table', value: 'table' },
			{ name: 'Column', value: 'column' },
		],
	},
	{
		displayName: 'Schema Name or ID',
		name: 'schema',
		type: 'options',
		typeOptions: {
			loadOptionsMethod: 'getSchemaNames',
			loadOptionsDependsOn: ['integrationId'],
		},
		default: '',
		description:
			'The schema as named in the source, e.g. public. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
	{
		displayName: 'Table Name or ID',
		name: 'table',
		type: 'options',
		typeOptions: {
			loadOptionsMethod: 'getTableNames',
			loadOptionsDependsOn: ['integrationId', '&schema'],
		},
		default: '',
		displayOptions: { show: { level: ['table', 'column'] } },
		description:
			'The table as named in the source, e.g. orders. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
	{
		displayName: 'Column Name or ID',
		name: 'column',
		type: 'options',
		typeOptions: {
			loadOptionsMethod: 'getColumnNames',
			loadOptionsDependsOn: ['integrationId', '&schema', '&table'],
		},
		default: '',
		displayOptions: { show: { level: ['column'] } },
		description:
			'The column as named in the source, e.g. email. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
	// Both flags default to "Leave Unchanged", so hashing a column never re-enables it by surprise.
	flagField('Enabled', 'enabled', ['Enable', 'Disable'], {
		description: 'Whether to sync it. Leave Unchanged sends nothing for it.',
	}),
	flagField('Hashed', 'hashed', ['Hash', 'Unhash'], {
		displayOptions: { show: { level: ['column'] } },
		description: "Whether to hash the column's values. Leave Unchanged sends nothing for it.",
	}),
];

const SCHEMAS_EXAMPLE =
	'{"public": {"enabled": true, "tables": {"orders": {"enabled": true, "columns": {"email": {"hashed": true}}}}}}';

const schemasField: INodeProperties = {
	displayName: 'Schemas',
	name: 'schemas',
	type: 'json',
	required: true,
	// Empty: an example here would be a real change, made by anyone who runs the node unedited.
	default: '',
	placeholder: `e.g. ${SCHEMAS_EXAMPLE}`,
	displayOptions: { show: { updateMode: ['json'] } },
	description: `The changes as one JSON object: schema names mapped to { enabled, tables }, table names to { enabled, columns }, column names to { enabled, hashed }. Only what it names changes, e.g. ${SCHEMAS_EXAMPLE}.`,
};

/** Creates, updates or deletes: refused under a read-only credential (Allow Changes off). */
export const changesData = true;

/** The parameter naming the record it changes: items that name the same one run in item order. */
export const record = 'integrationId';

export const properties: INodeProperties[] = [
	integrationIdField,
	updateModeField,
	{
		// Shown only in the tool form: its saved default stays List of Changes, which a model cannot
		// fill (the fields are lists); in JSON mode one $fromAI() value gives the whole update.
		displayName:
			'A model cannot fill a list of changes. For an AI tool, choose Update Mode JSON and let the model define Schemas.',
		name: 'toolNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { '@tool': [true], updateMode: ['changes'] } },
	},
	{
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
	},
	schemasField,
];

/** Each entry of Changes, its fields checked and named by the entry's number ("Level (change 2)"). */
function readChanges(this: IExecuteFunctions, itemIndex: number): SchemasPatch {
	const origin = originOf(this, itemIndex);
	const entries = this.getNodeParameter('changes.change', itemIndex, []) as unknown;
	if (!Array.isArray(entries) || entries.length === 0) {
		throw new NodeOperationError(
			this.getNode(),
			`Add at least one change under "Changes" (item ${itemIndex})`,
			{ itemIndex, failure: { cause: 'configuration-invalid' } },
		);
	}
	const changes: SchemaChange[] = entries.map((entry: unknown, index) => {
		const values = (typeof entry === 'object' && entry !== null ? entry : {}) as IDataObject;
		const read = (field: INodeProperties) =>
			checkValue(
				origin,
				{ ...field, displayName: `${field.displayName} (change ${index + 1})` },
				Object.hasOwn(values, field.name) ? values[field.name] : field.default,
			) as string;
		const [level, schema, table, column, enabled, hashed] = changeFields.map(read);
		return {
			level: level as SchemaLevel,
			schema: schema.trim(),
			table: table.trim() || undefined,
			column: column.trim() || undefined,
			enabled: ENABLED_VALUES[enabled],
			hashed: HASHED_VALUES[hashed],
		};
	});
	const { patch, problems } = buildSchemasPatch(changes);
	if (problems.length) {
		throw new NodeOperationError(
			this.getNode(),
			`The changes are incomplete (item ${itemIndex}): ${problems.join('; ')}`,
			{ itemIndex, failure: { cause: 'configuration-invalid' } },
		);
	}
	return patch;
}

function readJsonSchemas(this: IExecuteFunctions, itemIndex: number): SchemasPatch {
	const schemas = readParameter.call(this, itemIndex, schemasField) as IDataObject | undefined;
	const problems = schemas ? validateSchemasPatch(schemas) : ['it is empty'];
	if (problems.length) {
		throw new NodeOperationError(
			this.getNode(),
			`The field "Schemas" is not a valid schema update (item ${itemIndex}): ${problems.join('; ')}`,
			{
				itemIndex,
				description: `Only "enabled" (schemas, tables, columns) and "hashed" (columns) can be set, e.g. ${SCHEMAS_EXAMPLE}`,
				failure: { cause: 'configuration-invalid' },
			},
		);
	}
	return schemas as SchemasPatch;
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	pacer: Pacer,
): Promise<IDataObject> {
	const integrationId = readPathSegment.call(this, itemIndex, properties, 'integrationId');
	const mode = readParameter.call(this, itemIndex, updateModeField) as string;
	const schemas =
		mode === 'json' ? readJsonSchemas.call(this, itemIndex) : readChanges.call(this, itemIndex);
	const updated = await namingFieldsIfNotFound(
		this.getNode(),
		properties,
		{ integrationId },
		updateSchemas.call(this, integrationId, schemas, pacer),
	);
	return { schemas: updated };
}
