import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { listUsers } from '../client/users';

/**
 * Filters → Actor Emails' list (the trigger's, Audit Log → Get Many's): the service's users by name, each standing for its email
 * (audit log entries name their actor by email), sorted by name.
 */
export async function getUserEmails(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return (await listUsers.call(this))
		.map((user) => ({ name: `${user.name} (${user.email})`, value: user.email }))
		.sort((a, b) => a.name.localeCompare(b.name, 'en'));
}
