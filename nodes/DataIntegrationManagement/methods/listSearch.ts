import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { listUsers } from '../client/users';
import { currentValue, sourceSchemaNames } from './pickers';

/**
 * Resource-locator searches: users for a tag's owner; an integration's schemas and tables (Get
 * Columns), and its schemas, tables and columns for a change of Update Schemas, which names its
 * own schema and table (read with n8n's `&` prefix).
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

export async function searchSchemas(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const integrationId = currentValue.call(this, 'integrationId');
	return namesMatching(await sourceSchemaNames.call(this, integrationId), filter);
}

export async function searchTables(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const integrationId = currentValue.call(this, 'integrationId');
	const schema = currentValue.call(this, 'schema');
	return namesMatching(await sourceSchemaNames.call(this, integrationId, schema), filter);
}

export async function searchChangeSchemas(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	return await searchSchemas.call(this, filter);
}

export async function searchChangeTables(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const integrationId = currentValue.call(this, 'integrationId');
	const schema = currentValue.call(this, '&schema');
	return namesMatching(await sourceSchemaNames.call(this, integrationId, schema), filter);
}

export async function searchChangeColumns(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const integrationId = currentValue.call(this, 'integrationId');
	const schema = currentValue.call(this, '&schema');
	const table = currentValue.call(this, '&table');
	return namesMatching(await sourceSchemaNames.call(this, integrationId, schema, table), filter);
}
