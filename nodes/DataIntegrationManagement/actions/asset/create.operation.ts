import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { additionalFields, nameAndType, readNamedCreate } from '../namedCreate';
import { createAsset } from '../../client/assets';
import type { Pacer } from '../../transport/pacer';
import { writtenItem } from '../written';
import type { ItemInput } from '../operation';

export const changesData = true;

export const record = 'name';

export const properties: INodeProperties[] = [
	...nameAndType(
		'asset',
		'Orders database',
		'The kind of system the asset is, as the service names it in lower case, e.g. postgres or snowflake. It cannot be changed later.',
	),
	additionalFields,
];

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	pacer: Pacer,
	item: ItemInput,
): Promise<IDataObject> {
	const body = readNamedCreate.call(this, itemIndex, properties, item);
	return writtenItem(await createAsset.call(this, body, pacer));
}
