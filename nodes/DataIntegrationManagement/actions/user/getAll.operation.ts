import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { listLimitFields } from '../../shared/descriptions';
import { listUsers } from '../../client/users';

export const properties: INodeProperties[] = listLimitFields();

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const users = await listUsers.call(this);
	const returnAll = this.getNodeParameter('returnAll', itemIndex, false) as boolean;
	// The API lists every user in one answer (no paging is shown), so the limit applies here.
	const limited = returnAll
		? users
		: users.slice(0, this.getNodeParameter('limit', itemIndex, 50) as number);
	return limited as unknown as IDataObject[];
}
