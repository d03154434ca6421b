import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { listUsers } from '../client/users';
import { holds } from '../shared/filters';
import type { ListMethod } from '../shared/listReads';
import { currentValues, sourceSchemaNames } from './pickers';

/**
 * Resource-locator searches: users for a tag's owner; an integration's schemas and tables (Get
 * Columns), and its schemas, tables and columns for a change of Update Schemas, which names its
 * own schema and table (read with n8n's `&` prefix). What each reads: shared/listReads.ts.
 */

export async function searchUsers(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const text = filter ?? '';
	const users = await listUsers.call(this);
	return {
		results: users
			.filter((user) => holds(text, user.name, user.email, user.id))
			.map((user) => {
				// Matched by the ID alone: the ID is shown, so the match can be seen.
				const byId = !holds(text, user.name, user.email) && user.id;
				const shown = [user.email, byId].filter(Boolean).join(', ');
				return { name: shown ? `${user.name} (${shown})` : user.name, value: user.id };
			}),
	};
}

/**
 * The search of `method`: the names one level below what it reads (an integration, a schema, a
 * table), those holding the filter.
 */
function namesSearch(method: Exclude<ListMethod, 'searchUsers' | 'getUserEmails'>) {
	return async function (
		this: ILoadOptionsFunctions,
		filter?: string,
	): Promise<INodeListSearchResult> {
		const [integrationId, ...parents] = currentValues(this, method) as string[];
		const names = await sourceSchemaNames.call(this, integrationId, ...(parents as []));
		const results = names.filter((name) => holds(filter ?? '', name));
		return { results: results.map((name) => ({ name, value: name })) };
	};
}

export const searchSchemas = namesSearch('searchSchemas');
export const searchTables = namesSearch('searchTables');
export const searchChangeSchemas = namesSearch('searchChangeSchemas');
export const searchChangeTables = namesSearch('searchChangeTables');
export const searchChangeColumns = namesSearch('searchChangeColumns');
