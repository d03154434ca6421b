import type { INodeProperties } from 'n8n-workflow';

import { operationDescriptions, type OperationSelector } from '../operation';
import * as create from './create.operation';

/** The connector operations, by the key the Operation field stores. */
export const operations = { create };

export const descriptions: INodeProperties[] = [
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
	} satisfies OperationSelector<'connector', typeof operations>,
	...operationDescriptions('connector', operations),
];
