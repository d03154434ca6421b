import type { INodeProperties } from 'n8n-workflow';

import {
	descriptionChangeField,
	fieldsCollection,
	newNameField,
	ownerLocator,
	tagIdField,
} from '../../shared/descriptions';
import { pathSegment, readCollection, requireSomeChange } from '../readers';
import { namingFieldsIfNotFound } from '../../shared/notFound';
import { updateTag } from '../../client/tags';
import { writtenItem } from '../written';
import type { Execute } from '../operation';

const updateFields: INodeProperties = {
	...fieldsCollection('updateFields', [descriptionChangeField, newNameField, ownerLocator]),
	// The API has no call that reads one tag, so the node cannot fill in what is left out.
	description:
		'Only the fields added here are sent, with PUT. The API does not say whether PUT replaces the whole tag: if your service does, a field left out is cleared, so add every field (name, description, owner).',
};

export const changesData = true;

export const record = 'tagId';

export const properties: INodeProperties[] = [tagIdField, updateFields];

export const execute: Execute = async function (itemIndex, pacer, item) {
	const tagId = pathSegment.call(this, itemIndex, properties, record, item.record);
	const body = readCollection.call(this, itemIndex, updateFields, {
		neverEmpty: [newNameField],
		strict: true,
	});
	requireSomeChange.call(this, itemIndex, body, updateFields);
	const answer = await namingFieldsIfNotFound(
		this.getNode(),
		properties,
		{ tagId },
		updateTag.call(this, tagId, body, pacer),
		'',
		typeof body.owner === 'string' ? { owner: body.owner } : {},
	);
	return writtenItem(answer, body);
};
