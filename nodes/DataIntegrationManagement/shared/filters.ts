import type { INodeProperties, INodePropertyCollection } from 'n8n-workflow';

import { asOption, asText, fieldError, isObject, type Origin } from './checks';

/**
 * The audit-log filters both nodes take (the trigger's Filters, Audit Log → Get Many's): each a
 * list of values and whether it keeps the entries matching one of them (`anyOf`) or all the
 * others (`allBut`). An entry passes when it passes every filter set. The fields, how they are
 * read and how they match are defined here once.
 */

type Match = 'anyOf' | 'allBut';
type Group = 'actorEmails' | 'actorTypes' | 'events';

/** What a filter reads of an audit-log entry. */
type FilteredEntry = { event?: unknown; actor?: { email?: unknown; type?: unknown } };

/**
 * What a filter compares its values with, and how: the same text, or a part of it. `emails`: its
 * values must be email addresses.
 */
type Rule = { read: (entry: FilteredEntry) => unknown; part: boolean; emails: boolean };

/** The filters set, each checked: its values as `lower` gives them, none empty, at least one. */
type EntryFilters = Partial<Record<Group, { match: Match; values: string[] }>>;

/** Whether a filter keeps the entries that match one of its values, or all the others. */
const matchField: INodeProperties = {
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

/** One filter's group: its list of values, then its Match. */
const group = (
	displayName: string,
	name: Group,
	values: INodeProperties,
): INodePropertyCollection => ({ displayName, name, values: [values, matchField] });

/** The groups of a Filters fixed collection: Actor Emails, Actor Types, Events. */
const filterGroups: INodePropertyCollection[] = [
	group('Actor Emails', 'actorEmails', {
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
	}),
	group('Actor Types', 'actorTypes', {
		displayName: 'Types',
		name: 'types',
		type: 'string',
		typeOptions: { multipleValues: true, multipleValueButtonText: 'Add Type' },
		default: [],
		placeholder: 'e.g. user',
		description:
			"Actor types, each equal to the entry's actor type, any case; commas separate types in one entry too",
		builderHint: {
			propertyHint:
				"A list of actor types as the service writes them, e.g. ['user']; an expression may give them as one text, separated by commas",
		},
	}),
	group('Events', 'events', {
		displayName: 'Texts',
		name: 'texts',
		type: 'string',
		typeOptions: { multipleValues: true, multipleValueButtonText: 'Add Text' },
		default: [],
		placeholder: 'e.g. paused',
		description: "Texts, each found anywhere in the entry's event description, any case",
		builderHint: {
			propertyHint:
				"A list of texts, each a part of an event description, e.g. ['paused']; an expression may give them as one text, separated by commas",
		},
	}),
];

/** A node's Filters: the groups above, then `more` of its own. */
export const filtersField = (
	description: string,
	more: INodePropertyCollection[] = [],
): INodeProperties => ({
	displayName: 'Filters',
	name: 'filters',
	type: 'fixedCollection',
	placeholder: 'Add Filter',
	default: {},
	description,
	options: [...filterGroups, ...more],
});

/** What each filter compares its values with (see Rule). */
const RULES: Record<Group, Rule> = {
	actorEmails: { read: (entry) => entry.actor?.email, part: false, emails: true },
	actorTypes: { read: (entry) => entry.actor?.type, part: false, emails: false },
	events: { read: (entry) => entry.event, part: true, emails: false },
};

/** An email address as far as a filter needs: something, one @, something, no spaces. */
const EMAIL = /^[^\s@]+@[^\s@]+$/;

/**
 * Text as filters compare it: trimmed, in lower case, accents composed (NFC) either way written.
 * A value that is no text, number or boolean (an object off the spec) holds no text.
 */
const lower = (text: unknown) =>
	(['string', 'number', 'boolean'].includes(typeof text) ? String(text) : '')
		.trim()
		.normalize('NFC')
		.toLowerCase();

/** Whether one of `texts` holds `part` (trimmed, any case): how Search and Events match. */
export const holds = (part: string, ...texts: unknown[]): boolean =>
	texts.some((text) => lower(text).includes(lower(part)));

/** Whether an entry passes the filters (read by readFilters). */
export function entryFilter(filters: EntryFilters): (entry: FilteredEntry) => boolean {
	const set = (Object.keys(filters) as Group[]).map((name) => ({
		...filters[name]!,
		...RULES[name],
	}));
	return (entry) =>
		set.every(({ match, values, read, part }) => {
			const have = lower(read(entry));
			const hit = values.some((value) => (part ? have.includes(value) : have === value));
			return hit === (match === 'anyOf');
		});
}

const commaSeparated = (value: unknown) => (typeof value === 'string' ? value.split(',') : [value]);

/**
 * The values given to a filter: a text as values separated by commas; a list as it is, but for
 * whole values (`splitEach`: emails, types, which hold no comma), each text of it split too.
 */
function asList(given: unknown, splitEach: boolean): unknown[] {
	if (Array.isArray(given)) return splitEach ? given.flatMap(commaSeparated) : given;
	if (given === undefined || given === null || given === '') return [];
	return commaSeparated(given);
}

/** One filter's values, checked; refused: none, an empty value, or an email that is not one. */
function readValues(origin: Origin, label: string, rule: Rule, given: unknown) {
	const { part, emails } = rule;
	const list = asList(given, !part);
	if (!list.length)
		throw fieldError(
			origin,
			label,
			'has no value',
			'Give at least one value (an expression may give several, separated by commas), or remove the filter.',
		);
	return list.map((value, index) => {
		const text = asText(origin, label, value).trim();
		if (!text)
			throw fieldError(
				origin,
				label,
				`has an empty value (value ${index + 1})`,
				'Fill it or remove it.',
			);
		if (emails && !EMAIL.test(text))
			throw fieldError(
				origin,
				label,
				`has ${JSON.stringify(text)}, which is not an email address`,
				'Pick users from the list, or give email addresses such as maya@example.com.',
			);
		return lower(text);
	});
}

/**
 * The filters of a Filters field's value (other groups in it are not read here), checked before
 * any request, naming the field of a bad value: a filter added is refused when its values are
 * none, so that it cannot let every entry through unnoticed.
 */
export function readFilters(origin: Origin, given: unknown): EntryFilters {
	if (!isObject(given)) throw fieldError(origin, 'Filters', 'must be a set of filters');
	const filters: EntryFilters = {};
	for (const { displayName, name, values } of filterGroups) {
		const value = given[name];
		if (value === undefined) continue;
		if (!isObject(value)) throw fieldError(origin, displayName, 'must be a set of fields');
		const [field] = values;
		const label = `${displayName} → ${field.displayName}`;
		const match = { ...matchField, displayName: `${displayName} → ${matchField.displayName}` };
		// Match left out is Any of These; given null (by an expression), refused.
		const { match: chosen = matchField.default } = value;
		filters[name as Group] = {
			match: asOption<Match>(origin, match, chosen),
			values: readValues(origin, label, RULES[name as Group], value[field.name]),
		};
	}
	return filters;
}
