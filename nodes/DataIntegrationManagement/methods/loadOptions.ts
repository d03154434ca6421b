import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { fetchSchemas } from '../actions/integration/requests';

/**
 * Option lists for the entries of "Update Schemas" → Changes. Each entry names its own schema
 * and table, so the entry's siblings are read with n8n's `&` prefix.
 */

function toOptions(names: string[]): INodePropertyOptions[] {
	return names.sort().map((name) => ({ name, value: name }));
}

async function schemasOfIntegration(this: ILoadOptionsFunctions) {
	const integrationId = String(this.getCurrentNodeParameter('integrationId') ?? '').trim();
	return integrationId ? await fetchSchemas.call(this, integrationId) : {};
}

export async function getSchemaNames(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return toOptions(Object.keys(await schemasOfIntegration.call(this)));
}

export async function getTableNames(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const schema = String(this.getCurrentNodeParameter('&schema') ?? '');
	const schemas = await schemasOfIntegration.call(this);
	return toOptions(Object.keys(schemas[schema]?.tables ?? {}));
}

export async function getColumnNames(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const schema = String(this.getCurrentNodeParameter('&schema') ?? '');
	const table = String(this.getCurrentNodeParameter('&table') ?? '');
	const schemas = await schemasOfIntegration.call(this);
	return toOptions(Object.keys(schemas[schema]?.tables?.[table]?.columns ?? {}));
}
