import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { limitField, returnAllField } from '../../shared/descriptions';
import { parseInstant } from '../../shared/timestamps';
import { readCollection, readListLimit, readParameter } from '../readers';
import { scanAuditLogInOrder } from '../../client/auditLog';
import type { SortOrder } from '../../client/types';
import type { Pacer } from '../../transport/pacer';

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

const outputField: INodeProperties = {
	displayName: 'Output',
	name: 'output',
	type: 'options',
	default: 'raw',
	description:
		'How to return each entry: only the fields one usually reads, or as the service returns it',
	options: [
		{
			name: 'Compact',
			value: 'compact',
			description:
				"ID, timestamp, event and the actor's email (actorEmail) of each entry; no IP address or user agent",
		},
		{
			name: 'Raw',
			value: 'raw',
			description: 'Each entry as the service returns it, every field',
		},
	],
};

const TIME_HINT =
	"ISO 8601 with a zone, e.g. 2026-11-01T09:30:00Z or 2026-11-01T10:30:00+01:00; a time without a zone is read in the workflow's time zone";

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
			builderHint: { propertyHint: TIME_HINT },
		},
		{
			displayName: 'Until',
			name: 'until',
			type: 'dateTime',
			default: '',
			description: 'Only entries before this time, e.g. 2026-11-02T00:00:00Z',
			builderHint: { propertyHint: TIME_HINT },
		},
	],
};

/** Only reads: runs under a read-only credential too. */
export const changesData = false;

export const properties: INodeProperties[] = [returnAllField, limitField, filters];

export const optionFields = [outputField, sortDirectionField];

/** In the tool form, an answer too large is narrowed by these. */
export const narrowWith = () =>
	'lower Limit (with Return All off), or set Filters → Since and Until to a shorter span';

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	pacer: Pacer,
): Promise<IDataObject[]> {
	const limit = readListLimit.call(this, itemIndex);
	const { since, until } = readCollection.call(this, itemIndex, filters);
	const output = readParameter.call(this, itemIndex, outputField, 'options.output') as string;
	const { entries } = await scanAuditLogInOrder.call(
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
			pacer,
		},
		limit,
	);
	if (output !== 'compact') return entries.map(({ entry }) => entry);
	return entries.map(({ entry }) => ({
		id: entry.id,
		timestamp: entry.timestamp,
		event: entry.event,
		actorEmail: entry.actor?.email,
	}));
}
