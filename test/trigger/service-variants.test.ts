/**
 * The trigger against services that answer `GET /audit-logs` differently from our choices
 * (test/emulator/variants.ts), and within n8n's poll budget: what it costs, what it says when
 * refused, where a start date from an expression stays, how far a future-dated entry moves it,
 * and with a clock of its own.
 * The exactly-once test runs every variant over random schedules; these pin single behaviours.
 */
import { sleep, type IDataObject, type INodeParameters } from 'n8n-workflow';

import type { AuditLogEntry } from '../../nodes/DataIntegrationManagement/client/types';
import { SERVICE_VARIANTS, type NewAuditEntry, type ServiceVariant } from '../emulator';
import { onRequestArrival, useEmulator } from '../helpers/emulator';
import { n8nLogger, pollTrigger, runActionNode, type PollResult } from '../helpers/n8n';

const { emulator, credentials } = useEmulator();

const SECOND = 1000;
const HOUR = 3600 * SECOND;
const iso = (instant: number) => new Date(instant).toISOString();

async function poll(
	parameters: INodeParameters,
	staticData?: IDataObject,
	pollBudgetMs?: number,
): Promise<PollResult> {
	return await pollTrigger({ credentials: credentials(), parameters, staticData, pollBudgetMs });
}

const emitted = (result: PollResult) =>
	(result.items ?? []).map((item) => item.json as unknown as AuditLogEntry);
const eventsOf = (entries: AuditLogEntry[]) => entries.map((entry) => entry.event);
const auditRequests = () => emulator().requests.filter((request) => request.path === '/audit-logs');

/** `count` entries `stepMs` apart from `from` on, their events numbered from `first`. */
const sequence = (count: number, from: number, stepMs = SECOND, first = 0): NewAuditEntry[] =>
	Array.from({ length: count }, (_, i) => ({
		timestamp: iso(from + i * stepMs),
		event: `event ${first + i}`,
	}));

function useVariant(variant: ServiceVariant) {
	emulator().reset({ seed: false });
	emulator().store.auditLogVariant = variant;
}

describe('a long history and a few new entries', () => {
	const cases: Array<[string, ServiceVariant]> = [
		['spec-following', SERVICE_VARIANTS['spec-following']],
		['newest first always', SERVICE_VARIANTS['newest first always']],
		['time bounds ignored', SERVICE_VARIANTS['time bounds ignored']],
		['our names unknown, ignored', SERVICE_VARIANTS['our names unknown, ignored']],
	];
	it.each(cases)(
		'against a service "%s", a poll reads what is new, not the history',
		async (_, variant) => {
			useVariant(variant);
			const now = Date.now();
			emulator().addAuditEntries(sequence(3000, now - 2 * HOUR, SECOND));
			const first = await poll({ startFrom: 'now' });
			emulator().addAuditEntries(sequence(120, now - 5 * 60 * SECOND, SECOND, 3000));
			emulator().clearRequests();

			const second = await poll({ startFrom: 'now' }, first.staticData);

			expect(eventsOf(emitted(second))).toEqual(sequence(120, 0, SECOND, 3000).map((e) => e.event));
			// The 120 new entries and the lookback: a handful of pages, never the 3,000 before them.
			expect(auditRequests().length).toBeLessThanOrEqual(5);
			emulator().clearRequests();
			const third = await poll({ startFrom: 'now' }, second.staticData);
			expect(third.items).toBeNull();
			expect(auditRequests().length).toBeLessThanOrEqual(3);
		},
	);
});

describe('a service answering newest first', () => {
	it('is asked oldest first by every poll, then newest first once its first page shows it: one page more a poll', async () => {
		useVariant(SERVICE_VARIANTS['newest first always']);
		emulator().addAuditEntries(sequence(5, Date.now() - HOUR));
		const parameters = { startFrom: 'date', startDate: iso(Date.now() - 2 * HOUR) };
		const first = await poll(parameters);
		emulator().addAuditEntries(sequence(2, Date.now() - 60 * SECOND, SECOND, 5));
		emulator().clearRequests();

		const second = await poll(parameters, first.staticData);

		expect(eventsOf(emitted(second))).toEqual(['event 5', 'event 6']);
		expect(auditRequests().map((request) => request.query.sortOrder)).toEqual(['asc', 'desc']);
	});

	it('gets the one read oldest first back at the next poll once the service answers as asked again', async () => {
		useVariant(SERVICE_VARIANTS['newest first always']);
		const now = Date.now();
		emulator().addAuditEntries(sequence(250, now - HOUR));
		const parameters = { startFrom: 'date', startDate: iso(now - 2 * HOUR) };
		const first = await poll(parameters);
		expect(emitted(first)).toHaveLength(250);
		// A deploy later, the service answers as asked; 250 entries more.
		emulator().store.auditLogVariant = SERVICE_VARIANTS['spec-following'];
		emulator().addAuditEntries(sequence(250, now - 30 * 60 * SECOND, SECOND, 250));
		emulator().clearRequests();

		const second = await poll(parameters, first.staticData);

		expect(eventsOf(emitted(second))).toEqual(sequence(250, 0, SECOND, 250).map((e) => e.event));
		expect(new Set(auditRequests().map((request) => request.query.sortOrder))).toEqual(
			new Set(['asc']),
		);
	});
});

describe('a service that refuses one of our query names', () => {
	beforeEach(() => useVariant({ unknownNames: { names: ['startTime'], handling: 'refuse' } }));

	it('fails the poll with an error naming the parameter and the section of docs/guarantees.md listing our names', async () => {
		emulator().addAuditEntries(sequence(3, Date.now() - HOUR));
		const error = await poll({ startFrom: 'date', startDate: iso(Date.now() - 2 * HOUR) }).then(
			() => undefined,
			(thrown: Error & { description?: string }) => thrown,
		);

		expect(error?.message).toContain('"startTime"');
		expect(error?.description).toContain('limit, offset, sortBy, sortOrder, startTime, endTime');
		expect(error?.description).toContain(
			'see "Where the API description is silent" in docs/guarantees.md',
		);
	});

	it('fails Get Many with the same error, for the item', async () => {
		const result = await runActionNode({
			credentials: credentials(),
			parameters: {
				resource: 'auditLog',
				operation: 'getAll',
				returnAll: true,
				filters: { timeRange: { since: '2026-10-01T00:00:00Z' } },
			},
		});

		expect(result.error?.message).toContain('"startTime"');
		expect((result.error as { description?: string }).description).toContain(
			'limit, offset, sortBy, sortOrder, startTime, endTime',
		);
	});
});

describe('a start date from an expression', () => {
	it('is fixed when the cursor is created, not evaluated again on every poll', async () => {
		emulator().reset({ seed: false });
		const now = Date.now();
		emulator().addAuditEntries([
			{ timestamp: iso(now - 2 * HOUR), event: 'too old' },
			...sequence(3, now - 30 * 60 * SECOND),
		]);
		const parameters = { startFrom: 'date', startDate: "={{ $now.minus(1, 'hour').toISO() }}" };

		const first = await poll(parameters);
		const second = await poll(parameters, first.staticData);
		emulator().addAuditEntries([{ timestamp: iso(Date.now()), event: 'new' }]);
		const third = await poll(parameters, second.staticData);

		expect(eventsOf(emitted(first))).toEqual(['event 0', 'event 1', 'event 2']);
		expect(second.items).toBeNull();
		expect(eventsOf(emitted(third))).toEqual(['new']);
	});
});

describe('an entry stamped far in the future', () => {
	it('is emitted once, and the entries after it still are', async () => {
		emulator().reset({ seed: false });
		const parameters = {
			startFrom: 'date',
			startDate: iso(Date.now() - HOUR),
			options: { lookbackSeconds: 10 },
		};
		emulator().addAuditEntries([
			{ timestamp: iso(Date.now() - 60 * SECOND), event: 'before' },
			{ timestamp: iso(Date.now() + 365 * 24 * HOUR), event: 'future' },
		]);
		const first = await poll(parameters);
		emulator().addAuditEntries([{ timestamp: iso(Date.now()), event: 'after' }]);
		const second = await poll(parameters, first.staticData);
		const third = await poll(parameters, second.staticData);

		expect(eventsOf(emitted(first))).toEqual(['before', 'future']);
		expect(eventsOf(emitted(second))).toEqual(['after']);
		expect(third.items).toBeNull();
	});
});

describe("a service whose clock is an hour behind n8n's", () => {
	it.each([
		['spec-following', SERVICE_VARIANTS['spec-following']],
		['newest first always', SERVICE_VARIANTS['newest first always']],
	])(
		"%s: emits an entry it logs at its own present after one stamped at n8n's: the cursor goes no further than the service's present",
		async (_, variant) => {
			useVariant(variant);
			emulator().setClockOffset(-HOUR);
			const servicePresent = () => Date.now() - HOUR;
			const parameters = {
				startFrom: 'date',
				startDate: iso(Date.now() - 3 * HOUR),
				options: { lookbackSeconds: 10 },
			};
			// Two entries, so that the service shows its order.
			emulator().addAuditEntries([
				{ timestamp: iso(Date.now() - SECOND), event: "stamped before n8n's present" },
				{ timestamp: iso(Date.now()), event: "stamped at n8n's present" },
			]);
			const first = await poll(parameters);
			emulator().addAuditEntries([{ timestamp: iso(servicePresent()), event: 'logged later' }]);
			const second = await poll(parameters, first.staticData);

			expect(eventsOf(emitted(first))).toEqual([
				"stamped before n8n's present",
				"stamped at n8n's present",
			]);
			expect(eventsOf(emitted(second))).toEqual(['logged later']);
		},
	);
});

describe("a start from now on an empty log, the service's clock apart from n8n's", () => {
	const MINUTE = 60 * SECOND;
	const floorOf = (result: PollResult) =>
		Date.parse(
			(Object.values(result.staticData)[0] as { auditLogCursor: { floor: string } }).auditLogCursor
				.floor,
		);
	it.each<[string, number, boolean, boolean]>([
		// title, the service's clock from n8n's, Date header sent, emitted
		['on the same clock: emitted', 0, true, true],
		['10 minutes behind: emitted', -10 * MINUTE, true, true],
		['10 minutes ahead: emitted', 10 * MINUTE, true, true],
		["no Date header, on the same clock: n8n's clock stands in, emitted", 0, false, true],
		[
			"no Date header, 10 minutes ahead: n8n's clock stands in, behind the service's: emitted",
			10 * MINUTE,
			false,
			true,
		],
		[
			"no Date header, 10 minutes behind: n8n's clock is all there is, and the entry is stamped before it: not emitted",
			-10 * MINUTE,
			false,
			false,
		],
	])(
		'an entry the service stamps after its first answer, %s',
		async (_, offsetMs, dateHeader, emittedAfter) => {
			emulator().reset({ seed: false });
			emulator().setClockOffset(offsetMs);
			emulator().setDateHeader(dateHeader);
			const servicePresent = () => Date.now() + offsetMs;
			const parameters = { startFrom: 'now' };
			const askedAt = servicePresent();
			const first = await poll(parameters);
			expect(first.items).toBeNull();
			const start = floorOf(first);
			if (dateHeader) {
				// The start of the second the Date header names: no later than the service's present.
				expect(start % SECOND).toBe(0);
				expect(start).toBeGreaterThanOrEqual(askedAt - (askedAt % SECOND));
				expect(start).toBeLessThanOrEqual(servicePresent());
			}
			// Stamped after the first answer, at the service's present, within that answer's second
			// where the header names one.
			const stamps = dateHeader ? [start, start + 999] : [servicePresent()];
			emulator().addAuditEntries(
				stamps.map((stamp, i) => ({ timestamp: iso(stamp), event: `logged after ${i}` })),
			);
			const second = await poll(parameters, first.staticData);
			const third = await poll(parameters, second.staticData);

			expect(eventsOf(emitted(second))).toEqual(
				emittedAfter ? stamps.map((_stamp, i) => `logged after ${i}`) : [],
			);
			expect(third.items).toBeNull();
		},
	);
});

describe('a service that sends no Date header', () => {
	it("is polled as usual, n8n's clock standing in for the service's", async () => {
		emulator().reset({ seed: false });
		emulator().setDateHeader(false);
		const parameters = { startFrom: 'date', startDate: iso(Date.now() - 2 * HOUR) };
		emulator().addAuditEntries(sequence(3, Date.now() - HOUR));
		const first = await poll(parameters);
		emulator().addAuditEntries(sequence(2, Date.now() - 60 * SECOND, SECOND, 3));
		const second = await poll(parameters, first.staticData);

		expect(eventsOf(emitted(first))).toEqual(['event 0', 'event 1', 'event 2']);
		expect(eventsOf(emitted(second))).toEqual(['event 3', 'event 4']);
	});
});

describe("n8n's poll budget", () => {
	it('stops reading before the budget runs out, emits what it read, and the next polls go on from there', async () => {
		emulator().reset({ seed: false });
		emulator().addAuditEntries(sequence(1500, Date.now() - 2 * HOUR, SECOND));
		// 15 pages of 350 ms, at most 6 in the 2.4 s a 3 s budget leaves for reading; the 600 ms
		// left for handing over is wide enough for a loaded 2-core CI (100 ms of 500 was not).
		emulator().setLatency(350);
		const parameters = {
			startFrom: 'date',
			startDate: iso(Date.now() - 3 * HOUR),
			options: { maxItemsPerPoll: 5000 },
		};

		const events: string[] = [];
		let staticData: IDataObject | undefined;
		let polls = 0;
		for (; polls < 20; polls++) {
			const started = Date.now();
			const result = await poll(parameters, staticData, 3000);
			expect(Date.now() - started).toBeLessThan(3000);
			staticData = result.staticData;
			if (!result.items) break;
			events.push(...eventsOf(emitted(result)));
		}

		expect(polls).toBeGreaterThan(2);
		expect(events).toEqual(sequence(1500, 0, SECOND).map((entry) => entry.event));
	});

	it('a later page answered 503 with a Retry-After that ends past the budget: the poll emits what it read, and the next goes on from there', async () => {
		emulator().reset({ seed: false });
		emulator().addAuditEntries(sequence(250, Date.now() - 2 * HOUR, SECOND));
		emulator().injectFault({
			kind: 'status',
			status: 503,
			retryAfterSeconds: 60,
			path: '/audit-logs',
			skip: 1,
		});
		const parameters = { startFrom: 'date', startDate: iso(Date.now() - 3 * HOUR) };

		const result = await poll(parameters, undefined, 3000);
		expect(eventsOf(emitted(result))).toEqual(sequence(100, 0).map((entry) => entry.event));
		const next = await poll(parameters, result.staticData);
		expect(eventsOf(emitted(next))).toEqual(
			sequence(150, 0, SECOND, 100).map((entry) => entry.event),
		);
	});

	it('asks for no page it cannot expect back within the budget: after one slow page, no request is sent to be cut', async () => {
		emulator().reset({ seed: false });
		emulator().addAuditEntries(sequence(250, Date.now() - 2 * HOUR, SECOND));
		// Reading may last 1.6 s of the 2: a second page of 900 ms would end past it, and the first
		// has 700 ms to spare on a loaded 2-core CI.
		emulator().setLatency(900);
		const parameters = { startFrom: 'date', startDate: iso(Date.now() - 3 * HOUR) };

		const result = await poll(parameters, undefined, 2000);
		expect(eventsOf(emitted(result))).toEqual(sequence(100, 0).map((entry) => entry.event));
		expect(auditRequests()).toHaveLength(1);
	});

	it('against a service answering newest first, fails a poll that cannot read all that is new within the budget: nothing emitted, the cursor stays', async () => {
		useVariant(SERVICE_VARIANTS['newest first always']);
		const start = Date.now() - 2 * HOUR;
		emulator().addAuditEntries(sequence(1500, start, SECOND));
		const parameters = { startFrom: 'date', startDate: iso(start - SECOND) };
		// 15 pages of 150 ms cannot fit in a 1.5 s budget; the first one can, on a loaded 2-core CI.
		emulator().setLatency(150);

		await expect(poll(parameters, undefined, 1500)).rejects.toMatchObject({
			name: 'NodeOperationError',
			failure: { cause: 'temporarily-unavailable' },
			message: 'The new audit log entries could not be read within the poll time budget',
			description: expect.stringMatching(
				/^The service answers newest first or ignores the time bounds, so a poll reads every entry since the cursor before it can emit the oldest, and that took longer than n8n allows a poll\. What helps in this node: a later Start Date \(Start From: A Date\), .+; Poll Times more often, .+; a smaller Options → Lookback \(Seconds\)\. Options → Max Items per Poll and the Filters do not shorten this read .+ whole log: then only a faster service or a longer poll time helps\. What took the time: the entries new since the last poll, a run of this package's nodes using the same credential \(the same Base URL and API key\), .+ or a slow service\. Nothing was emitted and the cursor stays; .+ On self-hosted n8n, N8N_SCHEDULER_POLL_TIMEOUT raises the time n8n allows a poll; n8n Cloud users cannot set it\.$/,
			),
		});
		emulator().setLatency(0);
		const next = await poll(parameters);
		expect(eventsOf(emitted(next))).toHaveLength(1000);
		expect(eventsOf(emitted(next))[0]).toBe('event 0');
	});

	it('does not wait out a 429 past the budget: the pages read before it are emitted', async () => {
		emulator().reset({ seed: false });
		emulator().addAuditEntries(sequence(150, Date.now() - HOUR, SECOND));
		emulator().injectFault({
			kind: 'status',
			status: 429,
			retryAfterSeconds: 5,
			skip: 1,
			path: '/audit-logs',
		});
		const parameters = { startFrom: 'date', startDate: iso(Date.now() - 2 * HOUR) };

		const started = Date.now();
		const first = await poll(parameters, undefined, 2000);
		expect(Date.now() - started).toBeLessThan(2000);
		const second = await poll(parameters, first.staticData, 2000);

		expect(emitted(first)).toHaveLength(100);
		expect(eventsOf([...emitted(first), ...emitted(second)])).toEqual(
			sequence(150, 0).map((entry) => entry.event),
		);
	});

	it('cuts a request the service does not answer within the budget: the poll fails in time, the cursor stays', async () => {
		emulator().reset({ seed: false });
		emulator().addAuditEntries(sequence(3, Date.now() - HOUR));
		const parameters = { startFrom: 'date', startDate: iso(Date.now() - 2 * HOUR) };
		emulator().setLatency(3000);

		const started = Date.now();
		await expect(poll(parameters, undefined, 500)).rejects.toMatchObject({
			name: 'NodeApiError',
			httpCode: null,
			message: 'The new audit log entries could not be read within the poll time budget',
			description: expect.stringMatching(
				/^The first request of the poll did not get its answer within the time n8n allows a poll \(.+\)\. What helps: .+ Nothing was emitted and the cursor stays/,
			),
		});
		expect(Date.now() - started).toBeLessThan(2000);
		emulator().setLatency(0);
		const next = await poll(parameters);
		expect(eventsOf(emitted(next))).toEqual(['event 0', 'event 1', 'event 2']);
	});

	it('against a service answering newest first, fails a poll whose later page meets a 429 past the budget: nothing emitted, the cursor stays', async () => {
		useVariant(SERVICE_VARIANTS['newest first always']);
		emulator().addAuditEntries(sequence(150, Date.now() - HOUR, SECOND));
		emulator().injectFault({
			kind: 'status',
			status: 429,
			retryAfterSeconds: 5,
			// Its first page, oldest first, shows the order; the second starts the newest-first read.
			skip: 2,
			path: '/audit-logs',
		});
		const parameters = { startFrom: 'date', startDate: iso(Date.now() - 2 * HOUR) };

		await expect(poll(parameters, undefined, 2000)).rejects.toMatchObject({
			message: 'The new audit log entries could not be read within the poll time budget',
		});
		expect(auditRequests()).toHaveLength(3);
		const next = await poll(parameters);
		expect(eventsOf(emitted(next))).toEqual(sequence(150, 0).map((entry) => entry.event));
	});
});

describe('a start from "now" against a service answering oldest first, with more history than the first poll reads in its budget', () => {
	// 4,000 entries (40 pages of 100) up to the service's present: with pages of 50 ms, a poll of
	// 500 ms (400 of them spent reading) reads a few of the oldest pages, never the newest entry.
	const histories: Array<[string, (present: number) => NewAuditEntry[]]> = [
		[
			'ten entries to an instant',
			(present) =>
				Array.from({ length: 4000 }, (_, i) => ({
					timestamp: iso(present - (400 - Math.floor(i / 10)) * SECOND),
					event: `before ${i}`,
				})),
		],
		[
			'all at one instant, so no page shows the order',
			(present) =>
				Array.from({ length: 4000 }, (_, i) => ({
					timestamp: iso(present - SECOND),
					event: `before ${i}`,
				})),
		],
	];
	const clocks: Array<[string, number, boolean]> = [
		["its clock on n8n's", 0, true],
		["its clock an hour ahead of n8n's", HOUR, true],
		["its clock an hour behind n8n's", -HOUR, true],
		["no Date header, n8n's clock standing in", 0, false],
	];
	const cases = histories.flatMap(([history, entries]) =>
		clocks.map(
			([clock, offset, dateHeader]) => [history, clock, entries, offset, dateHeader] as const,
		),
	);

	it.each(cases)(
		'history %s, %s: no entry logged before the first poll is emitted, each one logged after it is, once',
		async (_history, _clock, history, offset, dateHeader) => {
			useVariant(SERVICE_VARIANTS['oldest first always']);
			emulator().setClockOffset(offset);
			emulator().setDateHeader(dateHeader);
			// The service stamps what it logs with its own clock.
			const servicePresent = () => Date.now() + offset;
			emulator().addAuditEntries([
				...history(servicePresent()),
				{ timestamp: iso(servicePresent()), event: 'before, at the present' },
			]);
			emulator().setLatency(50);
			const parameters = { startFrom: 'now' };

			const first = await poll(parameters, undefined, 500);
			expect(first.items).toBeNull();
			// The first poll was cut by its budget, far from the log's end.
			expect(auditRequests().length).toBeLessThan(20);

			// The start is the service's present when it first answered, which its Date header
			// gives to the second: an entry it logs within that second counts as before the start.
			await sleep(SECOND);
			const logged: string[] = [];
			const events: string[] = [];
			let staticData = first.staticData;
			for (let batch = 0; batch < 3; batch++) {
				const present = servicePresent();
				// Five entries sharing one instant, and one a millisecond later.
				const entries = [
					...Array.from({ length: 5 }, (_, i) => ({
						timestamp: iso(present),
						event: `after ${batch}.${i}`,
					})),
					{ timestamp: iso(present + 1), event: `after ${batch}.5` },
				];
				emulator().addAuditEntries(entries);
				logged.push(...eventsOf(entries as AuditLogEntry[]));
				const result = await poll(parameters, staticData, 500);
				events.push(...eventsOf(emitted(result)));
				staticData = result.staticData;
			}
			for (let polls = 0; polls < 5; polls++) {
				const result = await poll(parameters, staticData, 500);
				events.push(...eventsOf(emitted(result)));
				staticData = result.staticData;
			}

			expect(events.filter((event) => event.startsWith('before'))).toEqual([]);
			expect(events).toEqual(logged);
		},
	);
});

describe('entries whose timestamps cannot be read', () => {
	it('are emitted once, in order, also first and last in a log stamped ahead of the service clock', async () => {
		// Positions 0 (no timestamp), 4 and 9 (unreadable) of the log are served without a readable timestamp.
		useVariant({ oddTimestamps: true });
		const start = Date.now() + 24 * HOUR;
		emulator().addAuditEntries(sequence(10, start));
		const parameters = { startFrom: 'date', startDate: iso(start) };

		const first = await poll(parameters);
		const second = await poll(parameters, first.staticData);

		expect(
			emitted(first).filter((entry) => Number.isNaN(Date.parse(entry.timestamp))),
		).toHaveLength(3);
		expect(eventsOf(emitted(first))).toEqual(sequence(10, 0).map((entry) => entry.event));
		expect(second.items).toBeNull();
	});
});

/** What n8n's log gets when a poll's read ended before the service showed its order. */
const KEEP_CURSOR_WARNING =
	'Audit log poll: the read ended before the service showed its order, so this poll leaves the cursor where it was and the next one reads again from there';

describe('a service answering newest first whose newest entries share one instant', () => {
	// Pages of 10, newest first: the first page holds only the tie, so it shows no order, and ends
	// with position 30 of the log, served without a readable timestamp (held back for its newer
	// neighbour). A poll that took that page for the oldest entries would move the cursor past them.
	const parameters = { startFrom: 'date', startDate: iso(0), options: { lookbackSeconds: 0 } };
	const tie = Array.from({ length: 30 }, (_, i) => ({
		timestamp: iso(60 * SECOND),
		event: `tie ${i}`,
	}));

	beforeEach(() => {
		useVariant({ pageSizeCap: 10, fixedOrder: 'desc', oddTimestamps: true });
		emulator().addAuditEntries([...sequence(10, 0), ...tie]);
	});

	/** Polls on from `first` without writes or budget until one finds nothing new; every event emitted. */
	async function eventsFrom(first: PollResult): Promise<string[]> {
		const polls = [first];
		do polls.push(await poll(parameters, polls[polls.length - 1].staticData));
		while (polls[polls.length - 1].items !== null && polls.length < 6);
		return polls.flatMap((result) => eventsOf(emitted(result)));
	}

	const everyEvent = [
		...sequence(10, 0).map((entry) => entry.event),
		...tie.map((entry) => entry.event),
	];

	it('loses none of the older entries when an entry logged during the first read shifts its pages', async () => {
		// Logged when the second page is asked for, before it is answered: that page then starts
		// with position 30 again.
		const unhook = onRequestArrival(emulator(), () => {
			if (auditRequests().length === 2)
				emulator().addAuditEntries([{ timestamp: iso(120 * SECOND), event: 'logged meanwhile' }]);
		});
		let first: PollResult;
		try {
			first = await poll(parameters);
		} finally {
			unhook();
		}

		expect(await eventsFrom(first)).toEqual([...everyEvent, 'logged meanwhile']);
	});

	it("loses none of the older entries when the budget ends the first read after its first page, and says why in n8n's log", async () => {
		// A first page of 900 ms fits in the 1.6 s of a 2 s budget spent reading, a second would
		// not: 700 ms to spare for the first poll of a cold process on a loaded 2-core CI.
		emulator().setLatency(900);
		const warn = jest.spyOn(n8nLogger(), 'warn');
		let first: PollResult;
		try {
			first = await poll(parameters, undefined, 2000);
			emulator().setLatency(0);
			expect(warn.mock.calls).toEqual([[KEEP_CURSOR_WARNING]]);
			warn.mockClear();
			expect(await eventsFrom(first)).toEqual(everyEvent);
			// Polls that read to the log's end say nothing of it.
			expect(warn).not.toHaveBeenCalled();
		} finally {
			warn.mockRestore();
		}
		expect(first.items).toBeNull();
	});
});

describe('a service that refuses the audit-log query with a 400', () => {
	beforeEach(() => useVariant({}));

	async function refusal(message: string) {
		emulator().addAuditEntries(sequence(3, Date.now() - HOUR));
		emulator().injectFault({ kind: 'status', status: 400, message, path: '/audit-logs' });
		return await poll({ startFrom: 'now' }).then(
			() => undefined,
			(thrown: Error & { description?: string }) => thrown,
		);
	}

	const WHERE_NAMES_ARE_CHOSEN =
		"To read the audit log, this package asks with the names limit, offset, sortBy, sortOrder, startTime, endTime, which the service's API description leaves open";

	it('names the query parameter the service names', async () => {
		const error = await refusal('unknown query parameter: sortOrder');
		expect(error?.message).toBe(
			'The service refused the audit-log query parameter "sortOrder": unknown query parameter: sortOrder [BAD_REQUEST]',
		);
		expect(error?.description).toContain(WHERE_NAMES_ARE_CHOSEN);
		// A configuration to change (n8n holds the trigger); the raw record n8n shows in its details.
		expect(error).toMatchObject({
			failure: { cause: 'configuration-invalid' },
			errorResponse: { httpCode: '400', message: expect.stringContaining('sortOrder') },
		});
	});

	it('says the query was refused, and where our names are chosen, when it names none of them', async () => {
		const error = await refusal('malformed request');
		expect(error?.message).toBe(
			'The service refused the audit-log query: malformed request [BAD_REQUEST]',
		);
		expect(error?.description).toContain(WHERE_NAMES_ARE_CHOSEN);
		expect(error?.description).toMatch(/^If the service's words name a value, check that field/);
		expect(error).toMatchObject({ httpCode: '400' });
	});

	it.each([
		['no message', {}, ' without saying why'],
		[
			'a message of spaces, and a code',
			{ code: 'BAD_SORT', message: '  ' },
			' without saying why [BAD_SORT]',
		],
		// The name read in the code alone, not in the transport's words around it.
		[
			'only a code naming a query name',
			{ code: 'invalid-sortOrder' },
			' parameter "sortOrder" without saying why [invalid-sortOrder]',
		],
	])(
		'says the query was refused without saying why when the service gave %s',
		async (_title, body, said) => {
			emulator().answerWith({ status: 400, body, path: '/audit-logs' });
			const error = await poll({ startFrom: 'now' }).then(
				() => undefined,
				(thrown: Error & { description?: string }) => thrown,
			);
			expect(error?.message).toBe(`The service refused the audit-log query${said}`);
			// No words to read a value from: the description opens with the names asked.
			expect(error?.description?.startsWith(WHERE_NAMES_ARE_CHOSEN)).toBe(true);
		},
	);
});

describe('entries served twice, or removed, while a poll reads by offset', () => {
	const parameters = { startFrom: 'date', startDate: iso(0) };
	beforeEach(() => useVariant({}));

	/** Polls from a fresh state until one finds nothing new (at most 5): every event emitted. */
	async function everyEvent(): Promise<string[]> {
		const polls = [await poll(parameters)];
		while (polls[polls.length - 1].items !== null && polls.length < 5)
			polls.push(await poll(parameters, polls[polls.length - 1].staticData));
		return polls.flatMap((result) => eventsOf(emitted(result)));
	}

	it('reads past an entry the service serves twice across a page boundary (it ended every poll there)', async () => {
		const twin = { id: 'twin', timestamp: iso(50 * SECOND), event: 'twin' };
		// Positions 99 and 100: the second page opens with the twin of the first page's last entry,
		// and every poll reads the same pages again: all of them lie within the lookback (60 s).
		const before = sequence(99, 0, SECOND / 2);
		const after = sequence(50, 51 * SECOND, SECOND, 99);
		emulator().addAuditEntries([...before, twin, twin, ...after]);

		expect(await everyEvent()).toEqual([...before, twin, ...after].map((e) => e.event));
	});
});

describe('a request past the second page that fails', () => {
	beforeEach(() => useVariant({}));

	it('fails the poll, saying why, when the poll took nothing new in before it: a page that always fails shows', async () => {
		const parameters = { startFrom: 'date', startDate: iso(0) };
		// 250 entries within the lookback (60 s): every poll reads them from the first again.
		emulator().addAuditEntries(sequence(250, 0, SECOND / 10));
		const unhook = onRequestArrival(emulator(), (request) => {
			if (request.path === '/audit-logs' && Number(request.query.offset) >= 200)
				emulator().injectFault({ kind: 'status', status: 500, path: '/audit-logs' });
		});
		try {
			const first = await poll(parameters);
			expect(eventsOf(emitted(first))).toEqual(sequence(200, 0).map((e) => e.event));
			const failed = await poll(parameters, first.staticData).catch((error: Error) => error);
			expect(failed).toMatchObject({ httpCode: '500' });
		} finally {
			unhook();
		}
	});

	it("keeps what the poll read past a second page, says so in n8n's log, and the next poll meets the failure at its first page", async () => {
		const parameters = { startFrom: 'date', startDate: iso(0) };
		emulator().addAuditEntries(sequence(250, 0, 10 * SECOND));
		// The third page's request, and the next poll's first: a failure that lasts.
		emulator().injectFault({ kind: 'status', status: 500, path: '/audit-logs', skip: 2, count: 2 });
		const warn = jest.spyOn(n8nLogger(), 'warn');
		try {
			const first = await poll(parameters);
			expect(eventsOf(emitted(first))).toEqual(sequence(200, 0).map((e) => e.event));
			expect(warn.mock.calls).toEqual([[expect.stringContaining('keeps what it read')]]);

			const failed = await poll(parameters, first.staticData).catch((error: Error) => error);
			expect(failed).toMatchObject({ httpCode: '500' });

			const third = await poll(parameters, first.staticData);
			expect(eventsOf(emitted(third))).toEqual(sequence(50, 0, SECOND, 200).map((e) => e.event));
		} finally {
			warn.mockRestore();
		}
	});
});
