import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { Operation } from '../operation';
import { withDisplay } from '../operation';
import { concurrencyOptions, descriptionField, ownerLocator } from '../fields';
import { copyTextFields, readLocator, readRequired, requireSomeChange } from '../parameters';
import { apiRequest } from '../../transport';

const fields: INodeProperties[] = [
	{
		displayName: 'Tag ID',
		name: 'tagId',
		type: 'string',
		required: true,
		default: '',
		description: 'The ID of the tag to edit',
	},
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			{ displayName: 'Name', name: 'name', type: 'string', default: '' },
			descriptionField,
			ownerLocator,
		],
	},
	concurrencyOptions,
];

async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const tagId = readRequired.call(this, 'tagId', itemIndex, 'Tag ID');
	const updates = this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject;
	// extractValue does not reach into a collection, so the owner locator is read on its own path.
	const owner = readLocator.call(this, 'updateFields.owner', itemIndex);
	const body: IDataObject = {};
	copyTextFields({ ...updates, owner }, ['name', 'description', 'owner'], body);
	requireSomeChange.call(this, body, ['Name', 'Description', 'Owner'], itemIndex);
	const { data } = await apiRequest.call(this, 'PUT', `/tags/${encodeURIComponent(tagId)}`, { body });
	return data as IDataObject;
}

export const update: Operation = {
	description: withDisplay('tag', 'update', fields),
	execute,
	concurrent: true,
};
