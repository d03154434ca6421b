import type { INodeProperties } from 'n8n-workflow';

import { operationDescriptions, type OperationSelector } from '../operation';
import * as getAll from './getAll.operation';

/** The auditLog operations, by the key the Operation field stores. */
export const operations = { getAll };

export const descriptions: INodeProperties[] = [
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
				description: 'List audit log entries (a beta feature of the service)',
			},
		],
		default: 'getAll',
	} satisfies OperationSelector<'auditLog', typeof operations>,
	...operationDescriptions('auditLog', operations),
];
