import type { IDataObject } from 'n8n-workflow';

import type { Context } from '../transport';
import type { Pacer } from '../transport/pacer';
import { callEndpoint } from './endpoint';
import type { Tag, TagRelation } from './types';

/** `POST /tags`: the created tag's id. */
export async function createTag(
	this: Context,
	body: IDataObject,
	pacer?: Pacer,
): Promise<Pick<Tag, 'id'>> {
	const { data } = await callEndpoint.call(this, 'POST /tags', {
		body,
		pacer,
	});
	return data as Pick<Tag, 'id'>;
}

/** `PUT /tags/{id}`: the tag as it is now. */
export async function updateTag(
	this: Context,
	tagId: string,
	body: IDataObject,
	pacer?: Pacer,
): Promise<Tag> {
	const { data } = await callEndpoint.call(this, 'PUT /tags/{id}', {
		params: { id: tagId },
		body,
		pacer,
	});
	return data as Tag;
}

/** `DELETE /tags/{id}/relation`: the service's message (it returns no data). */
export async function deleteTagRelation(
	this: Context,
	tagId: string,
	relation: TagRelation,
	pacer?: Pacer,
): Promise<string | undefined> {
	const { message } = await callEndpoint.call(this, 'DELETE /tags/{id}/relation', {
		params: { id: tagId },
		body: { ...relation },
		pacer,
	});
	return message;
}
