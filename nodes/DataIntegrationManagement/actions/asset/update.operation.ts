import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { Operation } from '../operation';
import { withDisplay } from '../operation';
import { concurrencyOptions, connectionField, descriptionField, fieldsCollection } from '../fields';
import { readCollection, readRequired, requireSomeChange } from '../parameters';
import { apiRequest } from '../../transport';

const fields: INodeProperties[] = [
	{
		displayName: 'Asset ID',
		name: 'assetId',
		type: 'string',
		required: true,
		default: '',
		description: 'The ID of the asset to edit',
	},
	// The API does not let an asset's type change, so it is not offered here.
	fieldsCollection('updateFields', [
		connectionField,
		descriptionField,
		{ displayName: 'Name', name: 'name', type: 'string', default: '' },
	]),
	concurrencyOptions,
];

async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const assetId = readRequired.call(this, 'assetId', itemIndex, 'Asset ID');
	const body = readCollection.call(this, 'updateFields', itemIndex);
	requireSomeChange.call(this, body, ['Name', 'Description', 'Connection'], itemIndex);
	const { data } = await apiRequest.call(this, 'PATCH', `/assets/${encodeURIComponent(assetId)}`, {
		body,
	});
	return data as IDataObject;
}

export const update: Operation = {
	description: withDisplay('asset', 'update', fields),
	execute,
	concurrent: true,
};
