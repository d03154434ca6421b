import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { connectionField, descriptionField, fieldsCollection } from '../../shared/descriptions';
import { readCollection, readPathSegment, requireSomeChange } from '../readers';
import { updateAsset } from '../../client/assets';
import type { Pacer } from '../../transport/pacer';

export const properties: INodeProperties[] = [
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
];

export const concurrent = true;

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	pacer: Pacer,
): Promise<IDataObject> {
	const assetId = readPathSegment.call(this, itemIndex, 'assetId', 'Asset ID');
	const body = readCollection.call(this, itemIndex, 'updateFields');
	requireSomeChange.call(this, itemIndex, body, ['Name', 'Description', 'Connection']);
	return (await updateAsset.call(this, assetId, body, pacer)) as unknown as IDataObject;
}
