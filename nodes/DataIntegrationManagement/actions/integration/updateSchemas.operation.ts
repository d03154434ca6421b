import {
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeProperties,
} from 'n8n-workflow';

import { isObject, ofItem } from '../../shared/checks';
import { displayNameOf, integrationIdField } from '../../shared/descriptions';
import { pathSegment, readParameter, runsAsTool } from '../readers';
import { namingFieldsIfNotFound } from '../../shared/notFound';
import { updateSchemas } from '../../client/integrations';
import type { SchemasPatch } from '../../client/types';
import { changesField, readChanges } from './changes';
import { changedEntries, validateSchemasPatch } from './sourceSchemas';
import { withWarning } from '../written';
import type { Execute } from '../operation';

const updateModeField: INodeProperties = {
	displayName: 'Update Mode',
	name: 'updateMode',
	type: 'options',
	noDataExpression: true,
	default: 'changes',
	description: 'How to say what changes: a list built here, or one JSON object',
	builderHint: {
		propertyHint:
			'`changes` is the safe way to change a flag: each entry sends only the schema, table or column it names, and only the flags not left at `keep`. `json` sends `schemas` as written.',
	},
	options: [
		{
			name: 'List of Changes',
			value: 'changes',
			description: 'Pick schemas, tables and columns and say what to change',
		},
		{ name: 'JSON', value: 'json', description: 'Write the changes as one JSON object' },
	],
};

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
	changesField,
	schemasField,
];

function readJsonSchemas(this: IExecuteFunctions, itemIndex: number): SchemasPatch {
	const schemas = readParameter.call(this, itemIndex, schemasField) as IDataObject | undefined;
	const problems = schemas ? validateSchemasPatch(schemas) : ['it is empty'];
	if (problems.length) {
		// Get Schemas' whole item given (`{ schemas: … }`) instead of its map: said how to unwrap it.
		throw new NodeOperationError(
			this.getNode(),
			`The field "Schemas" is not a valid schema update${ofItem(this.getNode(), itemIndex)}: ${problems.join('; ')}`,
			{
				itemIndex,
				description: `Only "enabled" (schemas, tables, columns) and "hashed" (columns) can be set, e.g. ${SCHEMAS_EXAMPLE}.${isObject(schemas?.schemas) ? (runsAsTool.call(this) ? ' Give only the value of the "schemas" field of what Get Schemas answered.' : " To give Get Schemas' output, set its Options → Output to Compact and give {{ $json.schemas }}.") : ''}`,
				failure: { cause: 'configuration-invalid' },
			},
		);
	}
	return schemas as SchemasPatch;
}

export const execute: Execute = async function (itemIndex, pacer, item) {
	const integrationId = pathSegment.call(this, itemIndex, properties, record, item.record);
	const mode = readParameter.call(this, itemIndex, updateModeField) as string;
	const schemas =
		mode === 'json' ? readJsonSchemas.call(this, itemIndex) : readChanges.call(this, itemIndex);
	const updated = await namingFieldsIfNotFound(
		this.getNode(),
		properties,
		{ integrationId },
		updateSchemas.call(this, integrationId, schemas, pacer),
		// A service may answer 404 for a schema, table or column it does not know.
		` If both are right, check that each schema, table and column in ${displayNameOf(properties, mode === 'json' ? 'schemas' : 'changes')} exists in the integration (Get Schemas lists them).`,
	);
	const written = updated.offSpec ? withWarning(updated.offSpec) : { schemas: updated.data };
	if (!runsAsTool.call(this)) return written;
	// A model is told what changed first: the whole map may not fit its answer (./toolAnswer.ts).
	const after = updated.offSpec ? undefined : updated.data;
	return { integrationId, changed: changedEntries(schemas, after), ...written };
};

/** In the tool form, what a large answer leaves out is read again by Get Schemas, narrowed. */
export function readAgain({ integrationId, changed }: IDataObject): string {
	const only = (level: string) => {
		const names = new Set((changed as IDataObject[]).map((entry) => entry[level]));
		return names.size === 1 ? [...names][0] : undefined;
	};
	const schema = only('schema');
	const table = schema === undefined ? undefined : only('table');
	return `Integration → Get Schemas with Integration ID ${JSON.stringify(integrationId)}${schema === undefined ? '' : `, Schema ${JSON.stringify(schema)}`}${table === undefined ? '' : ` and Table ${JSON.stringify(table)}`}`;
}
