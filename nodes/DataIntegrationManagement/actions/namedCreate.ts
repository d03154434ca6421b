import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { connectionField, descriptionField, fieldsCollection } from '../shared/descriptions';
import { readCollection, readRequired, requiredText } from './readers';
import type { ItemInput } from './operation';

/**
 * What Asset → Create and Connector → Create share: Name, Type and Additional Fields; Tag → Create
 * shares the Name.
 */

/** The Name of a new tag, asset or connector (`noun`). */
export const nameField = (noun: string, example: string): INodeProperties => ({
	displayName: 'Name',
	name: 'name',
	type: 'string',
	required: true,
	default: '',
	placeholder: `e.g. ${example}`,
	description: `The name of the ${noun}, e.g. ${example}`,
});

/** The Name and Type of a new asset or connector (`noun`). */
export function nameAndType(
	noun: string,
	example: string,
	typeDescription: string,
): INodeProperties[] {
	return [
		nameField(noun, example),
		{
			displayName: 'Type',
			name: 'type',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. postgres',
			description: typeDescription,
		},
	];
}

export const additionalFields = fieldsCollection('additionalFields', [
	connectionField,
	descriptionField,
]);

/**
 * The request body: Name (the record the router read), Type, the fields `more` names, then the
 * Additional Fields.
 */
export function readNamedCreate(
	this: IExecuteFunctions,
	itemIndex: number,
	properties: INodeProperties[],
	item: ItemInput,
	more: string[] = [],
): IDataObject {
	const body: IDataObject = {
		name: requiredText.call(this, itemIndex, properties, 'name', item.record),
		type: readRequired.call(this, itemIndex, properties, 'type'),
	};
	for (const name of more) body[name] = readRequired.call(this, itemIndex, properties, name);
	return { ...body, ...readCollection.call(this, itemIndex, additionalFields) };
}
