import type { INodeProperties } from 'n8n-workflow';

import {
	connectionField,
	descriptionChangeField,
	fieldsCollection,
	newNameField,
} from '../../shared/descriptions';
import { pathSegment, readCollection, requireSomeChange } from '../readers';
import { namingFieldsIfNotFound } from '../../shared/notFound';
import { updateAsset } from '../../client/assets';
import { writtenItem } from '../written';
import type { Execute } from '../operation';

// The API does not let an asset's type change, so it is not offered here.
const updateFields = fieldsCollection('updateFields', [
	connectionField,
	descriptionChangeField,
	newNameField,
]);

export const changesData = true;

export const record = 'assetId';

export const properties: INodeProperties[] = [
	{
		displayName: 'Asset ID',
		name: 'assetId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. ast_7c3e91',
		description: 'The ID of the asset to edit, as Asset → Create returns it, e.g. ast_7c3e91',
	},
	updateFields,
];

export const execute: Execute = async function (itemIndex, pacer, item) {
	const assetId = pathSegment.call(this, itemIndex, properties, record, item.record);
	const body = readCollection.call(this, itemIndex, updateFields, {
		neverEmpty: [newNameField],
		strict: true,
	});
	requireSomeChange.call(this, itemIndex, body, updateFields);
	const answer = await namingFieldsIfNotFound(
		this.getNode(),
		properties,
		{ assetId },
		updateAsset.call(this, assetId, body, pacer),
	);
	return writtenItem(answer, body);
};
