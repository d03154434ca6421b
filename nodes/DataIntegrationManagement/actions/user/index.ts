import type { INodeProperties } from 'n8n-workflow';

import { getAll } from './getAll.operation';

export const userOperations = { getAll };

export const userDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['user'] } },
		options: [
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many users',
				description: 'List the users of the workspace',
			},
		],
		default: 'getAll',
	},
	...getAll.description,
];
