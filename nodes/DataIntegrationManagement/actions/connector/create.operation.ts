import type { INodeProperties } from 'n8n-workflow';

import { additionalFields, nameAndType, readNamedCreate } from '../namedCreate';
import { createConnector } from '../../client/connectors';
import { writtenItem } from '../written';
import type { Execute } from '../operation';

export const changesData = true;

export const record = 'name';

export const properties: INodeProperties[] = [
	...nameAndType(
		'connector',
		'Orders Postgres',
		'The kind of system the connector reaches, as the service names it in lower case, e.g. postgres or snowflake',
	),
	{
		displayName: 'Connection Type',
		name: 'connectionType',
		type: 'string',
		required: true,
		default: 'source',
		description:
			'How the connector is used, as the service names it, e.g. source (the value the service documents)',
	},
	{
		displayName: 'Auth Method',
		name: 'authMethod',
		type: 'string',
		required: true,
		default: 'direct',
		description:
			'How the connector authenticates, as the service names it, e.g. direct (the value the service documents)',
	},
	additionalFields,
];

export const execute: Execute = async function (itemIndex, pacer, item) {
	const more = ['connectionType', 'authMethod'];
	const body = readNamedCreate.call(this, itemIndex, properties, item, more);
	return writtenItem(await createConnector.call(this, body, pacer), body);
};
