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

/** Whether a filter keeps the entries that match one of its values, or all the others. */
export const matchField: INodeProperties = {
	displayName: 'Match',
	name: 'match',
	type: 'options',
	default: 'anyOf',
	builderHint: {
		propertyHint:
			'`anyOf` keeps only the entries that match one of the values; `allBut` keeps every entry except those',
	},
	options: [
		{
			name: 'Any of These',
			value: 'anyOf',
			description: 'Only the entries that match one of the values',
		},
		{
			name: 'All but These',
			value: 'allBut',
			description: 'Every entry except those that match one of the values',
		},
	],
};

/**
 * The filters, each a list of values with its Match; an entry passes when it passes every filter
 * set. Read, checked and applied in ./filters.ts.
 */
export const filtersCollection: INodeProperties = {
	displayName: 'Filters',
	name: 'filters',
	type: 'fixedCollection',
	placeholder: 'Add Filter',
	default: {},
	description: 'Entries that do not pass are skipped (they still count as seen)',
	options: [
		{
			displayName: 'Actor Emails',
			name: 'actorEmails',
			values: [
				{
					displayName: 'User Names or IDs',
					name: 'emails',
					type: 'multiOptions',
					typeOptions: { loadOptionsMethod: 'getUserEmails' },
					default: [],
					description:
						'The actors\' emails, any case (an email is the ID here): pick users, or give emails. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
					builderHint: {
						propertyHint:
							"A list of actor emails, e.g. ['maya@example.com']; an expression may give them as one text, separated by commas",
					},
				},
				matchField,
			],
		},
		{
			displayName: 'Actor Types',
			name: 'actorTypes',
			values: [
				{
					displayName: 'Types',
					name: 'types',
					type: 'string',
					typeOptions: { multipleValues: true, multipleValueButtonText: 'Add Type' },
					default: [],
					placeholder: 'e.g. user',
					description: "Actor types, each equal to the entry's actor type, any case",
					builderHint: {
						propertyHint: "A list of actor types as the service writes them, e.g. ['user']",
					},
				},
				matchField,
			],
		},
		{
			displayName: 'Events',
			name: 'events',
			values: [
				{
					displayName: 'Texts',
					name: 'texts',
					type: 'string',
					typeOptions: { multipleValues: true, multipleValueButtonText: 'Add Text' },
					default: [],
					placeholder: 'e.g. paused',
					description: "Texts, each found anywhere in the entry's event description, any case",
					builderHint: {
						propertyHint: "A list of texts, each a part of an event description, e.g. ['paused']",
					},
				},
				matchField,
			],
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
