import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { fieldsCollection, limitField, returnAllField } from '../../shared/descriptions';
import { holds } from '../../shared/filters';
import { listUsers } from '../../client/users';
import { readCollection } from '../readers';
import type { Execute } from '../operation';

const searchField: INodeProperties = {
	displayName: 'Search',
	name: 'search',
	type: 'string',
	default: '',
	placeholder: 'e.g. maya',
	description: 'Only the users whose email, name or ID holds this text, any case, e.g. maya',
};

const filters = fieldsCollection('filters', [searchField]);

/** Only reads: runs under a read-only credential too. */
export const changesData = false;

export const properties: INodeProperties[] = [returnAllField, limitField, filters];

/** Filters → Search, trimmed: '' when not added; added, it may not be empty. */
const readSearch = (context: IExecuteFunctions, itemIndex: number) =>
	String(
		readCollection.call(context, itemIndex, filters, { neverEmpty: [searchField], strict: true })
			.search ?? '',
	).trim();

/** In the tool form, an answer too large is narrowed by Search, which reaches any user. */
export function narrowWith(this: IExecuteFunctions, itemIndex: number) {
	const search = readSearch(this, itemIndex);
	const part = search ? `a longer part than ${JSON.stringify(search)}` : 'a part';
	return () =>
		`set Filters → Search to ${part} of the email, the name or the ID of the users you need`;
}

export const execute: Execute = async function (itemIndex, pacer, { limit }) {
	const search = readSearch(this, itemIndex);
	// The API lists every user in one answer, with no query: the node searches and limits here.
	const users = await listUsers.call(this, pacer);
	return users.filter((user) => holds(search, user.email, user.name, user.id)).slice(0, limit);
};
