import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import {
	descriptionField,
	fieldsCollection,
	ownerLocator,
	tagIdField,
} from '../../shared/descriptions';
import { readCollection, readRequired, requireSomeChange } from '../readers';
import { updateTag } from '../../client/tags';

export const properties: INodeProperties[] = [
	tagIdField,
	fieldsCollection('updateFields', [
		{ displayName: 'Name', name: 'name', type: 'string', default: '' },
		descriptionField,
		ownerLocator,
	]),
];

export const concurrent = true;

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const tagId = readRequired.call(this, itemIndex, 'tagId', 'Tag ID');
	const body = readCollection.call(this, itemIndex, 'updateFields');
	requireSomeChange.call(this, itemIndex, body, ['Name', 'Description', 'Owner']);
	return (await updateTag.call(this, tagId, body)) as unknown as IDataObject;
}
