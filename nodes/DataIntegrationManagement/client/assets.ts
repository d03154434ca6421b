import type { IDataObject } from 'n8n-workflow';

import type { Context } from '../transport';
import { A_STRING, callEndpoint } from './endpoint';
import type { Asset } from './types';

/** `POST /assets`: the created asset. */
export async function createAsset(this: Context, body: IDataObject): Promise<Asset> {
	const { data } = await callEndpoint.call(this, 'POST', '/assets', {
		body,
		reads: { id: A_STRING },
	});
	return data as Asset;
}

/** `PATCH /assets/{id}`: the asset as it is now. */
export async function updateAsset(
	this: Context,
	assetId: string,
	body: IDataObject,
): Promise<Asset> {
	const { data } = await callEndpoint.call(this, 'PATCH', '/assets/{id}', {
		params: { id: assetId },
		body,
		reads: { id: A_STRING },
	});
	return data as Asset;
}
