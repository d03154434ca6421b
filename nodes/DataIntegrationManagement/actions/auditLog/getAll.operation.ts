import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { Operation } from '../operation';
import { withDisplay } from '../operation';
import { listLimitFields, optionsCollection } from '../fields';
import { readTimestamp } from '../parameters';
import { readAuditLogInOrder } from '../../client/auditLog';
import type { SortOrder } from '../../api';
import { parseInstant } from '../../timestamps';

const fields: INodeProperties[] = [
	...listLimitFields(),
	{
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
				description: 'Only entries at or after this time',
			},
			{
				displayName: 'Until',
				name: 'until',
				type: 'dateTime',
				default: '',
				description: 'Only entries before this time',
			},
		],
	},
	optionsCollection([
		{
			displayName: 'Sort Direction',
			name: 'sortDirection',
			type: 'options',
			default: 'desc',
			options: [
				{ name: 'Newest First', value: 'desc' },
				{ name: 'Oldest First', value: 'asc' },
			],
		},
	]),
];

async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const returnAll = this.getNodeParameter('returnAll', itemIndex, false) as boolean;
	const limit = returnAll ? Infinity : (this.getNodeParameter('limit', itemIndex, 50) as number);
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const { entries } = await readAuditLogInOrder.call(
		this,
		{
			sortOrder: this.getNodeParameter('options.sortDirection', itemIndex, 'desc') as SortOrder,
			startTime: parseInstant(readTimestamp.call(this, filters.since, 'Since', itemIndex)),
			endTime: parseInstant(readTimestamp.call(this, filters.until, 'Until', itemIndex)),
		},
		limit,
	);
	return entries.map(({ entry }) => entry) as unknown as IDataObject[];
}

export const getAll: Operation = {
	description: withDisplay('auditLog', 'getAll', fields),
	execute,
};
