import type { IDataObject } from 'n8n-workflow';

import { apiRequest, type Context } from '../transport';
import type { Connector } from './types';

/** `POST /connectors`: the created connector. */
export async function createConnector(this: Context, body: IDataObject): Promise<Connector> {
	const { data } = await apiRequest.call(this, 'POST', '/connectors', { body });
	return data as Connector;
}
