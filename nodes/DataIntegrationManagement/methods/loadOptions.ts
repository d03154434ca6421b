import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { currentValue, sourceSchemaNames } from './pickers';

/**
 * Option lists for the entries of "Update Schemas" → Changes, sorted. Each entry names its own
 * schema and table, so the entry's siblings are read with n8n's `&` prefix.
 */

function toOptions(names: string[]): INodePropertyOptions[] {
	return names.sort().map((name) => ({ name, value: name }));
}

export async function getSchemaNames(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const integrationId = currentValue.call(this, 'integrationId');
	return toOptions(await sourceSchemaNames.call(this, integrationId));
}

export async function getTableNames(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const integrationId = currentValue.call(this, 'integrationId');
	const schema = currentValue.call(this, '&schema');
	return toOptions(await sourceSchemaNames.call(this, integrationId, schema));
}

export async function getColumnNames(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const integrationId = currentValue.call(this, 'integrationId');
	const schema = currentValue.call(this, '&schema');
	const table = currentValue.call(this, '&table');
	return toOptions(await sourceSchemaNames.call(this, integrationId, schema, table));
}
