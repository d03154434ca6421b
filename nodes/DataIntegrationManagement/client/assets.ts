import type { IDataObject } from 'n8n-workflow';

import type { Context } from '../transport';
import type { Pacer } from '../transport/pacer';
import { callEndpoint } from './endpoint';
import type { Asset } from './types';

/** `POST /assets`: the created asset. */
export async function createAsset(this: Context, body: IDataObject, pacer?: Pacer): Promise<Asset> {
	const { data } = await callEndpoint.call(this, 'POST /assets', {
		body,
		pacer,
	});
	return data as Asset;
}

/** `PATCH /assets/{id}`: the asset as it is now. */
export async function updateAsset(
	this: Context,
	assetId: string,
	body: IDataObject,
	pacer?: Pacer,
): Promise<Asset> {
	const { data } = await callEndpoint.call(this, 'PATCH /assets/{id}', {
		params: { id: assetId },
		body,
		pacer,
	});
	return data as Asset;
}
