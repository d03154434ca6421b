import type { IDataObject } from 'n8n-workflow';

import type { Context } from '../transport';
import { A_STRING, callEndpoint } from './endpoint';
import type { Connector } from './types';

/** `POST /connectors`: the created connector. */
export async function createConnector(this: Context, body: IDataObject): Promise<Connector> {
	const { data } = await callEndpoint.call(this, 'POST', '/connectors', {
		body,
		reads: { id: A_STRING },
	});
	return data as Connector;
}
