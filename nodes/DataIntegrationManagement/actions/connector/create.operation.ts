import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { connectionField, descriptionField, fieldsCollection } from '../../shared/descriptions';
import { readCollection, readRequired, requiredText } from '../readers';
import { createConnector } from '../../client/connectors';
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
		placeholder: 'e.g. Orders Postgres',
		description: 'The name of the connector, e.g. Orders Postgres',
	},
	{
		displayName: 'Type',
		name: 'type',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. postgres',
		description:
			'The kind of system the connector reaches, as the service names it in lower case, e.g. postgres or snowflake',
	},
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

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	pacer: Pacer,
	item: ItemInput,
): Promise<IDataObject> {
	const body: IDataObject = {
		name: requiredText.call(this, itemIndex, properties, record, item.record),
		type: readRequired.call(this, itemIndex, properties, 'type'),
		connectionType: readRequired.call(this, itemIndex, properties, 'connectionType'),
		authMethod: readRequired.call(this, itemIndex, properties, 'authMethod'),
		...readCollection.call(this, itemIndex, additionalFields),
	};
	return writtenItem(await createConnector.call(this, body, pacer));
}
