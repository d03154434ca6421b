import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { listLimitFields, optionsCollection } from '../../shared/descriptions';
import { parseInstant } from '../../shared/timestamps';
import { readListLimit, readTimestamp, runsAsTool } from '../readers';
import { readAuditLogInOrder } from '../../client/auditLog';
import type { SortOrder } from '../../client/types';

export const properties: INodeProperties[] = [
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
		{
			displayName: 'Output',
			name: 'output',
			type: 'options',
			default: 'full',
			description:
				'Unless set here, the node gives Full and its AI tool form gives Compact, to keep what a model reads short',
			options: [
				{
					name: 'Compact',
					value: 'compact',
					description:
						"ID, timestamp, event and the actor's email of each entry; no IP address or user agent",
				},
				{ name: 'Full', value: 'full', description: 'Every field of each entry' },
			],
		},
	]),
];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const limit = readListLimit.call(this, itemIndex);
	const { entries } = await readAuditLogInOrder.call(
		this,
		{
			sortOrder: this.getNodeParameter('options.sortDirection', itemIndex, 'desc') as SortOrder,
			startTime: parseInstant(readTimestamp.call(this, itemIndex, 'filters.since', 'Since')),
			endTime: parseInstant(readTimestamp.call(this, itemIndex, 'filters.until', 'Until')),
		},
		limit,
	);
	const output = this.getNodeParameter(
		'options.output',
		itemIndex,
		runsAsTool.call(this) ? 'compact' : 'full',
	) as string;
	return entries.map(({ entry }) =>
		output === 'compact'
			? { id: entry.id, timestamp: entry.timestamp, event: entry.event, actor: entry.actor.email }
			: entry,
	) as unknown as IDataObject[];
}
