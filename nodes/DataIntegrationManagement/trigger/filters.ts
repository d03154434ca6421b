import type { INodePropertyCollection } from 'n8n-workflow';

import type { AuditLogEntry } from '../client/types';
import { asOption, asText, fieldError, type Origin } from '../shared/checks';
import { filtersCollection, matchField } from './fields';

/**
 * The trigger's filters: each a list of values and whether it keeps the entries matching one of
 * them (`anyOf`) or all the others (`allBut`). An entry passes when it passes every filter set.
 */

type Match = 'anyOf' | 'allBut';
type Group = 'actorEmails' | 'actorTypes' | 'events';

/** One filter, checked: its values trimmed, in lower case, none empty. */
export interface ValueFilter {
	match: Match;
	values: string[];
}

export type EntryFilters = Partial<Record<Group, ValueFilter>>;

/**
 * What each filter compares its values with, and how: the same text, or a part of it. `emails`:
 * its values are email addresses, and a text (as an expression gives) holds several, comma
 * separated.
 */
const RULES: Record<
	Group,
	{ read: (entry: AuditLogEntry) => unknown; part: boolean; emails: boolean }
> = {
	actorEmails: { read: (entry) => entry.actor?.email, part: false, emails: true },
	actorTypes: { read: (entry) => entry.actor?.type, part: false, emails: false },
	events: { read: (entry) => entry.event, part: true, emails: false },
};

/** An email address as far as a filter needs: something, one @, something, no spaces. */
const EMAIL = /^[^\s@]+@[^\s@]+$/;

const lower = (text: unknown) =>
	String(text ?? '')
		.trim()
		.toLowerCase();

/** Whether an entry passes the filters (read by readFilters). */
export function entryFilter(filters: EntryFilters): (entry: AuditLogEntry) => boolean {
	const set = (Object.keys(filters) as Group[]).map((group) => ({
		...filters[group]!,
		...RULES[group],
	}));
	return (entry) =>
		set.every(({ match, values, read, part }) => {
			const have = lower(read(entry));
			const hit = values.some((value) => (part ? have.includes(value) : have === value));
			return hit === (match === 'anyOf');
		});
}

const isObject = (value: unknown): value is Record<string, unknown> =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The values given to a filter as a list: a list as it is; a text as one value, or, for emails,
 * as values separated by commas; nothing as none.
 */
function asList(emails: boolean, given: unknown): unknown[] {
	if (Array.isArray(given)) return given;
	if (given === undefined || given === null || given === '') return [];
	if (typeof given === 'string' && emails) return given.split(',');
	return [given];
}

/** One filter's values, checked; refused: an empty value, or an email that is not one. */
function readValues(origin: Origin, label: string, emails: boolean, given: unknown) {
	return asList(emails, given).map((value, index) => {
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
		return text.toLowerCase();
	});
}

/**
 * The Filters field's value, checked before any request, naming the field of a bad value. A
 * filter without values filters nothing.
 */
export function readFilters(origin: Origin, given: unknown): EntryFilters {
	if (!isObject(given))
		throw fieldError(origin, filtersCollection.displayName, 'must be a set of filters');
	const filters: EntryFilters = {};
	for (const group of filtersCollection.options as INodePropertyCollection[]) {
		const value = given[group.name];
		if (value === undefined) continue;
		if (!isObject(value)) throw fieldError(origin, group.displayName, 'must be a set of fields');
		const [field] = group.values;
		const label = `${group.displayName} → ${field.displayName}`;
		const { emails } = RULES[group.name as Group];
		const values = readValues(origin, label, emails, value[field.name]);
		const match = {
			...matchField,
			displayName: `${group.displayName} → ${matchField.displayName}`,
		};
		const chosen = asOption<Match>(origin, match, value.match ?? matchField.default);
		if (values.length) filters[group.name as Group] = { match: chosen, values };
	}
	return filters;
}
