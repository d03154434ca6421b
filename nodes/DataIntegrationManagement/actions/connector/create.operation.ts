import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { connectionField, descriptionField, fieldsCollection } from '../../shared/descriptions';
import { readCollection, readRequired } from '../readers';
import { createConnector } from '../../client/connectors';
import type { Pacer } from '../../transport/pacer';

export const properties: INodeProperties[] = [
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		required: true,
		default: '',
		description: 'The name of the connector',
	},
	{
		displayName: 'Type',
		name: 'type',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. postgres',
		description: 'The type of the connector',
	},
	{
		displayName: 'Connection Type',
		name: 'connectionType',
		type: 'string',
		required: true,
		default: 'source',
		description: 'How the connector is used, for example "source"',
	},
	{
		displayName: 'Auth Method',
		name: 'authMethod',
		type: 'string',
		required: true,
		default: 'direct',
		description: 'How the connector authenticates, for example "direct"',
	},
	fieldsCollection('additionalFields', [connectionField, descriptionField]),
];

export const concurrent = true;

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	pacer: Pacer,
): Promise<IDataObject> {
	const body: IDataObject = {
		name: readRequired.call(this, itemIndex, 'name', 'Name'),
		type: readRequired.call(this, itemIndex, 'type', 'Type'),
		connectionType: readRequired.call(this, itemIndex, 'connectionType', 'Connection Type'),
		authMethod: readRequired.call(this, itemIndex, 'authMethod', 'Auth Method'),
		...readCollection.call(this, itemIndex, 'additionalFields'),
	};
	return (await createConnector.call(this, body, pacer)) as unknown as IDataObject;
}
