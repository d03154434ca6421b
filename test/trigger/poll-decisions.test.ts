/**
 * The trigger's pure decisions (trigger/poll.ts), rule by rule: which entries pass the filters,
 * and which poll budget from n8n is used.
 */
import type { AuditLogEntry } from '../../nodes/DataIntegrationManagement/client/types';
import { entryFilter, usableBudget } from '../../nodes/DataIntegrationManagement/trigger/poll';

const entry = (fields: Record<string, unknown>) => fields as unknown as AuditLogEntry;
const MAYA = entry({
	event: 'Integration paused',
	actor: { type: 'user', email: 'maya.patel@northwind-data.example' },
});

describe('entryFilter', () => {
	const withoutActor = entry({ event: 'Integration paused' });

	it.each([
		['no filter', {}],
		['a part of the event, in another case', { eventContains: 'PAUSED' }],
		['a part of the event, with spaces around', { eventContains: '  paused ' }],
		['the email in another case', { actorEmail: 'Maya.Patel@Northwind-Data.example' }],
		['the email with spaces around', { actorEmail: ' maya.patel@northwind-data.example ' }],
		['the actor type in another case', { actorType: 'USER' }],
		['two filters, both matching', { eventContains: 'paused', actorType: 'user' }],
	])('lets the entry through for %s', (_, filters) => {
		expect(entryFilter(filters)(MAYA)).toBe(true);
	});

	it.each([
		['another event', { eventContains: 'resumed' }, MAYA],
		['a part of the email only', { actorEmail: 'maya.patel' }, MAYA],
		['another actor type', { actorType: 'system' }, MAYA],
		['two filters, one not matching', { eventContains: 'paused', actorType: 'system' }, MAYA],
		['an email, on an entry without actor', { actorEmail: 'maya@x.example' }, withoutActor],
		['a type, on an entry without actor', { actorType: 'user' }, withoutActor],
		['an event, on an entry without event', { eventContains: 'x' }, entry({})],
	])('holds the entry back for %s', (_, filters, candidate) => {
		expect(entryFilter(filters)(candidate)).toBe(false);
	});
});

describe('usableBudget', () => {
	it.each([
		[300_000, 300_000],
		[1, 1],
		[0, undefined],
		[-1, undefined],
		[Number.NaN, undefined],
		[Number.POSITIVE_INFINITY, undefined],
		['300000', undefined],
		[undefined, undefined],
	])('of %p is %p', (budget, used) => {
		expect(usableBudget(budget)).toBe(used);
	});
});
