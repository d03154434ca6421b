import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { integrationIdField } from '../../shared/descriptions';
import { readParameter, readPathSegment } from '../readers';
import { namingFieldsIfNotFound } from '../../shared/notFound';
import { getSchemas } from '../../client/integrations';
import { compactSchemas, flattenSchemas, type SchemaLevel } from './sourceSchemas';
import type { Pacer } from '../../transport/pacer';

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

export const properties: INodeProperties[] = [integrationIdField];

export const optionFields = [outputField];

const LEVEL_OF_OUTPUT: Record<string, SchemaLevel> = {
	schemas: 'schema',
	tables: 'table',
	columns: 'column',
};

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	pacer: Pacer,
): Promise<IDataObject | IDataObject[]> {
	const integrationId = readPathSegment.call(this, itemIndex, properties, 'integrationId');
	const output = readParameter.call(this, itemIndex, outputField, 'options.output') as string;
	const schemas = await namingFieldsIfNotFound(
		this.getNode(),
		properties,
		{ integrationId },
		getSchemas.call(this, integrationId, pacer),
	);
	const level = LEVEL_OF_OUTPUT[output];
	if (level) return flattenSchemas(schemas, level);
	const map = output === 'compact' ? compactSchemas(schemas) : schemas;
	return { schemas: map };
}
