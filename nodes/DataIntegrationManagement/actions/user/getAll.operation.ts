import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { limitField, returnAllField } from '../../shared/descriptions';
import { listUsers } from '../../client/users';
import { readListLimit } from '../readers';
import type { Pacer } from '../../transport/pacer';

/** Only reads: runs under a read-only credential too. */
export const changesData = false;

export const properties: INodeProperties[] = [returnAllField, limitField];

/** In the tool form, an answer too large is narrowed by this. */
export const narrowWith = () => 'lower Limit (with Return All off)';

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	pacer: Pacer,
): Promise<IDataObject[]> {
	const limit = readListLimit.call(this, itemIndex);
	// The API lists every user in one answer (no paging is shown), so the limit applies here.
	const users = await listUsers.call(this, pacer);
	return users.slice(0, limit);
}
