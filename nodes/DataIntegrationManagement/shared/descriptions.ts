import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

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
 * Shows a field in the node, not in its tool form (the `…Tool` type n8n derives for AI agents and
 * the MCP Server Trigger), where a model could make no use of it.
 */
export const HIDDEN_IN_TOOLS: IDisplayOptions = { hide: { '@tool': [true] } };

/** The most items Options → Concurrency may keep in flight (its documented bounds are 1 to this). */
export const MAX_CONCURRENCY = 64;

/**
 * Options → Concurrency and Concurrency Mode, of operations that write. Operations do not list
 * them: declaring `concurrent: true` adds them (see actions/operation.ts).
 */
export const concurrencyFields: INodeProperties[] = [
	{
		displayName: 'Concurrency',
		name: 'concurrency',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: MAX_CONCURRENCY },
		default: 1,
		displayOptions: HIDDEN_IN_TOOLS,
		description:
			'How many items to send at once; under Concurrency Mode "Auto", the most. Output order, pairing and errors stay the same as one at a time.',
	},
	{
		displayName: 'Concurrency Mode',
		name: 'concurrencyMode',
		type: 'options',
		options: [
			{
				name: 'Fixed',
				value: 'fixed',
				description: 'Send as many items at once as Concurrency says (1 when it is not set)',
			},
			{
				name: 'Auto',
				value: 'auto',
				description:
					"Find the service's pace: start with 2 items at once, grow while answers come back quickly and without 429, slow down at once on a 429; never more than Concurrency (64 when it is not set)",
			},
		],
		default: 'fixed',
		displayOptions: HIDDEN_IN_TOOLS,
		description:
			'Whether to send a fixed number of items at once, or to find the rate the service allows',
	},
];
