import type { Context } from '../transport';
import type { Pacer } from '../transport/pacer';
import { callEndpoint } from './endpoint';
import type { User } from './types';

/** `GET /users`: every user (the API shows no paging). */
export async function listUsers(this: Context, pacer?: Pacer): Promise<User[]> {
	const { data } = await callEndpoint.call(this, 'GET /users', {
		pacer,
	});
	return (data as { items: User[] }).items;
}
