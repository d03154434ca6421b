import type { INodeProperties } from 'n8n-workflow';

import { operationDescriptions, type OperationSelector } from '../operation';
import * as create from './create.operation';
import * as deleteRelation from './deleteRelation.operation';
import * as update from './update.operation';

/** The tag operations, by the key the Operation field stores. */
export const operations = { create, update, deleteRelation };

export const descriptions: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['tag'] } },
		options: [
			{ name: 'Create', value: 'create', action: 'Create a tag', description: 'Create a tag' },
			{
				name: 'Delete Relation',
				value: 'deleteRelation',
				action: 'Delete a tag relation',
				description: 'Remove the relation between a tag and a resource',
			},
			{ name: 'Update', value: 'update', action: 'Update a tag', description: 'Edit a tag' },
		],
		default: 'create',
	} satisfies OperationSelector<'tag', typeof operations>,
	...operationDescriptions('tag', operations),
];
