import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { limitField, optionsCollection, returnAllField } from '../../shared/descriptions';
import { parseInstant } from '../../shared/timestamps';
import { readCollection, readListLimit, readParameter } from '../readers';
import { readAuditLogInOrder } from '../../client/auditLog';
import type { SortOrder } from '../../client/types';

const sortDirectionField: INodeProperties = {
	displayName: 'Sort Direction',
	name: 'sortDirection',
	type: 'options',
	default: 'desc',
	options: [
		{ name: 'Newest First', value: 'desc' },
		{ name: 'Oldest First', value: 'asc' },
	],
};

const filters: INodeProperties = {
	displayName: 'Filters',
	name: 'filters',
	type: 'collection',
	placeholder: 'Add Filter',
	default: {},
	options: [
		{
			displayName: 'Since',
			name: 'since',
			type: 'dateTime',
			default: '',
			description: 'Only entries at or after this time, e.g. 2026-11-01T09:30:00Z',
		},
		{
			displayName: 'Until',
			name: 'until',
			type: 'dateTime',
			default: '',
			description: 'Only entries before this time, e.g. 2026-11-02T00:00:00Z',
		},
	],
};

export const properties: INodeProperties[] = [
	returnAllField,
	limitField,
	filters,
	optionsCollection([sortDirectionField]),
];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const limit = readListLimit.call(this, itemIndex);
	const { since, until } = readCollection.call(this, itemIndex, filters);
	const { entries } = await readAuditLogInOrder.call(
		this,
		{
			sortOrder: readParameter.call(
				this,
				itemIndex,
				sortDirectionField,
				'options.sortDirection',
			) as SortOrder,
			startTime: parseInstant(since),
			endTime: parseInstant(until),
		},
		limit,
	);
	return entries.map(({ entry }) => entry) as unknown as IDataObject[];
}
