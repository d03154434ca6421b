import type { IDataObject } from 'n8n-workflow';

import type { Context } from '../transport';
import type { Pacer } from '../transport/pacer';
import { callEndpoint, type Written } from './endpoint';
import type { Connector } from './types';

/** `POST /connectors`: the created connector. */
export async function createConnector(
	this: Context,
	body: IDataObject,
	pacer?: Pacer,
): Promise<Written<Connector>> {
	return (await callEndpoint.call(this, 'POST /connectors', { body, pacer })) as Written<Connector>;
}
