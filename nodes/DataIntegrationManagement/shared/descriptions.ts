import { ApplicationError, type IDisplayOptions, type INodeProperties } from 'n8n-workflow';

/** The fields and collections that several operations, or both nodes, share. */

/** A tag's owner: a user picked from `GET /users`, or typed as an ID. */
export const ownerLocator: INodeProperties = {
	displayName: 'Owner',
	name: 'owner',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	description:
		'The user who owns the tag: pick one, or give the ID of a user (from User → Get Many), e.g. usr_4f2a9c',
	builderHint: {
		propertyHint:
			"A user's id, as User → Get Many returns it: mode `id` with that id as value (mode `list` is the editor's picker and holds the same id)",
	},
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			typeOptions: { searchListMethod: 'searchUsers', searchable: true },
		},
		{ displayName: 'By ID', name: 'id', type: 'string', placeholder: 'e.g. usr_4f2a9c' },
	],
};

export const tagIdField: INodeProperties = {
	displayName: 'Tag ID',
	name: 'tagId',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. tag_8d1e2f',
	description: 'The ID of the tag, as Tag → Create returns it, e.g. tag_8d1e2f',
	builderHint: {
		propertyHint:
			'The id field of a tag, as Tag → Create returns it; the service has no call that lists tags',
	},
};

export const integrationIdField: INodeProperties = {
	displayName: 'Integration ID',
	name: 'integrationId',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. int_pg_to_snowflake',
	description: 'The ID of the integration, as the service shows it, e.g. int_pg_to_snowflake',
	builderHint: {
		propertyHint:
			'An existing integration id, e.g. int_pg_to_snowflake, from the user or earlier data: the service has no call that lists integrations',
	},
};

export const connectionField: INodeProperties = {
	displayName: 'Connection',
	name: 'connection',
	type: 'json',
	// Empty: a field added and left alone sends nothing, so it cannot wipe stored settings.
	default: '',
	placeholder: 'e.g. {"host": "db.example.com", "port": 5432, "database": "shop"}',
	description:
		'The connection settings as a JSON object; which keys it takes depends on the type, e.g. {"host": "db.example.com", "port": 5432}. Left empty, nothing is sent.',
};

export const descriptionField: INodeProperties = {
	displayName: 'Description',
	name: 'description',
	type: 'string',
	default: '',
	description: 'A free-text description, sent as written',
};

/** The Description field of an edit, which an empty value clears. */
export const descriptionChangeField: INodeProperties = {
	...descriptionField,
	description:
		'A free-text description, sent as written. To clear it, add the field and leave it empty; an expression that gives no value (null or undefined) is refused.',
};

/** The Name field of an edit: sent as written once added; never empty (see readCollection). */
export const newNameField: INodeProperties = {
	displayName: 'Name',
	name: 'name',
	type: 'string',
	default: '',
	description: 'The new name, sent as written once the field is added. It cannot be empty.',
};

/** Return All and Limit, for operations that list (read by readListLimit). */
export const returnAllField: INodeProperties = {
	displayName: 'Return All',
	name: 'returnAll',
	type: 'boolean',
	default: false,
	description: 'Whether to return all results or only up to a given limit',
	builderHint: {
		propertyHint:
			'`returnAll: true` reads every result, however many; to read a few, keep `returnAll: false` and set `limit`',
	},
};

export const limitField: INodeProperties = {
	displayName: 'Limit',
	name: 'limit',
	type: 'number',
	typeOptions: { minValue: 1 },
	default: 50,
	description: 'Max number of results to return',
	displayOptions: { show: { returnAll: [false] } },
};

/**
 * The display name of the field `name` among `properties` or their collections: how errors name it, taken
 * from its description so the two cannot differ.
 */
export function displayNameOf(properties: INodeProperties[], name: string): string {
	const inCollections = properties.flatMap(({ type, options }) =>
		type === 'collection' ? (options as INodeProperties[]) : [],
	);
	const property = [...properties, ...inCollections].find((field) => field.name === name);
	if (!property) throw new ApplicationError(`No field named "${name}" in these properties`);
	return property.displayName;
}

const COLLECTIONS = {
	additionalFields: ['Additional Fields', 'Add Field'],
	updateFields: ['Update Fields', 'Add Field'],
	filters: ['Filters', 'Add Filter'],
	options: ['Options', 'Add Option'],
} as const;

/** The "Additional Fields" (create), "Update Fields" (edit), "Filters" or "Options" collection. */
export function fieldsCollection(
	name: keyof typeof COLLECTIONS,
	options: INodeProperties[],
): INodeProperties {
	const [displayName, placeholder] = COLLECTIONS[name];
	return { displayName, name, type: 'collection', placeholder, default: {}, options };
}

/** The "Options" collection of an operation, holding `options`. */
export const optionsCollection = (options: INodeProperties[]) =>
	fieldsCollection('options', options);

/**
 * Shows a field in the node, not in its tool form (the `…Tool` type n8n derives for AI agents and
 * the MCP Server Trigger), where a model could make no use of it.
 */
export const HIDDEN_IN_TOOLS: IDisplayOptions = { hide: { '@tool': [true] } };
