import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { integrationIdField, optionsCollection } from '../../shared/descriptions';
import { readParameter, readPathSegment } from '../readers';
import { getSchemas } from '../../client/integrations';
import { flattenSchemas, type SchemaLevel } from './sourceSchemas';

const outputField: INodeProperties = {
	displayName: 'Output',
	name: 'output',
	type: 'options',
	default: 'raw',
	options: [
		{
			name: 'Raw',
			value: 'raw',
			description: 'One item holding the schemas map as the API returns it',
		},
		{ name: 'One Item per Schema', value: 'schemas' },
		{ name: 'One Item per Table', value: 'tables' },
		{ name: 'One Item per Column', value: 'columns' },
	],
};

export const properties: INodeProperties[] = [integrationIdField, optionsCollection([outputField])];

const LEVEL_OF_OUTPUT: Record<string, SchemaLevel> = {
	schemas: 'schema',
	tables: 'table',
	columns: 'column',
};

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<IDataObject | IDataObject[]> {
	const integrationId = readPathSegment.call(this, itemIndex, 'integrationId', 'Integration ID');
	const output = readParameter.call(this, itemIndex, outputField, 'options.output') as string;
	const schemas = await getSchemas.call(this, integrationId);
	const level = LEVEL_OF_OUTPUT[output];
	return level ? flattenSchemas(schemas, level) : { schemas: schemas as unknown as IDataObject };
}
