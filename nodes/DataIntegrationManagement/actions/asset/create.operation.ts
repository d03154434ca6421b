import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { Operation } from '../operation';
import { withDisplay } from '../operation';
import { concurrencyOptions, connectionField, descriptionField, fieldsCollection } from '../fields';
import { readCollection, readRequired } from '../parameters';
import { apiRequest } from '../../transport';

const fields: INodeProperties[] = [
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
	concurrencyOptions,
];

async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const body: IDataObject = {
		name: readRequired.call(this, 'name', itemIndex, 'Name'),
		type: readRequired.call(this, 'type', itemIndex, 'Type'),
		...readCollection.call(this, 'additionalFields', itemIndex),
	};
	const { data } = await apiRequest.call(this, 'POST', '/assets', { body });
	return data as IDataObject;
}

export const create: Operation = {
	description: withDisplay('asset', 'create', fields),
	execute,
	concurrent: true,
};
