/**
 * Unit tests of the trigger's pure cursor logic (trigger/cursor.ts), fed with pages the way a poll
 * feeds them: the log sorted by instant (equal instants in insertion order, as the API sorts),
 * from the scan's horizon on, in pages of 100.
 */
import {
	auditEntryKey,
	type PlacedEntry,
} from '../../nodes/DataIntegrationManagement/client/auditLog';
import type { AuditLogEntry } from '../../nodes/DataIntegrationManagement/client/types';
import {
	CursorScan,
	initialState,
	restoreState,
	type CursorState,
	type ScanSettings,
} from '../../nodes/DataIntegrationManagement/trigger/cursor';

const T0 = Date.parse('2026-11-01T00:00:00.000Z');
const SECOND = 1000;
const ORIGIN = 'date:2026-11-01T00:00:00.000Z';

let counter = 0;
function entry(timestamp: number | string, event = 'Test event'): AuditLogEntry {
	counter++;
	return {
		id: `e${String(counter).padStart(5, '0')}`,
		timestamp: typeof timestamp === 'number' ? new Date(timestamp).toISOString() : timestamp,
		event,
		actor: { type: 'user', email: 'maya.patel@northwind-data.example' },
		context: { ipAddress: '10.0.0.1', userAgent: 'jest' },
	};
}

/** `count` entries, `stepMs` apart from `from` on (0: all share one timestamp). */
function entries(count: number, from: number, stepMs: number): AuditLogEntry[] {
	return Array.from({ length: count }, (_, i) => entry(from + i * stepMs));
}

const settings = (overrides: Partial<ScanSettings> = {}): ScanSettings => ({
	lookbackMs: 60 * SECOND,
	maxEmitted: 1000,
	matches: () => true,
	...overrides,
});

/** When the service answered: after every entry of these tests. */
const ANSWERED_AT = Date.now();

/** A page as the reader hands it over: each entry with its instant. */
function read(page: AuditLogEntry[]): PlacedEntry[] {
	return page.map((item) => {
		const instant = Date.parse(item.timestamp);
		return { entry: item, key: auditEntryKey(item), instant, earliest: instant, readable: true };
	});
}

/** The API's answer to startTime=`from`, sortOrder=asc, split into pages of 100. */
function pagesFrom(log: AuditLogEntry[], from: number): AuditLogEntry[][] {
	const sorted = log
		.map((item, position) => ({ item, position, instant: Date.parse(item.timestamp) }))
		.filter(({ instant }) => instant >= from)
		.sort((a, b) => a.instant - b.instant || a.position - b.position)
		.map(({ item }) => item);
	const pages: AuditLogEntry[][] = [];
	for (let offset = 0; offset < sorted.length; offset += 100)
		pages.push(sorted.slice(offset, offset + 100));
	return pages.length ? pages : [[]];
}

interface PollOutcome {
	ids: string[];
	state: CursorState;
	pagesRead: number;
	from: string;
}

/** One poll: scan the log from the state's horizon, then store the state as JSON, as n8n does. */
function poll(
	state: CursorState,
	log: AuditLogEntry[],
	options: Partial<ScanSettings> = {},
): PollOutcome {
	const scan = new CursorScan(state, settings(options));
	const from = scan.horizon;
	let pagesRead = 0;
	for (const page of pagesFrom(log, from)) {
		pagesRead++;
		if (!scan.absorb(read(page), ANSWERED_AT)) break;
	}
	const stored = JSON.parse(JSON.stringify(scan.nextState(state.origin))) as unknown;
	const restored = restoreState(stored, state.origin);
	if (!restored) throw new Error('the stored state did not restore');
	return {
		ids: scan.emitted.map((item) => item.id),
		state: restored,
		pagesRead,
		from: new Date(from).toISOString(),
	};
}

/** Polls until a poll emits nothing; returns every emitted id in order. */
function drain(state: CursorState, log: AuditLogEntry[], options: Partial<ScanSettings> = {}) {
	const ids: string[] = [];
	const polls: string[][] = [];
	for (let i = 0; i < 1000; i++) {
		const outcome = poll(state, log, options);
		state = outcome.state;
		if (outcome.ids.length === 0) return { ids, polls, state };
		ids.push(...outcome.ids);
		polls.push(outcome.ids);
	}
	throw new Error('the log never drained');
}

const idsOf = (items: AuditLogEntry[]) => items.map((item) => item.id);
const keysOf = (items: AuditLogEntry[]) => items.map(auditEntryKey);

describe('initialState', () => {
	it('starts floor and cursor at the start, as UTC ISO, with nothing remembered', () => {
		expect(initialState('now', T0 + 1234)).toEqual({
			origin: 'now',
			floor: '2026-11-01T00:00:01.234Z',
			cursor: '2026-11-01T00:00:01.234Z',
			seen: {},
		});
	});
});

describe('restoreState', () => {
	const good: CursorState = {
		origin: ORIGIN,
		floor: '2026-11-01T00:00:00.000Z',
		cursor: '2026-11-01T00:05:00.000Z',
		seen: { a: T0 + 300 * SECOND },
	};

	it('gives back a state it wrote, after a JSON round trip', () => {
		expect(restoreState(JSON.parse(JSON.stringify(good)), ORIGIN)).toEqual(good);
	});

	it('rejects a state written for another start, so a new start resets the cursor', () => {
		expect(restoreState(good, 'now')).toBeUndefined();
		expect(restoreState(good, 'date:2026-11-02T00:00:00.000Z')).toBeUndefined();
	});

	it.each([
		['nothing', undefined],
		['a string', 'cursor'],
		['a bad floor', { ...good, floor: 'yesterday' }],
		['a missing cursor', { ...good, cursor: undefined }],
		['seen as an array', { ...good, seen: ['a'] }],
		['seen with a non-number', { ...good, seen: { a: '2026-11-01T00:00:00Z' } }],
		['seen as null', { ...good, seen: null }],
		['seen as a number', { ...good, seen: 5 }],
		['seen with one non-number among numbers', { ...good, seen: { a: T0, b: 'x' } }],
		['null', null],
	])('rejects %s', (_name, stored) => {
		expect(restoreState(stored, ORIGIN)).toBeUndefined();
	});
});

describe('CursorScan', () => {
	it('emits every entry once, in order, when more than a page shares one timestamp', () => {
		const log = [
			...entries(3, T0, SECOND),
			...entries(250, T0 + 10 * SECOND, 0),
			...entries(3, T0 + 11 * SECOND, 1),
		];
		const first = poll(initialState(ORIGIN, T0), log);
		expect(first.ids).toEqual(idsOf(log));
		expect(first.pagesRead).toBe(3);
		expect(first.state.cursor).toBe('2026-11-01T00:00:11.002Z');
		// The ids at the shared timestamp are inside the window, so a second read drops them all.
		expect(poll(first.state, log).ids).toEqual([]);
	});

	it('with lookback 0 remembers the ids at the boundary timestamp, across page edges', () => {
		const log = entries(230, T0 + SECOND, 0);
		const first = poll(initialState(ORIGIN, T0), log, { lookbackMs: 0, maxEmitted: 150 });
		expect(first.ids).toEqual(idsOf(log.slice(0, 150)));
		expect(Object.keys(first.state.seen)).toHaveLength(150);
		const second = poll(first.state, log, { lookbackMs: 0, maxEmitted: 150 });
		expect(second.from).toBe('2026-11-01T00:00:01.000Z');
		expect(second.ids).toEqual(idsOf(log.slice(150)));
		expect(poll(second.state, log, { lookbackMs: 0 }).ids).toEqual([]);
	});

	it('stops at the cap in the middle of a page and carries on from there, in order', () => {
		const log = entries(250, T0, SECOND);
		const scan = new CursorScan(initialState(ORIGIN, T0), settings({ maxEmitted: 30 }));
		expect(scan.absorb(read(pagesFrom(log, T0)[0]), ANSWERED_AT)).toBe(false);
		expect(idsOf(scan.emitted)).toEqual(idsOf(log.slice(0, 30)));
		expect(scan.nextState(ORIGIN).cursor).toBe(log[29].timestamp);

		const { ids, polls } = drain(initialState(ORIGIN, T0), log, { maxEmitted: 30 });
		expect(ids).toEqual(idsOf(log));
		expect(polls.map((batch) => batch.length)).toEqual([30, 30, 30, 30, 30, 30, 30, 30, 10]);
	});

	it('stops at the cap inside a group of equal timestamps and emits the rest of the group next', () => {
		const log = [
			...entries(5, T0, SECOND),
			...entries(40, T0 + 10 * SECOND, 0),
			...entries(5, T0 + 20 * SECOND, SECOND),
		];
		const { polls, ids } = drain(initialState(ORIGIN, T0), log, { maxEmitted: 25, lookbackMs: 0 });
		expect(polls.map((batch) => batch.length)).toEqual([25, 25]);
		expect(ids).toEqual(idsOf(log));
	});

	it('reads the lookback window again and drops what it already processed', () => {
		const log = entries(10, T0, 10 * SECOND); // T0 .. T0+90s
		const first = poll(initialState(ORIGIN, T0), log, { lookbackMs: 30 * SECOND });
		expect(first.ids).toHaveLength(10);
		const second = poll(first.state, log, { lookbackMs: 30 * SECOND });
		expect(second.from).toBe('2026-11-01T00:01:00.000Z'); // cursor 00:01:30 less 30 s
		expect(second.ids).toEqual([]);
		// Only the ids inside the window are remembered.
		expect(Object.keys(second.state.seen).sort()).toEqual(keysOf(log.slice(6)).sort());
	});

	it('takes nothing older than its horizon from a service that ignores the time bounds', () => {
		const log = entries(6, T0 - 3 * SECOND, SECOND);
		const scan = new CursorScan(initialState(ORIGIN, T0), settings());
		scan.absorb(read(log), ANSWERED_AT);
		expect(idsOf(scan.emitted)).toEqual(idsOf(log.slice(3)));
	});

	it('emits a late entry inside the window once, and not one older than the window', () => {
		const log = entries(10, T0, 10 * SECOND);
		let state = poll(initialState(ORIGIN, T0), log, { lookbackMs: 30 * SECOND }).state;
		const inside = entry(T0 + 65 * SECOND); // newest is T0+90s: 25 s behind
		const atEdge = entry(T0 + 60 * SECOND); // exactly 30 s behind
		const outside = entry(T0 + 59 * SECOND); // 31 s behind
		log.push(inside, atEdge, outside);
		const second = poll(state, log, { lookbackMs: 30 * SECOND });
		expect(second.ids).toEqual([atEdge.id, inside.id]);
		state = second.state;
		expect(poll(state, log, { lookbackMs: 30 * SECOND }).ids).toEqual([]);
	});

	it('never emits entries before the floor', () => {
		const log = [...entries(5, T0 - 5 * SECOND, SECOND), ...entries(3, T0, SECOND)];
		const first = poll(initialState(ORIGIN, T0), log, { lookbackMs: 120 * SECOND });
		expect(first.from).toBe('2026-11-01T00:00:00.000Z');
		expect(first.ids).toEqual(idsOf(log.slice(5)));
	});

	it('skips entries the filters reject, but they still move the cursor and are not read as new later', () => {
		const log = [
			entry(T0, 'Integration paused'),
			entry(T0 + SECOND, 'Tag created'),
			entry(T0 + 2 * SECOND, 'Tag edited'),
		];
		const matches = (item: AuditLogEntry) => item.event.includes('paused');
		const first = poll(initialState(ORIGIN, T0), log, { matches });
		expect(first.ids).toEqual([log[0].id]);
		expect(first.state.cursor).toBe(log[2].timestamp);
		expect(Object.keys(first.state.seen).sort()).toEqual(keysOf(log).sort());
		// With the filter removed, the skipped entries still count as processed.
		expect(poll(first.state, log).ids).toEqual([]);
	});

	it('keeps the state as small as the window, whatever the backlog', () => {
		const log = entries(5000, T0, SECOND);
		let state = initialState(ORIGIN, T0);
		let emitted = 0;
		for (let i = 0; i < 10; i++) {
			const outcome = poll(state, log, { maxEmitted: 500, lookbackMs: 60 * SECOND });
			emitted += outcome.ids.length;
			state = outcome.state;
			// At most the 61 entries from cursor-60s to the cursor, one a second.
			expect(Object.keys(state.seen).length).toBeLessThanOrEqual(61);
			const floor = Date.parse(state.floor);
			expect(Object.values(state.seen).every((instant) => instant >= floor)).toBe(true);
			expect(floor).toBe(Math.max(T0, Date.parse(state.cursor) - 60 * SECOND));
		}
		expect(emitted).toBe(5000);
		expect(JSON.stringify(state).length).toBeLessThan(4000);
	});

	it('compares timestamps as instants: offsets, no milliseconds, and sub-millisecond digits', () => {
		const log = [
			entry('2026-11-01T02:00:05+02:00'), // 00:00:05Z
			entry('2026-11-01T00:00:03Z'),
			entry('2026-10-31T19:00:04.000-05:00'), // 00:00:04Z
			entry('2026-11-01T00:00:05.000Z'), // same instant as the first
			entry('2026-11-01T00:00:06.123456Z'),
		];
		const first = poll(initialState(ORIGIN, T0), log);
		expect(first.ids).toEqual([log[1].id, log[2].id, log[0].id, log[3].id, log[4].id]);
		expect(first.state.cursor).toBe('2026-11-01T00:00:06.123Z');
		// The same instants written another way are still recognised as processed.
		expect(poll(first.state, log).ids).toEqual([]);
		const second = poll(first.state, log, { lookbackMs: 2 * SECOND });
		expect(second.from).toBe('2026-11-01T00:00:04.123Z');
		expect(second.ids).toEqual([]);
	});

	it('does not emit again what a larger lookback reaches back to after a smaller one forgot it', () => {
		const log = entries(100, T0, SECOND);
		const first = poll(initialState(ORIGIN, T0), log, { lookbackMs: 10 * SECOND });
		expect(first.ids).toHaveLength(100);
		expect(Object.keys(first.state.seen)).toHaveLength(11);
		const wider = poll(first.state, log, { lookbackMs: 120 * SECOND });
		expect(wider.from).toBe(first.state.floor);
		expect(wider.ids).toEqual([]);
		// A late entry inside the old window is still caught under the new one.
		log.push(entry(T0 + 95 * SECOND));
		expect(poll(wider.state, log, { lookbackMs: 120 * SECOND }).ids).toEqual([log[100].id]);
	});

	it('a scan ended where the pages shifted: the next poll finds the late entry and the rest', () => {
		const log = entries(150, T0, SECOND);
		const scan = new CursorScan(initialState(ORIGIN, T0), settings({ lookbackMs: 10 * SECOND }));
		const [page1] = pagesFrom(log, T0);
		expect(scan.absorb(read(page1), ANSWERED_AT)).toBe(true);
		// An entry appeared before the read position: the next page starts one entry earlier, which
		// the scan sees (client/auditLogStep.ts, shiftedByOffset) and ends before taking it in.
		const late = entry(T0 + 95 * SECOND); // inside the window: the cursor is at T0+99s
		log.push(late);
		expect(pagesFrom(log, T0)[1][0].id).toBe(page1[99].id);
		expect(scan.emitted).toHaveLength(100);
		const state = JSON.parse(JSON.stringify(scan.nextState(ORIGIN))) as CursorState;
		expect(state.cursor).toBe(page1[99].timestamp);
		// The next poll finds the late entry inside the window, and the rest after it.
		const next = poll(state, log, { lookbackMs: 10 * SECOND });
		expect(next.ids).toEqual([late.id, ...idsOf(log.slice(100, 150))]);
	});

	it('moves the cursor no further than what is settled (paged by time), and remembers what it took past it', () => {
		const log = entries(5, T0, 10 * SECOND);
		const state = initialState('date:x', T0);
		const scan = new CursorScan(state, settings({ lookbackMs: 5 * SECOND }));
		// Settled up to the third entry: the later two are emitted, not passed by the cursor.
		expect(scan.absorb(read(log), ANSWERED_AT, T0 + 20 * SECOND)).toBe(true);
		const next = scan.nextState(state.origin);
		expect(idsOf(scan.emitted)).toEqual(idsOf(log));
		expect(next.cursor).toBe(new Date(T0 + 20 * SECOND).toISOString());
		expect(Object.keys(next.seen).sort()).toEqual(keysOf(log.slice(2)).sort());
		// The next poll reads from the cursor less the lookback, and emits none of them again.
		const again = poll(restoreState(JSON.parse(JSON.stringify(next)), 'date:x')!, log);
		expect(again.from).toBe(new Date(T0 + 15 * SECOND).toISOString());
		expect(again.ids).toEqual([]);
	});

	it('remembers an entry without a readable timestamp while entries stamped ahead of the present place it there', () => {
		// The service's present moves on a second between polls; entries stamped a year ahead of it
		// are its newer neighbours, so it is placed among them, ahead of every window.
		const present = T0 + 3600 * SECOND;
		const ahead = present + 365 * 86400 * SECOND;
		const unreadable = entry('yesterday, around noon');
		const placed = (instant: number): PlacedEntry => ({
			entry: unreadable,
			key: auditEntryKey(unreadable),
			instant,
			earliest: instant,
			readable: false,
		});
		const scanned = (state: CursorState, page: PlacedEntry[], answeredAt: number) => {
			const scan = new CursorScan(state, settings({ lookbackMs: 0 }));
			scan.absorb(page, answeredAt);
			return { ids: idsOf(scan.emitted), state: scan.nextState(ORIGIN) };
		};
		const [first, second] = [entry(ahead), entry(ahead)];

		// Newest in the log, it is placed at the present; then entries stamped ahead of it follow.
		const one = scanned(initialState(ORIGIN, T0), [placed(present)], present);
		const two = scanned(one.state, [...read([first]), placed(ahead)], present);
		const three = scanned(two.state, [...read([first, second]), placed(ahead)], present + SECOND);
		const four = scanned(three.state, [...read([first, second]), placed(ahead)], present + SECOND);

		expect([...one.ids, ...two.ids, ...three.ids, ...four.ids]).toEqual([
			unreadable.id,
			first.id,
			second.id,
		]);
	});
});

describe('auditEntryKey: what identifies an entry', () => {
	const entry = {
		id: '3f1c2a9e-0000-4000-8000-000000000001',
		timestamp: '2026-11-01T10:00:00.000Z',
		event: 'Integration paused',
		actor: { type: 'user', email: 'maya.patel@northwind-data.example' },
		context: { ipAddress: '10.0.0.1', userAgent: 'trace-1' },
	};

	it.each([
		['a field the spec does not name added', { ...entry, region: 'eu-west-1' }],
		['its fields in another order', Object.fromEntries(Object.entries(entry).reverse())],
		['the timestamp without milliseconds', { ...entry, timestamp: '2026-11-01T10:00:00Z' }],
		['the timestamp with +00:00', { ...entry, timestamp: '2026-11-01T10:00:00+00:00' }],
		['the timestamp in another zone', { ...entry, timestamp: '2026-11-01T12:00:00.000+02:00' }],
		['a nested field added', { ...entry, actor: { ...entry.actor, name: 'Maya' } }],
	])('is unchanged with %s', (_, variant) => {
		expect(auditEntryKey(variant as unknown as AuditLogEntry)).toBe(
			auditEntryKey(entry as AuditLogEntry),
		);
	});

	it.each([
		['another id', { ...entry, id: '3f1c2a9e-0000-4000-8000-000000000002' }],
		['the same id at another instant', { ...entry, timestamp: '2026-11-01T10:00:00.001Z' }],
		['the same id with another event', { ...entry, event: 'Integration resumed' }],
		['the same id by another actor', { ...entry, actor: { ...entry.actor, type: 'api_key' } }],
		[
			'the same id from another user agent',
			{ ...entry, context: { ...entry.context, userAgent: 'x' } },
		],
		['no id', { ...entry, id: undefined }],
		['the same id by another email', { ...entry, actor: { ...entry.actor, email: 'x@y.z' } }],
		[
			'the same id from another address',
			{ ...entry, context: { ...entry.context, ipAddress: 'x' } },
		],
	])('tells apart %s', (_, variant) => {
		expect(auditEntryKey(variant as unknown as AuditLogEntry)).not.toBe(
			auditEntryKey(entry as AuditLogEntry),
		);
	});

	it('puts the id first, before a "#", so a stored key shows its entry', () => {
		expect(auditEntryKey(entry as AuditLogEntry)).toMatch(new RegExp(`^${entry.id}#`));
	});

	it.each([
		['every identifying field', entry, 'HF8RSbRYURD'],
		['an object for an event', { ...entry, event: { code: 7, name: 'paused' } }, 'XhwAeANK66v'],
		[
			'no actor and no context',
			{ id: entry.id, timestamp: entry.timestamp, event: entry.event },
			'PZL1IVXRtrB',
		],
	])(
		'stays the key cursors already hold, with %s: a changed key would emit their entries again',
		(_, variant, digest) => {
			expect(auditEntryKey(variant as unknown as AuditLogEntry)).toBe(`${entry.id}#${digest}`);
		},
	);

	it('puts a numeric id first too', () => {
		expect(auditEntryKey({ ...entry, id: 7 } as unknown as AuditLogEntry)).toMatch(/^7#/);
	});

	it('takes null in an identifying field', () => {
		expect(auditEntryKey({ ...entry, event: null } as unknown as AuditLogEntry)).toMatch(/#/);
	});

	it('leaves an id that is neither a string nor a number out of the part before the "#"', () => {
		expect(auditEntryKey({ ...entry, id: { value: 1 } } as unknown as AuditLogEntry)).toMatch(/^#/);
	});

	it('is the same for an unnamed object in an identifying field, whatever the order of its keys', () => {
		const event = (value: unknown) => ({ ...entry, event: value }) as unknown as AuditLogEntry;
		expect(auditEntryKey(event({ code: 7, name: 'paused' }))).toBe(
			auditEntryKey(event({ name: 'paused', code: 7 })),
		);
		expect(auditEntryKey(event({ code: 7 }))).not.toBe(auditEntryKey(event({ code: 8 })));
	});
});
