import type { IDataObject } from 'n8n-workflow';

import type { Context } from '../transport';
import type { Pacer } from '../pacing/pacer';
import { callEndpoint } from './endpoint';

/** `POST /assets`: the created asset. */
export async function createAsset(this: Context, body: IDataObject, pacer?: Pacer) {
	return await callEndpoint(this, 'POST /assets', { body, pacer });
}

/** `PATCH /assets/{id}`: the asset as it is now. */
export async function updateAsset(this: Context, id: string, body: IDataObject, pacer?: Pacer) {
	return await callEndpoint(this, 'PATCH /assets/{id}', { params: { id }, body, pacer });
}
