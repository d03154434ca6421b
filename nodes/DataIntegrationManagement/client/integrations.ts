import type { Context } from '../transport';
import type { Pacer } from '../transport/pacer';
import { callEndpoint, type Written } from './endpoint';
import type { ColumnConfig, Integration, ReceivedSchemas, SchemasPatch } from './types';

/** `GET /integrations/{id}`. */
export async function getIntegration(
	this: Context,
	integrationId: string,
	pacer?: Pacer,
): Promise<Integration> {
	const { data } = await callEndpoint.call(this, 'GET /integrations/{id}', {
		params: { id: integrationId },
		pacer,
	});
	return (data as { integration: Integration }).integration;
}

/** `GET /integrations/{id}/schemas`: the integration's source schema. */
export async function getSchemas(
	this: Context,
	integrationId: string,
	pacer?: Pacer,
): Promise<ReceivedSchemas> {
	const { data } = await callEndpoint.call(this, 'GET /integrations/{id}/schemas', {
		params: { id: integrationId },
		pacer,
	});
	return (data as { schemas: ReceivedSchemas }).schemas;
}

/** `PATCH /integrations/{id}/schemas`: the source schema after the change. */
export async function updateSchemas(
	this: Context,
	integrationId: string,
	schemas: SchemasPatch,
	pacer?: Pacer,
): Promise<Written<ReceivedSchemas>> {
	const answer = await callEndpoint.call(this, 'PATCH /integrations/{id}/schemas', {
		params: { id: integrationId },
		body: { schemas },
		pacer,
	});
	if (answer.offSpec) return answer as Written<ReceivedSchemas>;
	return {
		...answer,
		data: (answer.data as { schemas: ReceivedSchemas }).schemas,
		offSpec: undefined,
	};
}

/** `GET /integrations/{id}/schemas/{schema}/tables/{table}/columns`. */
export async function getColumns(
	this: Context,
	integrationId: string,
	schema: string,
	table: string,
	pacer?: Pacer,
): Promise<Record<string, ColumnConfig>> {
	const { data } = await callEndpoint.call(
		this,
		'GET /integrations/{id}/schemas/{schema}/tables/{table}/columns',
		{ params: { id: integrationId, schema, table }, pacer },
	);
	return (data as { columns: Record<string, ColumnConfig> }).columns;
}
