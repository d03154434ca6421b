/**
 * The audit-log filters of the trigger and of Audit Log → Get Many (shared/filters.ts), rule by
 * rule: which entries pass (each filter's values, any of them or all but them, in any case,
 * trimmed; a text read as values separated by commas), and which values are refused, naming the
 * field, before any request: a filter added without values among them.
 */
import type { IDataObject, INode } from 'n8n-workflow';

import type { AuditLogEntry } from '../../nodes/DataIntegrationManagement/client/types';
import {
	entryFilter,
	holds,
	readFilters,
} from '../../nodes/DataIntegrationManagement/shared/filters';

const node = {
	name: 'Audit Log Trigger',
	type: 'n8n-nodes-data-integration-management.dataIntegrationManagementTrigger',
} as INode;
const entry = (fields: Record<string, unknown>) => fields as unknown as AuditLogEntry;
const MAYA = entry({
	event: 'Integration paused',
	actor: { type: 'user', email: 'maya.patel@northwind-data.example' },
});
const WITHOUT_ACTOR = entry({ event: 'Integration paused' });
const passes = (filters: IDataObject, candidate = MAYA) =>
	entryFilter(readFilters({ node }, filters))(candidate);

const emails = (values: unknown, match?: string) => ({ actorEmails: { emails: values, match } });
const types = (values: unknown, match?: string) => ({ actorTypes: { types: values, match } });
const events = (values: unknown, match?: string) => ({ events: { texts: values, match } });

describe('which entries pass', () => {
	it.each<[string, IDataObject]>([
		['no filter', {}],
		['a part of the event, in another case', events(['PAUSED'])],
		['a part of the event, with spaces around', events(['  paused '])],
		['one of several texts', events(['resumed', 'paused'])],
		['a text given alone, not in a list', events('paused')],
		['texts as one text, by commas', events('resumed, paused')],
		['types as one text, by commas', types('system, user')],
		['a number as a value', { actorTypes: { types: 7, match: 'allBut' } }],
		['the email in another case', emails(['Maya.Patel@Northwind-Data.example'])],
		['one of several emails', emails(['lucas@x.example', ' maya.patel@northwind-data.example '])],
		['emails as one text, by commas', emails('lucas@x.example, maya.patel@northwind-data.example')],
		['the actor type in another case', types(['USER'])],
		['one of several types', types(['system', 'user'])],
		['Match left out: any of these', { actorTypes: { types: ['user'] } }],
		['all but another event', events(['resumed', 'created'], 'allBut')],
		['all but another type', types(['system'], 'allBut')],
		['all but other emails', emails(['lucas@x.example'], 'allBut')],
		['two filters, both passed', { ...events(['paused']), ...types(['system'], 'allBut') }],
	])('lets the entry through for %s', (_, filters) => {
		expect(passes(filters)).toBe(true);
	});

	it.each<[string, IDataObject, AuditLogEntry]>([
		['another event', events(['resumed']), MAYA],
		['none of several texts', events(['resumed', 'created']), MAYA],
		['a part of the email only', emails(['maya.patel@northwind']), MAYA],
		['another actor type', types(['system']), MAYA],
		['a part of the type only', types(['use']), MAYA],
		['all but this event', events(['Paused'], 'allBut'), MAYA],
		['all but one of its texts', events(['created', 'INTEGRATION'], 'allBut'), MAYA],
		['all but this type', types(['system', 'USER'], 'allBut'), MAYA],
		['all but this email', emails(['MAYA.PATEL@northwind-data.example'], 'allBut'), MAYA],
		['two filters, one not passed', { ...events(['paused']), ...types(['user'], 'allBut') }, MAYA],
		['an email, on an entry without actor', emails(['maya@x.example']), WITHOUT_ACTOR],
		['types as one text, none of them', types('system, api_key'), MAYA],
		['a type, on an entry without actor', types(['user']), WITHOUT_ACTOR],
		['a text, on an entry without event', events(['x']), entry({})],
	])('holds the entry back for %s', (_, filters, candidate) => {
		expect(passes(filters, candidate)).toBe(false);
	});

	it('lets an entry without actor through all but some emails', () => {
		expect(passes(emails(['maya@x.example'], 'allBut'), WITHOUT_ACTOR)).toBe(true);
	});
});

describe('which values are refused, naming the field', () => {
	it.each<[string, unknown, string]>([
		['Filters as a list', [], 'The field "Filters" must be a set of filters'],
		['a filter as text', { events: 'paused' }, 'The field "Events" must be a set of fields'],
		[
			'an empty text among others',
			events(['paused', '  ']),
			'The field "Events → Texts" has an empty value (value 2)',
		],
		['an empty type', types(['']), 'The field "Actor Types → Types" has an empty value (value 1)'],
		[
			'a trailing comma in emails given as text',
			emails('maya@x.example,'),
			'The field "Actor Emails → User Names or IDs" has an empty value (value 2)',
		],
		[
			'an email without @',
			emails(['maya.patel']),
			'The field "Actor Emails → User Names or IDs" has "maya.patel", which is not an email address',
		],
		[
			'an email with a space',
			emails(['maya patel@x.example']),
			'The field "Actor Emails → User Names or IDs" has "maya patel@x.example", which is not an email address',
		],
		[
			'an object as a text',
			events([{ a: 1 }]),
			'The field "Events → Texts" must be text, not an object',
		],
		[
			'a Match given null by an expression',
			types(['user'], null as unknown as string),
			'The field "Actor Types → Match" must be one of "anyOf" (Any of These), "allBut" (All but These), not null',
		],
		[
			'a Match it does not know',
			types(['user'], 'none'),
			'The field "Actor Types → Match" must be one of "anyOf" (Any of These), "allBut" (All but These), not "none"',
		],
	])('%s', (_, filters, message) => {
		expect(() => readFilters({ node }, filters)).toThrow(message);
	});

	it.each<[string, IDataObject, string]>([
		['Actor Emails given []', emails([]), 'Actor Emails → User Names or IDs'],
		['Actor Emails given ""', emails(''), 'Actor Emails → User Names or IDs'],
		['Actor Emails left out of its group', { actorEmails: {} }, 'Actor Emails → User Names or IDs'],
		['Actor Types given null', types(null), 'Actor Types → Types'],
		['Events given []', events([], 'allBut'), 'Events → Texts'],
	])('refuses a filter added whose values resolve to none: %s', (_, filters, label) => {
		expect(() => readFilters({ node }, filters)).toThrow(`The field "${label}" has no value`);
	});

	it('names the item, when there is one', () => {
		expect(() => readFilters({ node, itemIndex: 3 }, types(''))).toThrow(
			'The field "Actor Types → Types" has no value (item 3)',
		);
	});

	it('refuses only blanks as an empty value', () => {
		expect(() => readFilters({ node }, types('  '))).toThrow(
			'The field "Actor Types → Types" has an empty value (value 1)',
		);
	});

	it("reads no group it does not define (Audit Log → Get Many's Time Range)", () => {
		expect(readFilters({ node }, { timeRange: { since: 'x' } })).toEqual({});
	});
});

describe('holds: a value that is no text', () => {
	it.each<[string, unknown, boolean]>([
		['a number', 42, true],
		['a boolean', true, false],
		['an object whose toString is no function (off the spec)', { toString: false }, false],
		['an object', { a: '42' }, false],
		['nothing', undefined, false],
	])('%s: holds "4" only where it reads as text, and never throws', (_, value, expected) => {
		expect(holds('4', value)).toBe(expected);
	});
});
