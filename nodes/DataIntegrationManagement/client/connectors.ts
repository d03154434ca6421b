import type { IDataObject } from 'n8n-workflow';

import type { Context } from '../transport';
import type { Pacer } from '../pacing/pacer';
import { callEndpoint } from './endpoint';

/** `POST /connectors`: the created connector. */
export async function createConnector(this: Context, body: IDataObject, pacer?: Pacer) {
	return await callEndpoint(this, 'POST /connectors', { body, pacer });
}
