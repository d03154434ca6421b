import type { IDataObject } from 'n8n-workflow';

import type { Context } from '../transport';
import type { Pacer } from '../transport/pacer';
import { callEndpoint, type Written } from './endpoint';
import type { Asset } from './types';

/** `POST /assets`: the created asset. */
export async function createAsset(
	this: Context,
	body: IDataObject,
	pacer?: Pacer,
): Promise<Written<Asset>> {
	return (await callEndpoint.call(this, 'POST /assets', { body, pacer })) as Written<Asset>;
}

/** `PATCH /assets/{id}`: the asset as it is now. */
export async function updateAsset(
	this: Context,
	assetId: string,
	body: IDataObject,
	pacer?: Pacer,
): Promise<Written<Asset>> {
	return (await callEndpoint.call(this, 'PATCH /assets/{id}', {
		params: { id: assetId },
		body,
		pacer,
	})) as Written<Asset>;
}
