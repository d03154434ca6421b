import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { Operation } from '../operation';
import { withDisplay } from '../operation';
import { concurrencyOptions, descriptionField, fieldsCollection, ownerLocator } from '../fields';
import { readCollection, readRequired } from '../parameters';
import { apiRequest } from '../../transport';

const fields: INodeProperties[] = [
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		required: true,
		default: '',
		description: 'The name of the tag',
	},
	{ ...ownerLocator, required: true },
	fieldsCollection('additionalFields', [descriptionField]),
	concurrencyOptions,
];

async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const body: IDataObject = {
		name: readRequired.call(this, 'name', itemIndex, 'Name'),
		owner: readRequired.call(this, 'owner', itemIndex, 'Owner'),
		...readCollection.call(this, 'additionalFields', itemIndex),
	};
	const { data } = await apiRequest.call(this, 'POST', '/tags', { body });
	return data as IDataObject;
}

export const create: Operation = {
	description: withDisplay('tag', 'create', fields),
	execute,
	concurrent: true,
};
