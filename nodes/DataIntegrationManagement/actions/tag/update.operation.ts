import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import {
	descriptionField,
	fieldsCollection,
	newNameField,
	ownerLocator,
	tagIdField,
} from '../../shared/descriptions';
import { readCollection, readPathSegment, requireSomeChange } from '../readers';
import { namingFieldsIfNotFound } from '../../shared/notFound';
import { updateTag } from '../../client/tags';
import type { Pacer } from '../../transport/pacer';

const updateFields = fieldsCollection('updateFields', [
	newNameField,
	descriptionField,
	ownerLocator,
]);

/** Creates, updates or deletes: refused under a read-only credential (Allow Changes off). */
export const changesData = true;

/** The parameter naming the record it changes: items that name the same one run in item order. */
export const record = 'tagId';

export const properties: INodeProperties[] = [tagIdField, updateFields];

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	pacer: Pacer,
): Promise<IDataObject> {
	const tagId = readPathSegment.call(this, itemIndex, properties, 'tagId');
	const body = readCollection.call(this, itemIndex, updateFields);
	requireSomeChange.call(this, itemIndex, body, updateFields);
	return await namingFieldsIfNotFound(
		this.getNode(),
		properties,
		{ tagId },
		updateTag.call(this, tagId, body, pacer),
	);
}
