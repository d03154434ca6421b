import type {
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';

import { fetchSchemas } from '../actions/integration/requests';
import { fetchUsers } from '../actions/user/requests';

/** Resource-locator searches: users for a tag's owner, and an integration's schemas and tables. */

function matches(filter: string | undefined, ...texts: string[]): boolean {
	if (!filter) return true;
	const needle = filter.toLowerCase();
	return texts.some((text) => text.toLowerCase().includes(needle));
}

function currentText(this: ILoadOptionsFunctions, name: string): string {
	return String(this.getCurrentNodeParameter(name, { extractValue: true }) ?? '').trim();
}

export async function searchUsers(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const users = await fetchUsers.call(this);
	const results: INodeListSearchItems[] = users
		.filter((user) => matches(filter, user.name, user.email))
		.map((user) => ({ name: `${user.name} (${user.email})`, value: user.id }));
	return { results };
}

export async function searchSchemas(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const integrationId = currentText.call(this, 'integrationId');
	if (!integrationId) return { results: [] };
	const schemas = await fetchSchemas.call(this, integrationId);
	return {
		results: Object.keys(schemas)
			.filter((name) => matches(filter, name))
			.map((name) => ({ name, value: name })),
	};
}

export async function searchTables(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const integrationId = currentText.call(this, 'integrationId');
	const schema = currentText.call(this, 'schema');
	if (!integrationId || !schema) return { results: [] };
	const schemas = await fetchSchemas.call(this, integrationId);
	return {
		results: Object.keys(schemas[schema]?.tables ?? {})
			.filter((name) => matches(filter, name))
			.map((name) => ({ name, value: name })),
	};
}
