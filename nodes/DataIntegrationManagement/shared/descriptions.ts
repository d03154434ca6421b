import type { INodeProperties } from 'n8n-workflow';

/** Descriptions that several operations, or both nodes, share: each field and collection defined once. */

/** A tag's owner: a user picked from `GET /users`, or typed as an ID. */
export const ownerLocator: INodeProperties = {
	displayName: 'Owner',
	name: 'owner',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	description: 'The user who owns the tag',
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			typeOptions: { searchListMethod: 'searchUsers', searchable: true },
		},
		{
			displayName: 'By ID',
			name: 'id',
			type: 'string',
			placeholder: 'e.g. usr_4f2a9c',
		},
	],
};

export const tagIdField: INodeProperties = {
	displayName: 'Tag ID',
	name: 'tagId',
	type: 'string',
	required: true,
	default: '',
	description: 'The ID of the tag',
};

export const integrationIdField: INodeProperties = {
	displayName: 'Integration ID',
	name: 'integrationId',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. int_pg_to_snowflake',
	description: 'The ID of the integration',
};

export const connectionField: INodeProperties = {
	displayName: 'Connection',
	name: 'connection',
	type: 'json',
	default: '{}',
	description: 'Connection settings as a JSON object; their structure depends on the type',
};

export const descriptionField: INodeProperties = {
	displayName: 'Description',
	name: 'description',
	type: 'string',
	default: '',
};

/** Return All / Limit, for operations that list. */
export function listLimitFields(): INodeProperties[] {
	return [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: false,
			description: 'Whether to return all results or only up to a given limit',
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 50,
			description: 'Max number of results to return',
			displayOptions: { show: { returnAll: [false] } },
		},
	];
}

/** The "Additional Fields" (create) or "Update Fields" (edit) collection of an operation. */
export function fieldsCollection(
	name: 'additionalFields' | 'updateFields',
	options: INodeProperties[],
): INodeProperties {
	const displayName = name === 'additionalFields' ? 'Additional Fields' : 'Update Fields';
	return { displayName, name, type: 'collection', placeholder: 'Add Field', default: {}, options };
}

/** The "Options" collection of an operation, holding `options`. */
export function optionsCollection(options: INodeProperties[]): INodeProperties {
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options,
	};
}

/**
 * Options → Concurrency, of operations that write. Operations do not list it: declaring
 * `concurrent: true` adds it (see actions/operation.ts).
 */
export const concurrencyField: INodeProperties = {
	displayName: 'Concurrency',
	name: 'concurrency',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: 64 },
	default: 1,
	description:
		'How many items to send at once. Output order, pairing and errors stay the same as one at a time.',
};
