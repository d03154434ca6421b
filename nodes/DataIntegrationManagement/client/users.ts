import { apiRequest, type Context } from '../transport';
import type { User } from './types';

/** `GET /users`: every user (the API shows no paging). */
export async function listUsers(this: Context): Promise<User[]> {
	const { data } = await apiRequest.call(this, 'GET', '/users');
	return (data as { items?: User[] } | undefined)?.items ?? [];
}
