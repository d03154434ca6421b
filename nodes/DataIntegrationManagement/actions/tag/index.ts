import type { INodeProperties } from 'n8n-workflow';

import { create } from './create.operation';
import { deleteRelation } from './deleteRelation.operation';
import { update } from './update.operation';

export const tagOperations = { create, update, deleteRelation };

export const tagDescription: INodeProperties[] = [
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
	},
	...create.description,
	...update.description,
	...deleteRelation.description,
];
