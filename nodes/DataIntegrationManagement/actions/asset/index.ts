import type { INodeProperties } from 'n8n-workflow';

import { create } from './create.operation';
import { update } from './update.operation';

export const assetOperations = { create, update };

export const assetDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['asset'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				action: 'Create an asset',
				description: 'Create an asset',
			},
			{ name: 'Update', value: 'update', action: 'Update an asset', description: 'Edit an asset' },
		],
		default: 'create',
	},
	...create.description,
	...update.description,
];
