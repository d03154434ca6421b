import type { INodeProperties } from 'n8n-workflow';

import { resourceDescriptions } from '../operation';
import * as create from './create.operation';
import * as deleteRelation from './deleteRelation.operation';
import * as update from './update.operation';

/** The tag operations, by the key the Operation field stores. */
export const operations = { create, update, deleteRelation };

export const descriptions: INodeProperties[] = resourceDescriptions('tag', operations, [
	{ name: 'Create', value: 'create', action: 'Create a tag', description: 'Create a tag' },
	{
		name: 'Delete Relation',
		value: 'deleteRelation',
		action: 'Delete a tag relation',
		description: 'Remove the relation between a tag and a resource',
	},
	{ name: 'Update', value: 'update', action: 'Update a tag', description: 'Edit a tag' },
]);
