import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { listUsers } from '../client/users';
import { holds } from '../shared/filters';
import { currentValues, sourceSchemaNames } from './pickers';

/**
 * Resource-locator searches: users for a tag's owner; an integration's schemas and tables (Get
 * Columns), and its schemas, tables and columns for a change of Update Schemas, which names its
 * own schema and table (read with n8n's `&` prefix). What each reads: shared/listReads.ts.
 */

function namesMatching(names: string[], filter?: string): INodeListSearchResult {
	return {
		results: names
			.filter((name) => holds(filter ?? '', name))
			.map((name) => ({ name, value: name })),
	};
}

export async function searchUsers(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	return {
		results: (await listUsers.call(this))
			.filter((user) => holds(filter ?? '', user.name, user.email))
			.map((user) => ({ name: `${user.name} (${user.email})`, value: user.id })),
	};
}

export async function searchSchemas(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const [integrationId] = currentValues(this, 'searchSchemas');
	return namesMatching(await sourceSchemaNames.call(this, integrationId), filter);
}

export async function searchTables(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const [integrationId, schema] = currentValues(this, 'searchTables');
	return namesMatching(await sourceSchemaNames.call(this, integrationId, schema), filter);
}

export async function searchChangeSchemas(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const [integrationId] = currentValues(this, 'searchChangeSchemas');
	return namesMatching(await sourceSchemaNames.call(this, integrationId), filter);
}

export async function searchChangeTables(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const [integrationId, schema] = currentValues(this, 'searchChangeTables');
	return namesMatching(await sourceSchemaNames.call(this, integrationId, schema), filter);
}

export async function searchChangeColumns(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const [integrationId, schema, table] = currentValues(this, 'searchChangeColumns');
	return namesMatching(await sourceSchemaNames.call(this, integrationId, schema, table), filter);
}
