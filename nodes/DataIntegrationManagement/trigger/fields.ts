import type { INodeProperties } from 'n8n-workflow';

import { optionsCollection } from '../shared/descriptions';
import { filtersField } from '../shared/filters';

/** The trigger's fields; the poll reads and checks its values by them. */

export const startFromField: INodeProperties = {
	displayName: 'Start From',
	name: 'startFrom',
	type: 'options',
	default: 'now',
	builderHint: {
		propertyHint:
			'`now` emits only entries logged after activation; `date` emits the backlog from `startDate` on',
	},
	options: [
		{
			name: 'Now',
			value: 'now',
			description:
				'Only entries that appear after the workflow is published (activated, in n8n 1.x)',
		},
		{
			name: 'A Date',
			value: 'date',
			description: 'Every entry from a date on, including the backlog',
		},
	],
};

export const startDateField: INodeProperties = {
	displayName: 'Start Date',
	name: 'startDate',
	type: 'dateTime',
	required: true,
	default: '',
	displayOptions: { show: { startFrom: ['date'] } },
	description: 'Entries at or after this time are emitted, e.g. 2026-11-01T09:30:00Z',
	builderHint: {
		propertyHint:
			"ISO 8601 with a zone, e.g. 2026-11-01T09:30:00Z; a time without a zone is read in the workflow's time zone",
	},
};

/**
 * The filters, each a list of values with its Match; an entry passes when it passes every filter
 * set. Read, checked and applied in ../shared/filters.ts, as Audit Log → Get Many's.
 */
export const filtersCollection = filtersField(
	'Entries that do not pass are skipped (they still count as seen)',
);

export const pollOptions: INodeProperties = optionsCollection([
	{
		displayName: 'Lookback (Seconds)',
		name: 'lookbackSeconds',
		type: 'number',
		typeOptions: { minValue: 0 },
		default: 60,
		description:
			'How far behind the newest entry each poll looks again, so that an entry that shows up late with a slightly older timestamp is still emitted, once',
	},
	{
		displayName: 'Max Items per Poll',
		name: 'maxItemsPerPoll',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 1000,
		description: 'The most entries one poll emits; the rest follow on the next polls, in order',
	},
]);
