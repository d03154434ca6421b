import type { INodeParameters } from 'n8n-workflow';

import type { AuditLogEntry } from '../../nodes/DataIntegrationManagement/client/types';

import { SEED } from '../emulator';
import { onRequestArrival, useEmulator } from '../helpers/emulator';
import { runActionNode } from '../helpers/n8n';
import { sent } from './support';

const { emulator, credentials } = useEmulator();

const run = (parameters: INodeParameters) =>
	runActionNode({
		credentials: credentials(),
		parameters: { resource: 'auditLog', operation: 'getAll', ...parameters },
	});

const pageQuery = (offset: number, extra: Record<string, string> = {}) => ({
	limit: '100',
	offset: String(offset),
	sortBy: 'timestamp',
	sortOrder: 'desc',
	...extra,
});

describe('auditLog getAll', () => {
	it('pages by 100 with offsets and stops at totalItems, newest first by default', async () => {
		const result = await run({ returnAll: true });

		expect(sent(emulator())).toEqual(
			[0, 100, 200].map((offset) => ({
				method: 'GET',
				path: '/audit-logs',
				query: pageQuery(offset),
				body: undefined,
			})),
		);
		expect(result.items).toHaveLength(SEED.audit.count);
		const times = result.items.map((item) => Date.parse(item.json.timestamp as string));
		expect(times).toEqual([...times].sort((a, b) => b - a));
		expect(new Set(result.items.map((item) => item.json.id)).size).toBe(SEED.audit.count);
		expect(result.items.every((item) => (item.pairedItem as { item: number }).item === 0)).toBe(
			true,
		);
	});

	it('returns each entry once when an entry logged during the read shifts the pages', async () => {
		// Logged when the second page is asked for: newest first, that page starts with the last
		// entry of the first page again.
		const unhook = onRequestArrival(emulator(), (_, arrived) => {
			if (arrived === 2) {
				emulator().addAuditEntries([
					{ timestamp: new Date().toISOString(), event: 'Logged meanwhile' },
				]);
			}
		});
		let result: Awaited<ReturnType<typeof run>>;
		try {
			result = await run({ returnAll: true });
		} finally {
			unhook();
		}

		const ids = result.items.map((item) => item.json.id);
		expect(ids).toHaveLength(SEED.audit.count);
		expect(new Set(ids).size).toBe(SEED.audit.count);
	});

	it('puts back in its place an entry that pages shifted under the read brought out of order', async () => {
		// 250 entries a minute apart. While the second page is asked for, one entry is logged now and
		// one back-dated half a minute after the 100th newest: the second page (newest first) then
		// starts with the back-dated entry, newer than the first page's last.
		emulator().reset({ seed: false });
		const minute = (index: number) => new Date(Date.UTC(2026, 9, 1, 0, index)).toISOString();
		emulator().addAuditEntries(Array.from({ length: 250 }, (_, i) => ({ timestamp: minute(i) })));
		const backDated = new Date(Date.parse(minute(150)) + 30_000).toISOString();
		const unhook = onRequestArrival(emulator(), (_, arrived) => {
			if (arrived !== 2) return;
			emulator().addAuditEntries([
				{ timestamp: new Date().toISOString(), event: 'Logged now' },
				{ timestamp: backDated, event: 'Logged back-dated' },
			]);
		});
		let result: Awaited<ReturnType<typeof run>>;
		try {
			result = await run({ returnAll: true });
		} finally {
			unhook();
		}

		const times = result.items.map((item) => item.json.timestamp as string);
		expect(times).toHaveLength(251);
		expect(times.indexOf(backDated)).toBe(99);
		expect(times).toEqual([...times].sort().reverse());
	});

	it.each([
		['asc', ['first', 'second', 'third']],
		['desc', ['third', 'second', 'first']],
	])(
		'keeps entries of one instant in the order the service gives them (Sort Direction %s)',
		async (sortDirection, events) => {
			emulator().reset({ seed: false });
			const instant = new Date(Date.UTC(2026, 9, 1)).toISOString();
			emulator().addAuditEntries(
				['first', 'second', 'third'].map((event) => ({ timestamp: instant, event })),
			);

			const result = await run({ returnAll: true, options: { sortDirection } });

			expect(result.items.map((item) => item.json.event)).toEqual(events);
		},
	);

	it('sorts oldest first with Sort Direction asc', async () => {
		const result = await run({ returnAll: false, limit: 5, options: { sortDirection: 'asc' } });

		expect(sent(emulator())).toEqual([
			{
				method: 'GET',
				path: '/audit-logs',
				// Pages no larger than Limit.
				query: pageQuery(0, { sortOrder: 'asc', limit: '5' }),
				body: undefined,
			},
		]);
		const oldest = emulator().store.queryAuditLog({ limit: 5, offset: 0, sortOrder: 'asc' }).items;
		expect(result.items.map((item) => item.json)).toEqual(oldest);
	});

	it('asks first for 2 entries with Limit 1 (enough to show the order), then for full pages', async () => {
		const result = await run({ returnAll: false, limit: 1 });

		expect(emulator().requests[0].query.limit).toBe('2');
		expect(
			emulator()
				.requests.slice(1)
				.every(({ query }) => query.limit === '100'),
		).toBe(true);
		expect(result.items).toHaveLength(1);
	});

	it('stops reading pages once Limit entries are in', async () => {
		const result = await run({ returnAll: false, limit: 150 });

		expect(emulator().requests.map(({ query }) => [query.offset, query.limit])).toEqual([
			['0', '100'],
			['100', '100'],
		]);
		expect(result.items).toHaveLength(150);
	});

	it('reads one page only when totalItems is exactly one page', async () => {
		emulator().reset({ seed: false });
		emulator().addAuditEntries(
			Array.from({ length: 100 }, (_, i) => ({
				timestamp: new Date(Date.UTC(2026, 9, 1, 0, i)).toISOString(),
			})),
		);

		const result = await run({ returnAll: true });

		expect(emulator().requests).toHaveLength(1);
		expect(result.items).toHaveLength(100);
	});

	it('returns nothing, with one request, from an empty log', async () => {
		emulator().reset({ seed: false });

		const result = await run({ returnAll: true });

		expect(emulator().requests).toHaveLength(1);
		expect(result.items).toEqual([]);
	});

	describe("Filters: the trigger's, applied to what the service returns", () => {
		const seeded = () =>
			emulator().store.queryAuditLog({ limit: 1000, offset: 0, sortOrder: 'desc' }).items;

		it.each<[string, INodeParameters, (entry: AuditLogEntry) => boolean]>([
			[
				'Actor Emails, any case',
				{ actorEmails: { emails: ['MAYA.patel@northwind-data.example'] } },
				(entry) => entry.actor.email === 'maya.patel@northwind-data.example',
			],
			[
				'Actor Types given as one text, separated by commas',
				{ actorTypes: { types: 'user, api_key' } },
				(entry) => entry.actor.type !== 'system',
			],
			[
				'Events, All but These',
				{ events: { texts: ['sync'], match: 'allBut' } },
				(entry) => !/sync/i.test(entry.event),
			],
			[
				'two filters and a Time Range',
				{
					actorTypes: { types: ['system'] },
					events: { texts: ['failed'] },
					timeRange: { since: '2026-10-15T00:00:00Z' },
				},
				(entry) =>
					entry.actor.type === 'system' &&
					entry.event.includes('failed') &&
					Date.parse(entry.timestamp) >= Date.parse('2026-10-15T00:00:00Z'),
			],
		])('keeps only the entries that pass: %s', async (_label, filters, passes) => {
			const result = await run({ returnAll: true, filters });
			const expected = seeded().filter(passes);

			expect(expected.length).toBeGreaterThan(0);
			expect(expected.length).toBeLessThan(SEED.audit.count);
			expect(result.items.map(({ json }) => json)).toEqual(expected);
		});

		it('reads on until Limit entries pass, and stops there', async () => {
			const result = await run({
				returnAll: false,
				limit: 3,
				filters: { events: { texts: ['Integration paused'] } },
			});

			expect(result.items.map(({ json }) => json)).toEqual(
				seeded()
					.filter(({ event }) => event === 'Integration paused')
					.slice(0, 3),
			);
			expect(emulator().requests.length).toBeLessThan(4);
		});

		it.each([
			[
				'an expression giving ""',
				{ actorEmails: { emails: '={{ $json.who }}' } },
				'Actor Emails → User Names or IDs',
			],
			['[]', { events: { texts: [] } }, 'Events → Texts'],
		])(
			'refuses a filter added whose values are none (%s), naming the field and the item, before any request',
			async (_label, filters, label) => {
				const result = await runActionNode({
					credentials: credentials(),
					parameters: { resource: 'auditLog', operation: 'getAll', returnAll: true, filters },
					items: [{ who: '' }],
				});

				expect(result.error?.message).toBe(`The field "${label}" has no value (item 0)`);
				expect(emulator().requests).toHaveLength(0);
			},
		);
	});

	it('keeps entries at Since and drops entries at Until', async () => {
		emulator().reset({ seed: false });
		const [, atSince, inside, atUntil] = emulator().addAuditEntries([
			{ timestamp: '2026-10-05T09:59:59.999Z', event: 'before' },
			{ timestamp: '2026-10-05T10:00:00.000Z', event: 'at since' },
			{ timestamp: '2026-10-05T11:00:00Z', event: 'inside' },
			{ timestamp: '2026-10-05T12:00:00.000Z', event: 'at until' },
		]);

		const result = await run({
			returnAll: true,
			filters: { timeRange: { since: '2026-10-05T10:00:00Z', until: '2026-10-05T12:00:00Z' } },
		});

		expect(emulator().requests[0].query).toEqual(
			pageQuery(0, { startTime: '2026-10-05T10:00:00.000Z', endTime: '2026-10-05T12:00:00.000Z' }),
		);
		expect(result.items.map((item) => item.json.id)).toEqual([inside.id, atSince.id]);
		expect(result.items.map((item) => item.json.id)).not.toContain(atUntil.id);
	});

	it.each([
		['added with no field', {}],
		['with both fields left empty', { since: '', until: '' }],
	])('keeps every entry with a Time Range %s: a range without ends', async (_case, timeRange) => {
		const all = await run({ returnAll: true });
		const unbounded = await run({ returnAll: true, filters: { timeRange } });

		expect(unbounded.error).toBeUndefined();
		expect(all.items.length).toBeGreaterThan(0);
		expect(unbounded.items.map((item) => item.json)).toEqual(all.items.map((item) => item.json));
		const sent = emulator().requests.map(({ query }) => query);
		expect(sent.every((query) => !('startTime' in query) && !('endTime' in query))).toBe(true);
	});

	it.each([
		['Since', { since: '={{ $json.from }}' }],
		['Until', { since: '2026-10-01T00:00:00Z', until: '={{ null }}' }],
	])(
		'refuses Time Range → %s whose expression gave null or undefined (it would read every entry), before any request',
		async (label, timeRange) => {
			const result = await run({ returnAll: true, filters: { timeRange } });

			expect(result.error).toMatchObject({
				message: `The field "Time Range → ${label}" has no value: its expression gave null or undefined (item 0)`,
				description: 'Fix the expression or remove the field.',
			});
			expect(emulator().requests).toHaveLength(0);
		},
	);

	it('reads a date-time without a zone in the workflow time zone and sends it in UTC', async () => {
		// The harness sets no workflow time zone, so n8n's default (America/New_York, UTC-4 in October) applies.
		await run({ returnAll: true, filters: { timeRange: { since: '2026-10-05T00:00:00' } } });

		expect(emulator().requests[0].query.startTime).toBe('2026-10-05T04:00:00.000Z');
	});

	it.each([
		['before Since', '2026-10-01T00:00:00.000Z'],
		['at Since (Until is exclusive: a range of nothing)', '2026-10-02T00:00:00.000Z'],
	])('rejects an Until %s before any request, naming both', async (_label, until) => {
		const since = '2026-10-02T00:00:00.000Z';
		const result = await run({ returnAll: true, filters: { timeRange: { since, until } } });

		expect(result.error).toMatchObject({ name: 'NodeOperationError', context: { itemIndex: 0 } });
		expect(result.error?.message).toBe(
			`The field "Time Range → Until" must be later than Since (${since}), not ${until} (item 0)`,
		);
		expect(emulator().requests).toHaveLength(0);
	});

	it('takes an Until one millisecond after Since', async () => {
		const result = await run({
			returnAll: true,
			filters: {
				timeRange: { since: '2026-10-02T00:00:00.000Z', until: '2026-10-02T00:00:00.001Z' },
			},
		});
		expect(result.error).toBeUndefined();
	});

	it('rejects a Since that is not a date before any request', async () => {
		const result = await run({
			returnAll: true,
			filters: { timeRange: { since: 'last tuesday' } },
		});

		expect(result.error).toMatchObject({ name: 'NodeOperationError', context: { itemIndex: 0 } });
		expect(result.error?.message).toBe('The field "Since" is not a valid date and time (item 0)');
		expect(result.error?.description).toBe(
			'Pick a date and time, or give an ISO 8601 date-time such as 2026-11-01T09:30:00Z.',
		);
		expect(emulator().requests).toHaveLength(0);
	});
});
