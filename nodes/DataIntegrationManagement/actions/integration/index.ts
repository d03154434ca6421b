import type { INodeProperties } from 'n8n-workflow';

import { get } from './get.operation';
import { getColumns } from './getColumns.operation';
import { getSchemas } from './getSchemas.operation';
import { updateSchemas } from './updateSchemas.operation';

export const integrationOperations = { get, getSchemas, updateSchemas, getColumns };

export const integrationDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['integration'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				action: 'Get an integration',
				description: 'Get the details of an integration',
			},
			{
				name: 'Get Columns',
				value: 'getColumns',
				action: 'Get the columns of a source table',
				description: 'Get the column configuration of one source table',
			},
			{
				name: 'Get Schemas',
				value: 'getSchemas',
				action: 'Get the source schema of an integration',
				description: 'Get which schemas, tables and columns are enabled or hashed',
			},
			{
				name: 'Update Schemas',
				value: 'updateSchemas',
				action: 'Update the source schema of an integration',
				description: 'Enable or disable schemas, tables and columns, and hash columns',
			},
		],
		default: 'get',
	},
	...get.description,
	...getSchemas.description,
	...updateSchemas.description,
	...getColumns.description,
];
