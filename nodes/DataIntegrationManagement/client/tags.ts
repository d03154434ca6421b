import type { IDataObject } from 'n8n-workflow';

import { apiRequest, type Context } from '../transport';
import type { Tag, TagRelation } from './types';

/** `POST /tags`: the created tag's id. */
export async function createTag(this: Context, body: IDataObject): Promise<Pick<Tag, 'id'>> {
	const { data } = await apiRequest.call(this, 'POST', '/tags', { body });
	return data as Pick<Tag, 'id'>;
}

/** `PUT /tags/{id}`: the tag as it is now. */
export async function updateTag(this: Context, tagId: string, body: IDataObject): Promise<Tag> {
	const { data } = await apiRequest.call(this, 'PUT', `/tags/${encodeURIComponent(tagId)}`, {
		body,
	});
	return data as Tag;
}

/** `DELETE /tags/{id}/relation`: the service's message (it returns no data). */
export async function deleteTagRelation(
	this: Context,
	tagId: string,
	relation: TagRelation,
): Promise<string | undefined> {
	const { message } = await apiRequest.call(
		this,
		'DELETE',
		`/tags/${encodeURIComponent(tagId)}/relation`,
		{ body: { ...relation } },
	);
	return message;
}
