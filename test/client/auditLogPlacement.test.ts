/**
 * Placing audit-log entries in time (client/auditLogPlacement.ts), rule by rule: an entry whose
 * timestamp cannot be read takes its instant from its readable neighbours. Pure: no HTTP.
 */
import {
	placeNewestFirst,
	placeOldestFirst,
	placeWaiting,
	type KeyedEntry,
	type Neighbours,
	type Placed,
} from '../../nodes/DataIntegrationManagement/client/auditLogPlacement';
import type { AuditLogEntry } from '../../nodes/DataIntegrationManagement/client/types';

const T0 = Date.parse('2026-11-01T00:00:00.000Z');
const at = (seconds: number) => T0 + seconds * 1000;
const ANSWERED_AT = at(100);
const u = undefined;

/** An entry read, its key `key:<id>`. */
const keyed = (id: string): KeyedEntry => ({ entry: { id } as AuditLogEntry, key: `key:${id}` });
/** Entries e0, e1, ... (their timestamps do not matter here: the instants are given). */
const items = (count: number): KeyedEntry[] =>
	Array.from({ length: count }, (_, i) => keyed(`e${i}`));
const waiting = (...ids: string[]) => ids.map(keyed);
/** Each placed entry as id@instant(earliest), "?" when its timestamp was unreadable. */
const shown = ({ placed }: Placed) =>
	placed.map(({ entry: { id }, key, instant, earliest, readable }) => {
		expect(key).toBe(`key:${id}`);
		return `${id}@${(instant - T0) / 1000}(${(earliest - T0) / 1000})${readable ? '' : '?'}`;
	});
const seconds = (instant: number | undefined) =>
	instant === undefined ? undefined : (instant - T0) / 1000;
const epoch = (instants: Array<number | undefined>) =>
	instants.map((s) => (s === undefined ? s : at(s)));

describe('oldest first: an unreadable entry waits for the next readable one', () => {
	test.each<
		[string, Neighbours, Array<number | undefined>, string[], number | undefined, string[]]
	>([
		// title, neighbours before, instants, placed, older instant after, waiting after
		['all readable', { waiting: [] }, [1, 2], ['e0@1(1)', 'e1@2(2)'], 2, []],
		['an empty page', { olderInstant: at(7), waiting: waiting('w') }, [], [], 7, ['w']],
		['the last waits', { waiting: [] }, [1, u], ['e0@1(1)'], 1, ['e1']],
		['between two readable', { waiting: [] }, [1, u, 3], ['e0@1(1)', 'e1@3(1)?', 'e2@3(3)'], 3, []],
		['placed once', { waiting: [] }, [u, 2, 3], ['e0@2(2)?', 'e1@2(2)', 'e2@3(3)'], 3, []],
		[
			'first, nothing older known',
			{ waiting: [] },
			[u, u, 3],
			['e0@3(3)?', 'e1@3(3)?', 'e2@3(3)'],
			3,
			[],
		],
		[
			'first, older known from the page before',
			{ olderInstant: at(1), waiting: [] },
			[u, 3],
			['e0@3(1)?', 'e1@3(3)'],
			3,
			[],
		],
		[
			'waiting from the page before',
			{ olderInstant: at(1), waiting: waiting('w') },
			[2],
			['w@2(1)?', 'e0@2(2)'],
			2,
			[],
		],
		[
			'nothing readable: all wait',
			{ olderInstant: at(1), waiting: waiting('w') },
			[u, u],
			[],
			1,
			['w', 'e0', 'e1'],
		],
	])('%s', (_, before, instants, placed, olderAfter, waitingAfter) => {
		const copy = { ...before, waiting: [...before.waiting] };
		const result = placeOldestFirst(before, items(instants.length), epoch(instants));
		expect(shown(result)).toStrictEqual(placed);
		expect(seconds(result.neighbours.olderInstant)).toBe(olderAfter);
		expect(result.neighbours.waiting.map(({ entry }) => entry.id)).toStrictEqual(waitingAfter);
		expect(before).toStrictEqual(copy);
	});
});

describe('newest first: an unreadable entry takes the readable instant before it', () => {
	test.each<[string, number | undefined, Array<number | undefined>, string[], number | undefined]>([
		// title, newer instant before, instants, placed, newer instant after (the answer came at 100 s)
		['all readable', u, [2, 1], ['e0@2(2)', 'e1@1(1)'], 1],
		['an empty page', 7, [], [], 7],
		['after a readable one', u, [5, u], ['e0@5(5)', 'e1@5(5)?'], 5],
		['between two readable', u, [5, u, 3], ['e0@5(5)', 'e1@5(3)?', 'e2@3(3)'], 3],
		[
			'two between two readable',
			u,
			[5, u, u, 3],
			['e0@5(5)', 'e1@5(3)?', 'e2@5(3)?', 'e3@3(3)'],
			3,
		],
		['first: at the present', u, [u, 3], ['e0@100(3)?', 'e1@3(3)'], 3],
		[
			'first, stamped past the present: at the newest',
			u,
			[u, 150, 3],
			['e0@150(150)?', 'e1@150(150)', 'e2@3(3)'],
			3,
		],
		['nothing readable: at the present', u, [u, u], ['e0@100(100)?', 'e1@100(100)?'], 100],
		['first, after the page before', 50, [u, 3], ['e0@50(3)?', 'e1@3(3)'], 3],
		['nothing readable, after the page before', 50, [u], ['e0@50(50)?'], 50],
	])('%s', (_, newerBefore, instants, placed, newerAfter) => {
		const before: Neighbours = { newerInstant: newerBefore && at(newerBefore), waiting: [] };
		const copy = { ...before, waiting: [...before.waiting] };
		const result = placeNewestFirst(before, items(instants.length), epoch(instants), ANSWERED_AT);
		expect(shown(result)).toStrictEqual(placed);
		expect(seconds(result.neighbours.newerInstant)).toBe(newerAfter);
		expect(before).toStrictEqual(copy);
	});
});

describe('at the end, the entries still waiting are the newest', () => {
	test.each<[string, Neighbours, string[]]>([
		// title, neighbours (the answer came at 100 s), placed
		['none waits', { olderInstant: at(5), waiting: [] }, []],
		[
			'nothing older known: at the present',
			{ waiting: waiting('a', 'b') },
			['a@100(100)?', 'b@100(100)?'],
		],
		[
			'after an older one: at the present',
			{ olderInstant: at(5), waiting: waiting('a') },
			['a@100(5)?'],
		],
		[
			'after one stamped past the present: there',
			{ olderInstant: at(150), waiting: waiting('a') },
			['a@150(150)?'],
		],
	])('%s', (_, before, placed) => {
		const result = placeWaiting(before, ANSWERED_AT);
		expect(shown(result)).toStrictEqual(placed);
		expect(result.neighbours.waiting).toStrictEqual([]);
		expect(result.neighbours.olderInstant).toBe(before.olderInstant);
	});
});
