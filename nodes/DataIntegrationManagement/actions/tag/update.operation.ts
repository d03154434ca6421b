import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { Operation } from '../operation';
import { withDisplay } from '../operation';
import {
	concurrencyOptions,
	descriptionField,
	fieldsCollection,
	ownerLocator,
	tagIdField,
} from '../fields';
import { readCollection, readRequired, requireSomeChange } from '../parameters';
import { apiRequest } from '../../transport';

const fields: INodeProperties[] = [
	tagIdField,
	fieldsCollection('updateFields', [
		{ displayName: 'Name', name: 'name', type: 'string', default: '' },
		descriptionField,
		ownerLocator,
	]),
	concurrencyOptions,
];

async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const tagId = readRequired.call(this, 'tagId', itemIndex, 'Tag ID');
	const body = readCollection.call(this, 'updateFields', itemIndex);
	requireSomeChange.call(this, body, ['Name', 'Description', 'Owner'], itemIndex);
	const { data } = await apiRequest.call(this, 'PUT', `/tags/${encodeURIComponent(tagId)}`, {
		body,
	});
	return data as IDataObject;
}

export const update: Operation = {
	description: withDisplay('tag', 'update', fields),
	execute,
	concurrent: true,
};
