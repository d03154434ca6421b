import type { INodeProperties } from 'n8n-workflow';

import { create } from './create.operation';

export const connectorOperations = { create };

export const connectorDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['connector'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				action: 'Create a connector',
				description: 'Create a connector',
			},
		],
		default: 'create',
	},
	...create.description,
];
