import type { INodeProperties } from 'n8n-workflow';

/** A schema, table or column picked from the integration's source schema, or typed by name. */
export function nameLocator(
	displayName: string,
	name: string,
	searchListMethod: string,
	example: string,
): INodeProperties {
	return {
		displayName,
		name,
		type: 'resourceLocator',
		required: true,
		default: { mode: 'list', value: '' },
		description: `The ${displayName.toLowerCase()} as named in the integration's source: pick it, or give its name, e.g. ${example}`,
		builderHint: {
			propertyHint: `Mode \`name\` with the ${name} as Integration → Get Schemas names it, e.g. ${example}; the list picker needs \`integrationId\` first`,
		},
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: { searchListMethod, searchable: true },
			},
			{ displayName: 'By Name', name: 'name', type: 'string', placeholder: `e.g. ${example}` },
		],
	};
}

/** Get Columns' Schema and Table. */
export const schemaLocator = nameLocator('Schema', 'schema', 'searchSchemas', 'public');
export const tableLocator = nameLocator('Table', 'table', 'searchTables', 'orders');

/**
 * `locator`, optional: Get Schemas' Schema or Table, which narrows the answer to what it names;
 * left empty, the answer holds `whenEmpty`.
 */
export function narrowingLocator(locator: INodeProperties, whenEmpty: string): INodeProperties {
	const field: INodeProperties = {
		...locator,
		description: `${locator.description}. Leave empty for ${whenEmpty}.`,
		builderHint: {
			propertyHint: `${locator.builderHint!.propertyHint}. Set, the answer holds only that ${locator.name}; an empty value reads ${whenEmpty}`,
		},
	};
	// Not required: n8n's lint wants the key left out rather than false.
	delete field.required;
	return field;
}
