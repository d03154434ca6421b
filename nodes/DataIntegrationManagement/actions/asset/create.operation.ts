import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { connectionField, descriptionField, fieldsCollection } from '../../shared/descriptions';
import { readCollection, readRequired } from '../readers';
import { createAsset } from '../../client/assets';
import type { Pacer } from '../../transport/pacer';

export const properties: INodeProperties[] = [
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		required: true,
		default: '',
		description: 'The name of the asset',
	},
	{
		displayName: 'Type',
		name: 'type',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. postgres',
		description: 'The type of the asset. It cannot be changed later.',
	},
	fieldsCollection('additionalFields', [connectionField, descriptionField]),
];

export const concurrent = true;

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	pacer: Pacer,
): Promise<IDataObject> {
	const body: IDataObject = {
		name: readRequired.call(this, itemIndex, 'name', 'Name'),
		type: readRequired.call(this, itemIndex, 'type', 'Type'),
		...readCollection.call(this, itemIndex, 'additionalFields'),
	};
	return (await createAsset.call(this, body, pacer)) as unknown as IDataObject;
}
