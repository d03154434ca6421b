import type { INodeProperties } from 'n8n-workflow';

import { additionalFields, nameAndType, readNamedCreate } from '../namedCreate';
import { createAsset } from '../../client/assets';
import { writtenItem } from '../written';
import type { Execute } from '../operation';

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

export const execute: Execute = async function (itemIndex, pacer, item) {
	const body = readNamedCreate.call(this, itemIndex, properties, item);
	return writtenItem(await createAsset.call(this, body, pacer), body);
};
