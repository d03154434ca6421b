import { apiRequest, type Context } from '../transport';
import type { ColumnConfig, Integration, SchemasConfig, SchemasPatch } from './types';

const integrationPath = (integrationId: string) =>
	`/integrations/${encodeURIComponent(integrationId)}`;

/** `GET /integrations/{id}`. */
export async function getIntegration(this: Context, integrationId: string): Promise<Integration> {
	const { data } = await apiRequest.call(this, 'GET', integrationPath(integrationId));
	return (data as { integration: Integration }).integration;
}

/** `GET /integrations/{id}/schemas`: the integration's source schema. */
export async function getSchemas(this: Context, integrationId: string): Promise<SchemasConfig> {
	const { data } = await apiRequest.call(this, 'GET', `${integrationPath(integrationId)}/schemas`);
	return (data as { schemas?: SchemasConfig } | undefined)?.schemas ?? {};
}

/** `PATCH /integrations/{id}/schemas`: the source schema after the change. */
export async function updateSchemas(
	this: Context,
	integrationId: string,
	schemas: SchemasPatch,
): Promise<SchemasConfig> {
	const { data } = await apiRequest.call(
		this,
		'PATCH',
		`${integrationPath(integrationId)}/schemas`,
		{ body: { schemas } },
	);
	return (data as { schemas?: SchemasConfig } | undefined)?.schemas ?? {};
}

/** `GET /integrations/{id}/schemas/{schema}/tables/{table}/columns`. */
export async function getColumns(
	this: Context,
	integrationId: string,
	schema: string,
	table: string,
): Promise<Record<string, ColumnConfig>> {
	const path = [integrationId, 'schemas', schema, 'tables', table, 'columns']
		.map((part, index) => (index % 2 === 0 ? encodeURIComponent(part) : part))
		.join('/');
	const { data } = await apiRequest.call(this, 'GET', `/integrations/${path}`);
	return (data as { columns?: Record<string, ColumnConfig> } | undefined)?.columns ?? {};
}
