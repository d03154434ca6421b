/**
 * What each list of the nodes (a `loadOptions` method, or a resource locator's
 * `listSearch`) reads of the node's other fields, in n8n's names: `&name` is the field of that
 * name beside the one being filled (in the same entry of a list), any other name a top-level
 * field. The lists read their values from here (methods/pickers.ts), the option fields declare
 * them to n8n's editor (`loadOptionsDependsOn`), and every field comes after the fields its list
 * reads, as users fill them (test/package/field-order.test.ts).
 */
export const LIST_READS = {
	searchUsers: [],
	getUserEmails: [],
	searchSchemas: ['integrationId'],
	searchTables: ['integrationId', 'schema'],
	searchChangeSchemas: ['integrationId'],
	searchChangeTables: ['integrationId', '&schema'],
	searchChangeColumns: ['integrationId', '&schema', '&table'],
} as const satisfies Record<string, readonly string[]>;

export type ListMethod = keyof typeof LIST_READS;
