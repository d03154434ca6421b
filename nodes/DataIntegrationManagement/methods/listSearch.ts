import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { listUsers } from '../client/users';
import type { ListMethod } from '../shared/listReads';
import { currentValues, sourceSchemaNames } from './pickers';

/**
 * Resource-locator searches: users for a tag's owner; an integration's schemas and tables (Get
 * Columns), and its schemas, tables and columns for a change of Update Schemas, which names its
 * own schema and table (read with n8n's `&` prefix). What each reads: shared/listReads.ts.
 */

function matches(filter: string | undefined, ...texts: string[]): boolean {
	if (!filter) return true;
	const needle = filter.toLowerCase();
	return texts.some((text) => text.toLowerCase().includes(needle));
}

function namesMatching(names: string[], filter?: string): INodeListSearchResult {
	return {
		results: names.filter((name) => matches(filter, name)).map((name) => ({ name, value: name })),
	};
}

export async function searchUsers(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	return {
		results: (await listUsers.call(this))
			.filter((user) => matches(filter, user.name, user.email))
			.map((user) => ({ name: `${user.name} (${user.email})`, value: user.id })),
	};
}

/** The search of one level of an integration's source schema, below the names `method` reads. */
function schemaNameSearch(method: Exclude<ListMethod, 'searchUsers' | 'getUserEmails'>) {
	return async function (this: ILoadOptionsFunctions, filter?: string) {
		const [integrationId, ...parents] = currentValues(this, method);
		return namesMatching(await sourceSchemaNames.call(this, integrationId, ...parents), filter);
	};
}

export const searchSchemas = schemaNameSearch('searchSchemas');
export const searchTables = schemaNameSearch('searchTables');
export const searchChangeSchemas = schemaNameSearch('searchChangeSchemas');
export const searchChangeTables = schemaNameSearch('searchChangeTables');
export const searchChangeColumns = schemaNameSearch('searchChangeColumns');
