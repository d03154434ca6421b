import type { IDataObject } from 'n8n-workflow';

import type { Context } from '../transport';
import type { Pacer } from '../pacing/pacer';
import { callEndpoint } from './endpoint';
import type { TagRelation } from './types';

/** `POST /tags`: the created tag's id. */
export async function createTag(this: Context, body: IDataObject, pacer?: Pacer) {
	return await callEndpoint(this, 'POST /tags', { body, pacer });
}

/** `PUT /tags/{id}`: the tag as it is now. */
export async function updateTag(this: Context, id: string, body: IDataObject, pacer?: Pacer) {
	return await callEndpoint(this, 'PUT /tags/{id}', { params: { id }, body, pacer });
}

/** `DELETE /tags/{id}/relation`: the service's message (it returns no data). */
export async function deleteTagRelation(
	this: Context,
	id: string,
	body: TagRelation,
	pacer?: Pacer,
) {
	return await callEndpoint(this, 'DELETE /tags/{id}/relation', { params: { id }, body, pacer });
}
