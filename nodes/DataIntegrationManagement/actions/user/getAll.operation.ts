import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { Operation } from '../operation';
import { withDisplay } from '../operation';
import { listLimitFields } from '../fields';
import { fetchUsers } from './requests';

async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const users = await fetchUsers.call(this);
	const returnAll = this.getNodeParameter('returnAll', itemIndex, false) as boolean;
	// The API lists every user in one answer (no paging is shown), so the limit applies here.
	const limited = returnAll
		? users
		: users.slice(0, this.getNodeParameter('limit', itemIndex, 50) as number);
	return limited as unknown as IDataObject[];
}

export const getAll: Operation = {
	description: withDisplay('user', 'getAll', listLimitFields()),
	execute,
};
