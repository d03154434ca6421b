import type { Context } from '../transport';
import { A_LIST_OF_OBJECTS, callEndpoint } from './endpoint';
import type { User } from './types';

/** `GET /users`: every user (the API shows no paging). */
export async function listUsers(this: Context): Promise<User[]> {
	const { data } = await callEndpoint.call(this, 'GET', '/users', {
		reads: { items: A_LIST_OF_OBJECTS },
	});
	return (data as { items: User[] }).items;
}
