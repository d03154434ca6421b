import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { limitField, returnAllField } from '../../shared/descriptions';
import { checkCollection, fieldError } from '../../shared/checks';
import { entryFilter, filtersField, readFilters } from '../../shared/filters';
import { parseInstant, toUtcIso } from '../../shared/timestamps';
import { originOf, readParameter, refuseNoValue } from '../readers';
import { scanAuditLogInOrder } from '../../client/auditLog';
import type { SortOrder } from '../../client/types';
import type { Advice } from '../toolAnswer';
import type { Execute } from '../operation';

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

const rangeFields: INodeProperties[] = [
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
];

/** The trigger's filters (../../shared/filters.ts), and Time Range, this operation's own. */
const filters = filtersField('Only the entries that pass every filter added', [
	{ displayName: 'Time Range', name: 'timeRange', values: rangeFields },
]);

/** Only reads: runs under a read-only credential too. */
export const changesData = false;

export const properties: INodeProperties[] = [returnAllField, limitField, filters];

export const optionFields = [outputField, sortDirectionField];

/** What is set for an item, checked before any request: how to read, and what to keep. */
function readSettings(this: IExecuteFunctions, itemIndex: number) {
	const origin = originOf(this, itemIndex);
	const option = (field: INodeProperties) =>
		readParameter.call(this, itemIndex, field, `options.${field.name}`) as string;
	const given = this.getNodeParameter('filters', itemIndex, {});
	const matches = entryFilter(readFilters(origin, given));
	const range = { ...filters, displayName: 'Time Range', options: rangeFields };
	const { timeRange } = given as IDataObject;
	refuseNoValue.call(this, origin, rangeFields, timeRange, { under: 'Time Range → ' });
	const { since, until } = checkCollection(origin, range, timeRange ?? {});
	if (since && until && parseInstant(since)! >= parseInstant(until)!)
		throw fieldError(
			origin,
			'Time Range → Until',
			`must be later than Since (${since}), not ${until}`,
		);
	const sortOrder = option(sortDirectionField) as SortOrder;
	return { matches, since, until, output: option(outputField), sortOrder };
}

/**
 * In the tool form, an answer cut gives the entries up to the last one given: newest first,
 * Until (exclusive) just after it; oldest first, Since (inclusive) at it. The entries at that
 * instant come again rather than be missed. Cut by Limit with every entry given at one instant,
 * only a higher Limit helps. Cut by size once that bound is set: Output Compact; in Compact, the
 * bound past that instant (the entries left out at it, or a first entry too large alone, only the
 * node outside a tool gives), while some range is left.
 */
export function narrowWith(this: IExecuteFunctions, itemIndex: number): Advice {
	const { sortOrder, output, since, until } = readSettings.call(this, itemIndex);
	const desc = sortOrder === 'desc';
	const [name, set, other] = desc ? ['Until', until, since] : ['Since', since, until];
	/** The bound that gives the entries after the one at `instant`, taking it (`again`) or not. */
	const after = (instant: number | undefined, again: boolean) =>
		instant === undefined ? set : toUtcIso(instant + (desc === again ? 1 : 0));
	const bound = (value: unknown) => `set Filters → Time Range → ${name} to ${value}`;
	/** Whether a bound at `value` (UTC ISO, as `other`) leaves a range: an empty one is refused. */
	const leavesRange = (value: string) =>
		!other || (desc ? value > String(other) : value < String(other));
	return (items, given, cutBy) => {
		const instants = items
			.slice(0, given)
			.map(({ timestamp }) => parseInstant(timestamp))
			.filter((instant) => instant !== undefined);
		const value = after(instants[instants.length - 1], true);
		if (cutBy === 'limit') return new Set(instants).size > 1 ? bound(value) : undefined;
		if (value !== set) return bound(value);
		// Both where both help: Options → Output may be fixed by the workflow, out of a model's reach.
		const compact = output !== 'compact' ? 'set Options → Output to Compact' : undefined;
		const at = parseInstant((given ? items[given - 1] : items[0])?.timestamp);
		const past = after(at, false);
		if (past === set || !leavesRange(String(past))) return compact;
		const left = given
			? `the entries at ${toUtcIso(at!)}, more than an answer holds`
			: 'the first entry, which is larger than an answer alone';
		const skip = `${bound(past)}, past ${left} (outside a tool the node gives them)`;
		return compact ? `${compact}, or ${skip}` : skip;
	};
}

export const execute: Execute = async function (itemIndex, pacer, { limit }) {
	const { matches, since, until, output, sortOrder } = readSettings.call(this, itemIndex);
	const { entries } = await scanAuditLogInOrder.call(
		this,
		{ sortOrder, startTime: parseInstant(since), endTime: parseInstant(until), pacer },
		limit,
		matches,
	);
	if (output !== 'compact') return entries.map(({ entry }) => entry);
	return entries.map(({ entry }) => ({
		id: entry.id,
		timestamp: entry.timestamp,
		event: entry.event,
		actorEmail: entry.actor?.email,
	}));
};
