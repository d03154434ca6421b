import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { currentValues, sourceSchemaNames } from './pickers';

/**
 * Option lists for the entries of "Update Schemas" → Changes, sorted. Each entry names its own
 * schema and table, so the entry's siblings are read with n8n's `&` prefix (shared/listReads.ts).
 */

function toOptions(names: string[]): INodePropertyOptions[] {
	return names.sort().map((name) => ({ name, value: name }));
}

export async function getSchemaNames(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const [integrationId] = currentValues(this, 'getSchemaNames');
	return toOptions(await sourceSchemaNames.call(this, integrationId));
}

export async function getTableNames(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const [integrationId, schema] = currentValues(this, 'getTableNames');
	return toOptions(await sourceSchemaNames.call(this, integrationId, schema));
}

export async function getColumnNames(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const [integrationId, schema, table] = currentValues(this, 'getColumnNames');
	return toOptions(await sourceSchemaNames.call(this, integrationId, schema, table));
}
