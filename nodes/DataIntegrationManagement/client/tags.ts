import type { IDataObject } from 'n8n-workflow';

import type { Context } from '../transport';
import type { Pacer } from '../transport/pacer';
import { callEndpoint, type OffSpecAnswer, type Written } from './endpoint';
import type { Tag, TagRelation } from './types';

/** `POST /tags`: the created tag's id. */
export async function createTag(
	this: Context,
	body: IDataObject,
	pacer?: Pacer,
): Promise<Written<Pick<Tag, 'id'>>> {
	return (await callEndpoint.call(this, 'POST /tags', { body, pacer })) as Written<Pick<Tag, 'id'>>;
}

/** `PUT /tags/{id}`: the tag as it is now. */
export async function updateTag(
	this: Context,
	tagId: string,
	body: IDataObject,
	pacer?: Pacer,
): Promise<Written<Tag>> {
	return (await callEndpoint.call(this, 'PUT /tags/{id}', {
		params: { id: tagId },
		body,
		pacer,
	})) as Written<Tag>;
}

/** `DELETE /tags/{id}/relation`: the service's message (it returns no data). */
export async function deleteTagRelation(
	this: Context,
	tagId: string,
	relation: TagRelation,
	pacer?: Pacer,
): Promise<{ message?: string; offSpec?: OffSpecAnswer }> {
	const { message, offSpec } = await callEndpoint.call(this, 'DELETE /tags/{id}/relation', {
		params: { id: tagId },
		body: { ...relation },
		pacer,
	});
	return { message, offSpec };
}
