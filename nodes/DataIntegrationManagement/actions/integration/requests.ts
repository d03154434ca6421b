import type { IExecuteFunctions, ILoadOptionsFunctions } from 'n8n-workflow';

import type { ColumnConfig, SchemasConfig } from '../../api';
import { apiRequest } from '../../transport';

/** The integration requests that both operations and pickers make. */

export async function fetchSchemas(
	this: IExecuteFunctions | ILoadOptionsFunctions,
	integrationId: string,
): Promise<SchemasConfig> {
	const { data } = await apiRequest.call(
		this,
		'GET',
		`/integrations/${encodeURIComponent(integrationId)}/schemas`,
	);
	return (data as { schemas?: SchemasConfig } | undefined)?.schemas ?? {};
}

export async function fetchColumns(
	this: IExecuteFunctions | ILoadOptionsFunctions,
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
