import type { INodeProperties } from 'n8n-workflow';

import { operationDescriptions, type OperationSelector } from '../operation';
import * as getAll from './getAll.operation';

/** The user operations, by the key the Operation field stores. */
export const operations = { getAll };

export const descriptions: INodeProperties[] = [
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
	} satisfies OperationSelector<'user', typeof operations>,
	...operationDescriptions('user', operations),
];
