import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { Operation } from '../operation';
import { withDisplay } from '../operation';
import { concurrencyOptions, connectionField, descriptionField, fieldsCollection } from '../fields';
import { readCollection, readRequired } from '../parameters';
import { apiRequest } from '../../transport';

const fields: INodeProperties[] = [
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
	concurrencyOptions,
];

async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const body: IDataObject = {
		name: readRequired.call(this, 'name', itemIndex, 'Name'),
		type: readRequired.call(this, 'type', itemIndex, 'Type'),
		connectionType: readRequired.call(this, 'connectionType', itemIndex, 'Connection Type'),
		authMethod: readRequired.call(this, 'authMethod', itemIndex, 'Auth Method'),
		...readCollection.call(this, 'additionalFields', itemIndex),
	};
	const { data } = await apiRequest.call(this, 'POST', '/connectors', { body });
	return data as IDataObject;
}

export const create: Operation = {
	description: withDisplay('connector', 'create', fields),
	execute,
	concurrent: true,
};
