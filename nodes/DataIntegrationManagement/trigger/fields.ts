import type { INodeProperties } from 'n8n-workflow';

import { optionsCollection } from '../shared/descriptions';

/** The trigger's fields, here so that the poll checks what it reads against them. */

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
			description: 'Only entries that appear after the workflow is published (activated, in n8n 1.x)',
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

export const filtersCollection: INodeProperties = {
	displayName: 'Filters',
	name: 'filters',
	type: 'collection',
	placeholder: 'Add Filter',
	default: {},
	description: 'Entries that do not match are skipped (they still count as seen)',
	options: [
		{
			displayName: 'Actor Email',
			name: 'actorEmail',
			type: 'string',
			placeholder: 'e.g. name@email.com',
			default: '',
			description: 'Only entries by this actor (case-insensitive)',
		},
		{
			displayName: 'Actor Type',
			name: 'actorType',
			type: 'string',
			default: '',
			placeholder: 'e.g. user',
			description: 'Only entries whose actor is of this type (case-insensitive)',
		},
		{
			displayName: 'Event Contains',
			name: 'eventContains',
			type: 'string',
			default: '',
			placeholder: 'e.g. paused',
			description: 'Only entries whose event description contains this text (case-insensitive)',
		},
	],
};

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
