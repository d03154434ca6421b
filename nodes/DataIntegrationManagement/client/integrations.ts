import type { Context } from '../transport';
import type { Pacer } from '../pacing/pacer';
import { callEndpoint, type Written } from './endpoint';
import type { ReceivedSchemas, SchemasPatch } from './types';

/** `GET /integrations/{id}`. */
export async function getIntegration(this: Context, id: string, pacer?: Pacer) {
	return (await callEndpoint(this, 'GET /integrations/{id}', { params: { id }, pacer })).data
		.integration;
}

/** `GET /integrations/{id}/schemas`: the integration's source schema. */
export async function getSchemas(this: Context, id: string, pacer?: Pacer) {
	return (await callEndpoint(this, 'GET /integrations/{id}/schemas', { params: { id }, pacer }))
		.data.schemas;
}

/** `PATCH /integrations/{id}/schemas`: the source schema after the change. */
export async function updateSchemas(
	this: Context,
	id: string,
	schemas: SchemasPatch,
	pacer?: Pacer,
): Promise<Written<ReceivedSchemas>> {
	const answer = await callEndpoint(this, 'PATCH /integrations/{id}/schemas', {
		params: { id },
		body: { schemas },
		pacer,
	});
	return answer.offSpec ? answer : { ...answer, data: answer.data.schemas };
}

/** `GET /integrations/{id}/schemas/{schema}/tables/{table}/columns`. */
export async function getColumns(
	this: Context,
	id: string,
	schema: string,
	table: string,
	pacer?: Pacer,
) {
	const endpoint = 'GET /integrations/{id}/schemas/{schema}/tables/{table}/columns';
	return (await callEndpoint(this, endpoint, { params: { id, schema, table }, pacer })).data
		.columns;
}
