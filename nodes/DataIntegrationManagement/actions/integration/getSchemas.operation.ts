import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { integrationIdField } from '../../shared/descriptions';
import { asText, fieldError } from '../../shared/checks';
import { originOf, readParameter, readPathSegment, readText } from '../readers';
import { namingFieldsIfNotFound } from '../../shared/notFound';
import { getSchemas } from '../../client/integrations';
import {
	compactSchemas,
	flattenSchemas,
	narrowSchemas,
	someNames,
	type Narrowing,
	type SchemaLevel,
} from './sourceSchemas';
import { narrowingLocator, schemaLocator, tableLocator } from './locators';
import type { ReceivedSchemas } from '../../client/types';
import type { Advice } from '../toolAnswer';
import type { Execute } from '../operation';

/** Options → Output: One Item per Column when not set, as Get Columns'. */
const outputField: INodeProperties = {
	displayName: 'Output',
	name: 'output',
	type: 'options',
	default: 'columns',
	description:
		'How to return the source schema: one item per column, table or schema, only the flags Update Schemas takes, or as the service returns it',
	options: [
		{
			name: 'Compact',
			value: 'compact',
			description:
				'One item holding the schemas map with only "enabled" and "hashed": the shape Update Schemas takes',
		},
		{
			name: 'One Item per Column',
			value: 'columns',
			description: 'Each column as an item, with the schema, table and column names that place it',
		},
		{ name: 'One Item per Schema', value: 'schemas' },
		{ name: 'One Item per Table', value: 'tables' },
		{
			name: 'Raw',
			value: 'raw',
			description: 'One item holding the schemas map as the service returns it',
		},
	],
};

/** Only reads: runs under a read-only credential too. */
export const changesData = false;

/** Schema and Table, as Get Columns picks them; here optional, each narrowing the answer. */
const schemaField = narrowingLocator(schemaLocator, 'every schema');
const tableField = narrowingLocator(tableLocator, 'every table of the schema; needs Schema');

const columnField: INodeProperties = {
	displayName: 'Column',
	name: 'column',
	type: 'string',
	default: '',
	placeholder: 'e.g. email',
	description:
		'Only the columns whose name holds this text, any case, and the tables and schemas that have one. Leave empty for every column.',
};

export const properties = [integrationIdField, schemaField, tableField, columnField];

/** In the tool form, an answer too large names what narrows it (schemasAdvice, below). */
export function narrowWith(this: IExecuteFunctions, itemIndex: number): Advice {
	const output = readParameter.call(this, itemIndex, outputField, 'options.output') as string;
	return schemasAdvice(readNarrowing.call(this, itemIndex), output);
}

export const optionFields = [outputField];

const LEVEL_OF_OUTPUT: Record<string, SchemaLevel> = {
	schemas: 'schema',
	tables: 'table',
	columns: 'column',
};

export const execute: Execute = async function (itemIndex, pacer) {
	const integrationId = readPathSegment.call(this, itemIndex, properties, 'integrationId');
	const output = readParameter.call(this, itemIndex, outputField, 'options.output') as string;
	const narrowing = readNarrowing.call(this, itemIndex);
	const whole = await namingFieldsIfNotFound(
		this.getNode(),
		properties,
		{ integrationId },
		getSchemas.call(this, integrationId, pacer),
	);
	const schemas = narrowed.call(this, itemIndex, integrationId, whole, narrowing);
	const level = LEVEL_OF_OUTPUT[output];
	if (level) return flattenSchemas(schemas, level);
	return { schemas: output === 'compact' ? compactSchemas(schemas) : schemas };
};

/**
 * What a Get Schemas answer too large for a model tells to set, from what is set and the names
 * it holds: Schema while it spans schemas, then Table, then Output Compact; a table larger than
 * an answer in every Output, Column, naming its columns.
 */
export function schemasAdvice({ schema, table, column }: Narrowing, output: string): Advice {
	return (items) => {
		const maps = items.flatMap((item) => (item.schemas ? [item.schemas as ReceivedSchemas] : []));
		const named = (level: SchemaLevel) => [
			...new Set(
				[...items, ...maps.flatMap((map) => flattenSchemas(map, level))].flatMap((record) =>
					typeof record[level] === 'string' ? [record[level]] : [],
				),
			),
		];
		const schemas = named('schema');
		if (!schema && schemas.length > 1)
			return `set Schema to one of ${someNames(schemas)}, or Table too`;
		const tables = named('table');
		if (!table && tables.length > 1)
			return schema
				? `set Table to one of ${someNames(tables)}, keeping Schema ${JSON.stringify(schema)}`
				: `set Schema to ${someNames(schemas)} and Table to one of ${someNames(tables)}`;
		const longer = column ? ` longer than ${JSON.stringify(column)}` : '';
		const byColumn = `set Column to a part${longer} of the names of the columns you need`;
		const columns = `its columns are ${someNames(named('column'))}`;
		// Both: Options → Output may be fixed by the workflow, where a model cannot set it.
		return output !== 'compact'
			? `set Options → Output to Compact (only the enabled and hashed flags), or ${byColumn}; ${columns}`
			: `${byColumn}: this table is larger than an answer in any Output; ${columns}`;
	};
}

/** Schema, Table and Column, trimmed; empty when not set. A Table without its Schema is refused. */
function readNarrowing(this: IExecuteFunctions, itemIndex: number): Narrowing {
	const origin = originOf(this, itemIndex);
	const [schema, table, column] = [schemaField, tableField, columnField].map((field) =>
		asText(origin, field.displayName, readText.call(this, itemIndex, field.name)).trim(),
	);
	if (table && !schema)
		throw fieldError(
			origin,
			tableField.displayName,
			'needs Schema: set Schema too, or leave Table empty',
		);
	return { schema, table, column };
}

/**
 * `schemas` narrowed to Schema and Table; a name it does not have fails, as Get Columns does,
 * naming the field, the item and the names there are.
 */
function narrowed(
	this: IExecuteFunctions,
	itemIndex: number,
	integrationId: string,
	schemas: ReceivedSchemas,
	narrowing: Narrowing,
): ReceivedSchemas {
	const result = narrowSchemas(schemas, narrowing);
	if ('schemas' in result) return result.schemas;
	const field = result.missing === 'schema' ? schemaField : tableField;
	const where =
		result.missing === 'schema'
			? `integration ${integrationId}`
			: `schema ${JSON.stringify(narrowing.schema)} of integration ${integrationId}`;
	const known = result.known.length ? someNames(result.known) : 'none';
	throw fieldError(
		originOf(this, itemIndex),
		field.displayName,
		`names ${JSON.stringify(narrowing[result.missing])}, which ${where} does not have`,
		`The ${result.missing === 'schema' ? 'schemas' : 'tables'} there: ${known}. Pick one from the list, or leave ${field.displayName} empty.`,
	);
}
