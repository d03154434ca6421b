/**
 * What each list (a `loadOptions` method or a locator's `listSearch`) reads of the other fields, in
 * n8n's names (`&name`: the field of that name in the same entry of a list). methods/pickers.ts
 * reads them from here; test/package/field-order.test.ts checks each is above the list's field.
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
