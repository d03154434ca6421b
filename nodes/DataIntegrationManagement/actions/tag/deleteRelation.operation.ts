import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { Operation } from '../operation';
import { withDisplay } from '../operation';
import { concurrencyOptions, tagIdField } from '../fields';
import { readRequired } from '../parameters';
import { apiRequest } from '../../transport';

const fields: INodeProperties[] = [
	tagIdField,
	{
		displayName: 'Resource ID',
		name: 'resourceId',
		type: 'string',
		required: true,
		default: '',
		description: 'The ID of the resource the tag is attached to',
	},
	{
		displayName: 'Resource Type',
		name: 'resourceType',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. asset',
		description: 'The type of the resource the tag is attached to',
	},
	concurrencyOptions,
];

async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const tagId = readRequired.call(this, 'tagId', itemIndex, 'Tag ID');
	const relation = {
		resourceId: readRequired.call(this, 'resourceId', itemIndex, 'Resource ID'),
		resourceType: readRequired.call(this, 'resourceType', itemIndex, 'Resource Type'),
	};
	const { message } = await apiRequest.call(
		this,
		'DELETE',
		`/tags/${encodeURIComponent(tagId)}/relation`,
		{ body: relation },
	);
	// The API answers with a message only, so the item says what was removed.
	return { deleted: true, tagId, ...relation, message: message ?? '' };
}

export const deleteRelation: Operation = {
	description: withDisplay('tag', 'deleteRelation', fields),
	execute,
	concurrent: true,
};
