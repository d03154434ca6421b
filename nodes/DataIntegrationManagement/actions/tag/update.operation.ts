import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import {
	descriptionField,
	fieldsCollection,
	ownerLocator,
	tagIdField,
} from '../../shared/descriptions';
import { readCollection, readPathSegment, requireSomeChange } from '../readers';
import { updateTag } from '../../client/tags';
import type { Pacer } from '../../transport/pacer';

export const properties: INodeProperties[] = [
	tagIdField,
	fieldsCollection('updateFields', [
		{ displayName: 'Name', name: 'name', type: 'string', default: '' },
		descriptionField,
		ownerLocator,
	]),
];

export const concurrent = true;

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	pacer: Pacer,
): Promise<IDataObject> {
	const tagId = readPathSegment.call(this, itemIndex, 'tagId', 'Tag ID');
	const body = readCollection.call(this, itemIndex, 'updateFields');
	requireSomeChange.call(this, itemIndex, body, ['Name', 'Description', 'Owner']);
	return (await updateTag.call(this, tagId, body, pacer)) as unknown as IDataObject;
}
