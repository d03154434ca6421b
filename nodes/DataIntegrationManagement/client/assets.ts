import type { IDataObject } from 'n8n-workflow';

import { apiRequest, type Context } from '../transport';
import type { Asset } from './types';

/** `POST /assets`: the created asset. */
export async function createAsset(this: Context, body: IDataObject): Promise<Asset> {
	const { data } = await apiRequest.call(this, 'POST', '/assets', { body });
	return data as Asset;
}

/** `PATCH /assets/{id}`: the asset as it is now. */
export async function updateAsset(
	this: Context,
	assetId: string,
	body: IDataObject,
): Promise<Asset> {
	const { data } = await apiRequest.call(this, 'PATCH', `/assets/${encodeURIComponent(assetId)}`, {
		body,
	});
	return data as Asset;
}
