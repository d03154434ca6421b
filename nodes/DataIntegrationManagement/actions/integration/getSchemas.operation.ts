import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { Operation } from '../operation';
import { withDisplay } from '../operation';
import { integrationIdField, optionsCollection } from '../fields';
import { readRequired } from '../parameters';
import { fetchSchemas } from './requests';
import { flattenSchemas, type SchemaLevel } from './schemas';

const fields: INodeProperties[] = [
	integrationIdField,
	optionsCollection([
		{
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
		},
	]),
];

const LEVEL_OF_OUTPUT: Record<string, SchemaLevel> = {
	schemas: 'schema',
	tables: 'table',
	columns: 'column',
};

async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<IDataObject | IDataObject[]> {
	const integrationId = readRequired.call(this, 'integrationId', itemIndex, 'Integration ID');
	const output = this.getNodeParameter('options.output', itemIndex, 'raw') as string;
	const schemas = await fetchSchemas.call(this, integrationId);
	const level = LEVEL_OF_OUTPUT[output];
	return level ? flattenSchemas(schemas, level) : { schemas: schemas as unknown as IDataObject };
}

export const getSchemas: Operation = {
	description: withDisplay('integration', 'getSchemas', fields),
	execute,
};
