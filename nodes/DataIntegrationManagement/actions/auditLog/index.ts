import type { INodeProperties } from 'n8n-workflow';

import { getAll } from './getAll.operation';

export const auditLogOperations = { getAll };

export const auditLogDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['auditLog'] } },
		options: [
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many audit log entries',
				description: 'List audit log entries (a beta endpoint of the API)',
			},
		],
		default: 'getAll',
	},
	...getAll.description,
];
