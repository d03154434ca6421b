import type { Context } from '../transport';
import type { Pacer } from '../pacing/pacer';
import { callEndpoint } from './endpoint';

/** `GET /users`: every user (the API shows no paging). */
export async function listUsers(this: Context, pacer?: Pacer) {
	return (await callEndpoint(this, 'GET /users', { pacer })).data.items;
}
