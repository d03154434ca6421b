import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { connectionField, descriptionField, fieldsCollection } from '../../shared/descriptions';
import { readCollection, readRequired, requiredText } from '../readers';
import { createAsset } from '../../client/assets';
import type { Pacer } from '../../transport/pacer';
import { writtenItem } from '../written';
import type { ItemInput } from '../operation';

const additionalFields = fieldsCollection('additionalFields', [connectionField, descriptionField]);

/** Creates, updates or deletes: refused under a read-only credential (Allow Changes off). */
export const changesData = true;

/** The parameter naming the record it creates: creates of one name run in item order. */
export const record = 'name';

export const properties: INodeProperties[] = [
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Orders database',
		description: 'The name of the asset, e.g. Orders database',
	},
	{
		displayName: 'Type',
		name: 'type',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. postgres',
		description:
			'The kind of system the asset is, as the service names it in lower case, e.g. postgres or snowflake. It cannot be changed later.',
	},
	additionalFields,
];

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	pacer: Pacer,
	item: ItemInput,
): Promise<IDataObject> {
	const body: IDataObject = {
		name: requiredText.call(this, itemIndex, properties, record, item.record),
		type: readRequired.call(this, itemIndex, properties, 'type'),
		...readCollection.call(this, itemIndex, additionalFields),
	};
	return writtenItem(await createAsset.call(this, body, pacer));
}
