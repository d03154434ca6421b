import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { limitField, returnAllField } from '../../shared/descriptions';
import { fieldError } from '../../shared/checks';
import { holds } from '../../shared/filters';
import { listUsers } from '../../client/users';
import { originOf, readCollection, readListLimit } from '../readers';
import type { Pacer } from '../../transport/pacer';

const filters: INodeProperties = {
	displayName: 'Filters',
	name: 'filters',
	type: 'collection',
	placeholder: 'Add Filter',
	default: {},
	options: [
		{
			displayName: 'Search',
			name: 'search',
			type: 'string',
			default: '',
			placeholder: 'e.g. maya',
			description: 'Only the users whose email or name holds this text, any case, e.g. maya',
		},
	],
};

/** Only reads: runs under a read-only credential too. */
export const changesData = false;

export const properties: INodeProperties[] = [returnAllField, limitField, filters];

/** Filters → Search, trimmed; undefined when not added. Added, it cannot be empty. */
function readSearch(this: IExecuteFunctions, itemIndex: number): string | undefined {
	const { search } = readCollection.call(this, itemIndex, filters);
	if (search === undefined) return undefined;
	const text = String(search).trim();
	if (text) return text;
	throw fieldError(
		originOf(this, itemIndex),
		'Search',
		'is empty',
		'Give a part of the email or the name of the users to find, or remove the filter.',
	);
}

/** In the tool form, an answer too large is narrowed by Search: it reaches any user. */
export function narrowWith(this: IExecuteFunctions, itemIndex: number) {
	const search = readSearch.call(this, itemIndex);
	return () =>
		search === undefined
			? 'set Filters → Search to a part of the email or the name of the users you need'
			: `set Filters → Search to a longer part of the email or the name than ${JSON.stringify(search)}`;
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	pacer: Pacer,
): Promise<IDataObject[]> {
	const limit = readListLimit.call(this, itemIndex);
	const search = readSearch.call(this, itemIndex);
	// The API lists every user in one answer, with no query: the node searches and limits here.
	const users = await listUsers.call(this, pacer);
	const found =
		search === undefined ? users : users.filter((user) => holds(search, user.email, user.name));
	return found.slice(0, limit);
}
