import type { IExecuteFunctions, ILoadOptionsFunctions } from 'n8n-workflow';

import type { User } from '../../api';
import { apiRequest } from '../../transport';

export async function fetchUsers(this: IExecuteFunctions | ILoadOptionsFunctions): Promise<User[]> {
	const { data } = await apiRequest.call(this, 'GET', '/users');
	return (data as { items?: User[] } | undefined)?.items ?? [];
}
