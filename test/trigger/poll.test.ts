/**
 * The trigger's poll through n8n-core's real PollContext against the emulator: what it emits, what
 * it stores, what it asks the API, and how it fails.
 */
import {
	getGlobalState,
	sleep,
	type IDataObject,
	type INodeParameters,
	type INodePropertyOptions,
} from 'n8n-workflow';

import type { AuditLogEntry } from '../../nodes/DataIntegrationManagement/client/types';
import { auditEntryKey } from '../../nodes/DataIntegrationManagement/client/auditLog';
import { OFFSET_IGNORED, SEED, type NewAuditEntry } from '../emulator';
import { useEmulator } from '../helpers/emulator';
import {
	activeTrigger,
	callNodeMethod,
	credentialNotFound,
	pollTrigger,
	TRIGGER_NODE_TYPE,
	type ApiCredentials,
	type PollResult,
} from '../helpers/n8n';

const { emulator, credentials } = useEmulator();

const T0 = Date.parse('2026-11-01T00:00:00.000Z');
const SECOND = 1000;
const iso = (instant: number) => new Date(instant).toISOString();

function dateParameters(startDate: string, extra: INodeParameters = {}): INodeParameters {
	return { startFrom: 'date', startDate, ...extra };
}

async function poll(parameters: INodeParameters, staticData?: IDataObject): Promise<PollResult> {
	return await pollTrigger({ credentials: credentials(), parameters, staticData });
}

/** The poll's error, or a failure of the test when it did not throw. */
async function pollError(parameters: INodeParameters, staticData?: IDataObject, mode?: 'manual') {
	try {
		await pollTrigger({ credentials: credentials(), parameters, staticData, mode });
	} catch (error) {
		return error as Error & { description?: string };
	}
	throw new Error('the poll did not throw');
}

async function pollTriggerError(credentialsToUse: ApiCredentials | Error) {
	try {
		await pollTrigger({ credentials: credentialsToUse, parameters: { startFrom: 'now' } });
	} catch (error) {
		return error as Error;
	}
	throw new Error('the poll did not throw');
}

const emitted = (result: PollResult) => (result.items ?? []).map((item) => item.json);
const idsOf = (items: Array<{ id?: unknown }>) => items.map((item) => item.id);

/** The trigger's cursor inside the workflow's static data (n8n keys node data by node name). */
function cursorOf(staticData: IDataObject) {
	const nodeKey = Object.keys(staticData).find((key) => key.startsWith('node:'));
	return (nodeKey ? (staticData[nodeKey] as IDataObject).auditLogCursor : undefined) as
		| { origin: string; floor: string; cursor: string; seen: Record<string, number> }
		| undefined;
}

/** The log as the API sorts it (by instant, equal instants in insertion order), from `from` on. */
function logFrom(from: number): AuditLogEntry[] {
	return emulator()
		.store.auditEntries.map((item, position) => ({
			item,
			position,
			instant: Date.parse(item.timestamp),
		}))
		.filter(({ instant }) => instant >= from)
		.sort((a, b) => a.instant - b.instant || a.position - b.position)
		.map(({ item }) => item);
}

const auditRequests = () => emulator().requests.filter((request) => request.path === '/audit-logs');

function add(entries: NewAuditEntry[]): AuditLogEntry[] {
	return emulator().addAuditEntries(entries);
}

/** `count` entries one second apart from `from` on. */
const sequence = (count: number, from: number, stepMs = SECOND): NewAuditEntry[] =>
	Array.from({ length: count }, (_, i) => ({ timestamp: iso(from + i * stepMs) }));

describe('startFrom: now', () => {
	it('starts at the newest entry the service has, emits nothing on the first poll, then emits later entries once', async () => {
		// Two entries share the newest instant, so the start must remember both.
		const newestSeeded = Math.max(...logFrom(0).map((entry) => Date.parse(entry.timestamp)));
		const newest = newestSeeded + 60 * SECOND;
		const atStart = add([{ timestamp: iso(newest) }, { timestamp: iso(newest) }]);

		const first = await poll({ startFrom: 'now' });
		expect(first.items).toBeNull();
		expect(auditRequests().map((request) => request.query)).toEqual([
			{ limit: '100', offset: '0', sortBy: 'timestamp', sortOrder: 'desc' },
		]);
		expect(cursorOf(first.staticData)).toEqual({
			origin: 'now',
			floor: iso(newest),
			cursor: iso(newest),
			seen: Object.fromEntries(atStart.map((entry) => [auditEntryKey(entry), newest])),
		});

		// Late entries stamped before the start are not emitted; entries at or after it are, once.
		add([{ timestamp: iso(newest - 1), event: 'Before activation' }]);
		const after = add([
			{ timestamp: iso(newest), event: 'At activation' },
			{ timestamp: iso(newest + 1500), event: 'After activation' },
		]);
		const second = await poll({ startFrom: 'now' }, first.staticData);
		expect(emitted(second)).toEqual(after);
		expect(cursorOf(second.staticData)!.cursor).toBe(iso(newest + 1500));

		const third = await poll({ startFrom: 'now' }, second.staticData);
		expect(third.items).toBeNull();
	});

	it("starts at the service's present when the log is empty: the start of the second its Date header names", async () => {
		emulator().reset({ seed: false });
		const before = Date.now();
		const first = await poll({ startFrom: 'now' });
		expect(first.items).toBeNull();
		const state = cursorOf(first.staticData)!;
		expect(Date.parse(state.floor)).toBeGreaterThanOrEqual(before - (before % SECOND));
		expect(Date.parse(state.floor) % SECOND).toBe(0);
		expect(Date.parse(state.floor)).toBeLessThanOrEqual(Date.now());
		expect(state.seen).toEqual({});
	});

	it('fails the first poll when the key is refused, so a bad credential shows at activation', async () => {
		const error = await pollTriggerError({ ...credentials(), apiKey: 'wrong-key' });
		expect((error as { httpCode?: string }).httpCode).toBe('401');
	});

	it('fails a poll whose credential was deleted or is not shared with the workflow as a configuration to change (n8n holds the trigger)', async () => {
		const error = await pollTriggerError(credentialNotFound());
		expect(error).toMatchObject({
			name: 'NodeOperationError',
			message: expect.stringContaining('does not exist'),
			failure: { cause: 'configuration-invalid' },
		});
	});
});

describe('startFrom: date', () => {
	it('emits the backlog from the start date on, in timestamp order, with the fields as the API gives them', async () => {
		const startDate = '2026-10-15T00:00:00.000Z';
		const result = await poll(dateParameters(startDate));
		const expected = logFrom(Date.parse(startDate));
		expect(expected.length).toBeGreaterThan(100);
		expect(expected.length).toBeLessThan(SEED.audit.count);
		expect(emitted(result)).toEqual(expected);
		const state = cursorOf(result.staticData)!;
		expect(state.origin).toBe(`date:${startDate}`);
		expect(state.cursor).toBe(expected[expected.length - 1].timestamp);

		expect((await poll(dateParameters(startDate), result.staticData)).items).toBeNull();
	});

	it('reads a start date with an offset as that instant, and one without a zone in the workflow time zone', async () => {
		emulator().reset({ seed: false });
		add([
			{ timestamp: '2026-11-01T09:59:59.999Z' },
			{ timestamp: '2026-11-01T10:00:00Z' },
			{ timestamp: '2026-11-01T17:00:00Z' },
		]);
		const withOffset = await poll(dateParameters('2026-11-01T12:00:00+02:00'));
		expect(emitted(withOffset).map((item) => item.timestamp)).toEqual([
			'2026-11-01T10:00:00Z',
			'2026-11-01T17:00:00Z',
		]);
		expect(cursorOf(withOffset.staticData)!.origin).toBe('date:2026-11-01T10:00:00.000Z');

		// As n8n's date picker gives it. The harness's workflow has n8n's default time zone, where
		// 12:00 on 1 November 2026 is after the end of daylight saving time: UTC-5.
		expect(getGlobalState().defaultTimezone).toBe('America/New_York');
		const zoneless = await poll(dateParameters('2026-11-01T12:00:00'));
		expect(emitted(zoneless).map((item) => item.timestamp)).toEqual(['2026-11-01T17:00:00Z']);
	});

	it('starts over when the start date changes', async () => {
		const first = await poll(dateParameters('2026-10-20T00:00:00Z'));
		expect(emitted(first)).toEqual(logFrom(Date.parse('2026-10-20T00:00:00Z')));

		const earlier = await poll(dateParameters('2026-10-25T00:00:00Z'), first.staticData);
		expect(emitted(earlier)).toEqual(logFrom(Date.parse('2026-10-25T00:00:00Z')));
		expect(cursorOf(earlier.staticData)!.origin).toBe('date:2026-10-25T00:00:00.000Z');

		// Switching to "now" is a new start too: it records the start and emits nothing.
		const now = await poll({ startFrom: 'now' }, earlier.staticData);
		expect(now.items).toBeNull();
		expect(cursorOf(now.staticData)!.origin).toBe('now');
	});

	it.each([
		['Start From', { startFrom: 'later' }],
		['Max Items per Poll', { startFrom: 'now', options: { maxItemsPerPoll: -5 } }],
	])(
		'refuses a %s it cannot read, naming the field, with the trigger as the failing node',
		async (label, parameters) => {
			const error = (await pollError(parameters)) as Error & { node?: { type?: string } };
			expect(error.message).toContain(`The field "${label}"`);
			expect(error.node?.type).toBe(TRIGGER_NODE_TYPE);
		},
	);

	it.each([
		['not a date', 'is not a valid date and time'],
		['', 'is empty'],
	])('refuses a start date that names no instant: %j', async (startDate, problem) => {
		const error = await pollError(dateParameters(startDate));
		expect(error.message).toBe(`The field "Start Date" ${problem}`);
		expect(error.description).toBe(
			'Pick a date and time, or give an ISO 8601 date-time such as 2026-11-01T09:30:00Z.',
		);
		// n8n's scheduler holds a trigger whose configuration is wrong instead of retrying it soon.
		expect(error).toMatchObject({ failure: { cause: 'configuration-invalid' } });
	});

	it('moves the cursor up to an entry logged in the second the service answers in (its Date header counts whole seconds, so its present is before the next one)', async () => {
		emulator().reset({ seed: false });
		const loggedNow = add([{ timestamp: iso(Date.now()), event: 'logged just now' }]);
		const result = await poll(dateParameters(iso(Date.now() - 60 * SECOND)));
		expect(emitted(result)).toEqual(loggedNow);
		expect(cursorOf(result.staticData)!.cursor).toBe(loggedNow[0].timestamp);
	});
});

describe('filters', () => {
	beforeEach(() => emulator().reset({ seed: false }));

	const maya = { type: 'user', email: 'maya.patel@northwind-data.example' };
	const lucas = { type: 'api_key', email: 'lucas.moreau@northwind-data.example' };
	const system = { type: 'system', email: 'system@northwind-data.example' };
	const logFour = () =>
		add([
			{ timestamp: iso(T0), event: 'Integration PAUSED', actor: maya },
			{ timestamp: iso(T0 + SECOND), event: 'Integration paused', actor: system },
			{ timestamp: iso(T0 + 2 * SECOND), event: 'Tag created', actor: lucas },
			{ timestamp: iso(T0 + 3 * SECOND), event: 'Sync failed', actor: system },
		]);
	const filtered = (filters: INodeParameters, staticData?: IDataObject) =>
		poll(dateParameters(iso(T0), { filters }), staticData);

	it('emits only entries matching any of the values (any case); the others still move the cursor', async () => {
		const log = logFour();

		const byEvent = await filtered({ events: { texts: ['Paused', 'SYNC'] } });
		expect(idsOf(emitted(byEvent))).toEqual([log[0].id, log[1].id, log[3].id]);
		expect(cursorOf(byEvent.staticData)!.cursor).toBe(log[3].timestamp);
		expect(Object.keys(cursorOf(byEvent.staticData)!.seen).sort()).toEqual(
			log.map(auditEntryKey).sort(),
		);

		const emails = ['Maya.Patel@Northwind-Data.example', lucas.email];
		const byEmail = await filtered({ actorEmails: { emails, match: 'anyOf' } });
		expect(idsOf(emitted(byEmail))).toEqual([log[0].id, log[2].id]);

		// An expression may give the emails as one text, separated by commas.
		const asText = await filtered({ actorEmails: { emails: `={{ "${emails.join(', ')}" }}` } });
		expect(idsOf(emitted(asText))).toEqual([log[0].id, log[2].id]);

		const byType = await filtered({
			actorTypes: { types: ['SYSTEM', 'api_key'] },
			events: { texts: ['sync', 'tag'] },
		});
		expect(idsOf(emitted(byType))).toEqual([log[2].id, log[3].id]);

		// A skipped entry is not emitted later either, even when the filter no longer rejects it.
		const unfiltered = await poll(dateParameters(iso(T0)), byType.staticData);
		expect(unfiltered.items).toBeNull();
	});

	it('emits all but the entries matching the values of a filter set to All but These', async () => {
		const log = logFour();

		const notSystem = await filtered({ actorTypes: { types: ['System'], match: 'allBut' } });
		expect(idsOf(emitted(notSystem))).toEqual([log[0].id, log[2].id]);

		const neither = await filtered({
			events: { texts: ['paused'], match: 'allBut' },
			actorEmails: { emails: [system.email], match: 'allBut' },
		});
		expect(idsOf(emitted(neither))).toEqual([log[2].id]);
		expect(cursorOf(neither.staticData)!.cursor).toBe(log[3].timestamp);
	});

	it('refuses an empty value or a malformed email, naming the field, before any request', async () => {
		const empty = await pollError(
			dateParameters(iso(T0), { filters: { events: { texts: ['paused', ' '] } } }),
		);
		expect(empty.message).toBe('The field "Events → Texts" has an empty value (value 2)');
		const email = await pollError(
			dateParameters(iso(T0), { filters: { actorEmails: { emails: ['maya.patel'] } } }),
		);
		expect(email.message).toBe(
			'The field "Actor Emails → User Names or IDs" has "maya.patel", which is not an email address',
		);
		expect(auditRequests()).toEqual([]);
	});

	it("lists the service's users for Actor Emails: each by name and email, valued by email", async () => {
		emulator().reset();
		const options = await callNodeMethod<INodePropertyOptions[]>({
			credentials: credentials(),
			method: 'getUserEmails',
			parameters: { filters: {} },
			path: 'parameters.filters.actorEmails.emails',
		});

		const users = emulator().store.listUsers();
		expect(options.map((option) => option.value).sort()).toEqual(
			users.map((user) => user.email).sort(),
		);
		expect(options).toContainEqual({
			name: 'Maya Patel (maya.patel@northwind-data.example)',
			value: 'maya.patel@northwind-data.example',
		});
		expect(options.map((option) => option.name)).toEqual(
			options.map((option) => option.name).sort((a, b) => a.localeCompare(b, 'en')),
		);
	});
});

describe('maxItemsPerPoll and lookbackSeconds', () => {
	beforeEach(() => emulator().reset({ seed: false }));

	it('emits at most the cap per poll and the rest on the next polls, in order, each once', async () => {
		const log = add(sequence(250, T0));
		const parameters = dateParameters(iso(T0), { options: { maxItemsPerPoll: 100 } });
		const batches: unknown[][] = [];
		let staticData: IDataObject | undefined;
		for (let i = 0; i < 4; i++) {
			const result = await poll(parameters, staticData);
			staticData = result.staticData;
			batches.push(idsOf(emitted(result)));
		}
		expect(batches.map((batch) => batch.length)).toEqual([100, 100, 50, 0]);
		expect(batches.flat()).toEqual(idsOf(log));
	});

	it('emits an entry that shows up late inside the lookback window once, and not one older than it', async () => {
		add(sequence(11, T0, 10 * SECOND)); // T0 .. T0+100s
		const parameters = dateParameters(iso(T0), { options: { lookbackSeconds: 30 } });
		const first = await poll(parameters);
		expect(first.items).toHaveLength(11);

		const [inside] = add([{ timestamp: iso(T0 + 75 * SECOND), event: 'Late but inside' }]);
		add([{ timestamp: iso(T0 + 65 * SECOND), event: 'Too late' }]);
		const second = await poll(parameters, first.staticData);
		expect(emitted(second)).toEqual([inside]);
		expect((await poll(parameters, second.staticData)).items).toBeNull();
	});

	it('returns null when nothing is new', async () => {
		add(sequence(3, T0));
		const first = await poll(dateParameters(iso(T0)));
		expect(first.items).toHaveLength(3);
		const second = await poll(dateParameters(iso(T0)), first.staticData);
		expect(second.items).toBeNull();
		expect(cursorOf(second.staticData)).toEqual(cursorOf(first.staticData));
	});
});

describe('what the poll asks the API', () => {
	beforeEach(() => emulator().reset({ seed: false }));

	it('asks sortBy=timestamp&sortOrder=asc from the cursor less the lookback, in pages of 100 by offset', async () => {
		add(sequence(250, T0));
		const parameters = dateParameters(iso(T0), { options: { lookbackSeconds: 45 } });
		const first = await poll(parameters);
		expect(first.items).toHaveLength(250);
		// The start is the floor: nothing before it is asked for.
		expect(auditRequests().map((request) => request.query)).toEqual(
			[0, 100, 200].map((offset) => ({
				limit: '100',
				offset: String(offset),
				sortBy: 'timestamp',
				sortOrder: 'asc',
				startTime: iso(T0),
			})),
		);

		emulator().clearRequests();
		const cursor = Date.parse(cursorOf(first.staticData)!.cursor);
		expect(cursor).toBe(T0 + 249 * SECOND);
		await poll(parameters, first.staticData);
		expect(auditRequests().map((request) => request.query)).toEqual([
			{
				limit: '100',
				offset: '0',
				sortBy: 'timestamp',
				sortOrder: 'asc',
				startTime: iso(cursor - 45 * SECOND),
			},
		]);
	});

	it('stops at totalItems without asking for an empty page', async () => {
		add(sequence(200, T0));
		const result = await poll(dateParameters(iso(T0)));
		expect(result.items).toHaveLength(200);
		expect(auditRequests().map((request) => request.query.offset)).toEqual(['0', '100']);
	});

	it('stops asking once the cap is reached', async () => {
		add(sequence(350, T0));
		await poll(dateParameters(iso(T0), { options: { maxItemsPerPoll: 150 } }));
		expect(auditRequests().map((request) => request.query.offset)).toEqual(['0', '100']);
	});

	it('sends the start as UTC ISO with milliseconds, whatever notation it was given in', async () => {
		await poll(dateParameters('2026-11-01T01:30:00+01:30'));
		expect(auditRequests()[0].query.startTime).toBe('2026-11-01T00:00:00.000Z');
	});
});

describe('failures in the middle of a scan', () => {
	beforeEach(() => emulator().reset({ seed: false }));

	// n8n stores static data only after a poll that returns, and pollTrigger gives back nothing from
	// a poll that throws; what a failed poll must leave behind is checked by polling again from the
	// static data stored before it.
	it.each([
		['an HTTP 500', { kind: 'status', status: 500 }, 'injected fault: HTTP 500 [INTERNAL_ERROR]'],
		[
			'a dropped connection',
			{ kind: 'drop' },
			'The service closed the connection before answering',
		],
		[
			'a body that is not JSON',
			{ kind: 'malformed' },
			"The service's answer to GET /audit-logs is not the JSON object the API promises",
		],
	] as const)(
		'%s on page 2 fails the poll, and the next poll from the same static data emits everything once',
		async (_name, fault, message) => {
			const parameters = dateParameters(iso(T0), { options: { lookbackSeconds: 10 } });
			add(sequence(250, T0));
			const first = await poll(parameters);
			expect(first.items).toHaveLength(250);
			const fresh = add(sequence(250, T0 + 300 * SECOND));

			emulator().injectFault({ ...fault, path: '/audit-logs', skip: 1 });
			emulator().clearRequests();
			const error = await pollError(parameters, first.staticData);
			expect(error.message).toBe(message);
			// Page 1 was read (and would have emitted entries) before page 2 failed.
			expect(
				auditRequests()
					.map((request) => request.query.offset)
					.slice(0, 2),
			).toEqual(['0', '100']);

			const retried = await poll(parameters, first.staticData);
			expect(idsOf(emitted(retried))).toEqual(idsOf(fresh));
			expect((await poll(parameters, retried.staticData)).items).toBeNull();
		},
	);

	it('a 429 on page 2 it does not wait out: it emits what it read and stores the cursor for it; the next poll meets the limit at once, declares the wait, and the one after emits the rest once', async () => {
		const parameters = dateParameters(iso(T0), { options: { lookbackSeconds: 10 } });
		const log = add(sequence(250, T0));
		emulator().injectFault({
			kind: 'status',
			status: 429,
			retryAfterSeconds: 150,
			path: '/audit-logs',
			skip: 1,
			count: 2,
		});
		const first = await poll(parameters);
		expect(idsOf(emitted(first))).toEqual(idsOf(log.slice(0, 100)));

		const limited = await pollError(parameters, first.staticData);
		expect(limited).toMatchObject({
			httpCode: '429',
			failure: { cause: 'rate-limited', retryAfterMs: 150_000 },
		});

		const rest = await poll(parameters, first.staticData);
		expect(idsOf(emitted(rest))).toEqual(idsOf(log.slice(100)));
	});

	it('waits out a 429 with Retry-After 0 and asks again for the same page', async () => {
		const log = add(sequence(250, T0));
		emulator().injectFault({
			kind: 'status',
			status: 429,
			retryAfterSeconds: 0,
			path: '/audit-logs',
			skip: 1,
			count: 2,
		});
		const result = await poll(dateParameters(iso(T0)));
		expect(idsOf(emitted(result))).toEqual(idsOf(log));
		expect(auditRequests().map((request) => request.query.offset)).toEqual([
			'0',
			'100',
			'100',
			'100',
			'200',
		]);
	});
});

describe('a service that asks to wait longer than a poll waits', () => {
	beforeEach(() => emulator().reset({ seed: false }));

	it("a 429 with Retry-After past what a request waits fails the poll at once, declaring the wait for n8n's scheduler; nothing is emitted, and the next poll emits everything once", async () => {
		const parameters = dateParameters(iso(T0));
		const log = add(sequence(30, T0));
		emulator().injectFault({ kind: 'status', status: 429, retryAfterSeconds: 150 });
		const started = Date.now();
		const error = await pollError(parameters);
		expect(Date.now() - started).toBeLessThan(5000);
		expect(error).toMatchObject({
			httpCode: '429',
			failure: { cause: 'rate-limited', retryAfterMs: 150_000 },
		});
		expect(idsOf(emitted(await poll(parameters)))).toEqual(idsOf(log));
	});

	it('a wait that does not fit in the poll budget is not waited: the poll ends at once, says so and declares the wait', async () => {
		const parameters = dateParameters(iso(T0));
		const log = add(sequence(30, T0));
		emulator().injectFault({ kind: 'status', status: 429, retryAfterSeconds: 20 });
		const started = Date.now();
		let error: (Error & { failure?: unknown; description?: string }) | undefined;
		try {
			await pollTrigger({ credentials: credentials(), parameters, pollBudgetMs: 10_000 });
		} catch (thrown) {
			error = thrown as typeof error;
		}
		expect(Date.now() - started).toBeLessThan(5000);
		expect(error).toMatchObject({
			message: 'The new audit log entries could not be read within the poll time budget',
			failure: { cause: 'rate-limited', retryAfterMs: 20_000 },
		});
		expect(error?.description).toMatch(/asked to wait .*so the poll did not wait/);
		expect(idsOf(emitted(await poll(parameters)))).toEqual(idsOf(log));
	});

	it.each([
		['an HTTP 503', { status: 503 }, 'temporarily-unavailable'],
		['a refused key', { status: 401 }, 'credential-invalid'],
		[
			'a route that does not exist (a Base URL without /v1)',
			{ status: 404 },
			'configuration-invalid',
		],
	])('%s fails the poll declaring why', async (_name, { status }, cause) => {
		// Retry-After: 0, so a 503 is sent again at once, as many times as the poll waits one out.
		emulator().injectFault({ kind: 'status', status, count: 10, retryAfterSeconds: 0 });
		expect(await pollError(dateParameters(iso(T0)))).toMatchObject({ failure: { cause } });
	});
});

describe('polls that overlap (n8n starts a poll on every tick, whether or not the last one ended)', () => {
	const parameters = dateParameters(iso(T0));
	beforeEach(() => emulator().reset({ seed: false }));

	it('two polls started at once: the second emits nothing, the first every entry, each once', async () => {
		add(sequence(237, T0));
		const trigger = activeTrigger({ credentials: credentials(), parameters });

		const [first, second] = await Promise.all([trigger.poll(), trigger.poll()]);
		const third = await trigger.poll();

		expect(second.items).toBeNull();
		expect(idsOf(emitted(first))).toEqual(idsOf(logFrom(T0)));
		expect(third.items).toBeNull();
	});

	it('a tick during a slow poll emits nothing; the slow poll emits every entry once, and the next poll what came since', async () => {
		add(sequence(150, T0));
		emulator().setLatency(40);
		const trigger = activeTrigger({ credentials: credentials(), parameters });

		const slow = trigger.poll();
		await waitFor(() => auditRequests().length >= 1);
		const tick = await trigger.poll();
		emulator().setLatency(0);
		const slowResult = await slow;
		const later = add(sequence(3, T0 + 1000 * SECOND));
		const next = await trigger.poll();

		expect(tick.items).toBeNull();
		expect(idsOf(emitted(slowResult))).toHaveLength(150);
		expect(idsOf(emitted(next))).toEqual(idsOf(later));
	});

	it('a poll that outlasts its lease (the service stalled past it) emits and stores nothing once another poll took the lease over; the clock set back after, the next poll is not held up', async () => {
		const entries = add(sequence(3, T0));
		emulator().setLatency(300);
		const trigger = activeTrigger({
			credentials: credentials(),
			parameters,
			pollBudgetMs: 100_000,
		});
		// This machine's clock, moved on past the lease (the budget) while the first poll waits.
		const [stalledResult, overtakingResult] = await withClockMovedOn(async (moveOn) => {
			const stalled = trigger.poll();
			await waitFor(() => auditRequests().length >= 1);
			moveOn(200_000);
			return await Promise.all([stalled, trigger.poll()]);
		});
		// The clock set back again: the next poll is not held up by what the others booked.
		emulator().setLatency(0);
		const next = await trigger.poll();

		expect(stalledResult.items).toBeNull();
		expect(idsOf(emitted(overtakingResult))).toEqual(idsOf(entries));
		expect(next.items).toBeNull();
	});

	it('without a poll budget (n8n 1.x), a poll reading for longer than its lease keeps it: each page it reads renews it', async () => {
		const entries = add(sequence(250, T0));
		emulator().setLatency(200);
		// A budget that is no number of ms reads as none, as n8n 1.x gives.
		const trigger = activeTrigger({
			credentials: credentials(),
			parameters,
			pollBudgetMs: Infinity,
		});
		const [readingResult, tickResult] = await withClockMovedOn(async (moveOn) => {
			const reading = trigger.poll();
			// Four minutes pass with each of the first two pages: eight in all, past the five the
			// lease lasts without a budget, but never five since the last page.
			await waitFor(() => auditRequests().length >= 2);
			moveOn(4 * 60_000);
			await waitFor(() => auditRequests().length >= 3);
			moveOn(8 * 60_000);
			return await Promise.all([reading, trigger.poll()]);
		});

		expect(idsOf(emitted(readingResult))).toEqual(idsOf(entries));
		expect(tickResult.items).toBeNull();
	});

	it('holds back only polls of the same trigger: another workflow polling at the same time emits too', async () => {
		add(sequence(120, T0));
		const one = activeTrigger({ credentials: credentials(), parameters });
		const other = activeTrigger({ credentials: credentials(), parameters, workflowId: 'another' });

		const [fromOne, fromOther] = await Promise.all([one.poll(), other.poll()]);

		expect(emitted(fromOne)).toHaveLength(120);
		expect(emitted(fromOther)).toHaveLength(120);
	});

	it('keeps nothing of the lease in the static data n8n saves', async () => {
		add(sequence(3, T0));
		const result = await poll(parameters);
		expect(Object.keys(Object.values(result.staticData)[0] as IDataObject)).toEqual([
			'auditLogCursor',
		]);
	});
});

describe("filters that match rarely, cut by the poll's time (n8n's durable scheduler)", () => {
	const PAGE_MS = 200;
	const BUDGET_MS = 1000;
	beforeEach(() => {
		emulator().reset({ seed: false });
		// Five pages, each answered in 200 ms: a budget of 1 s leaves 800 ms to read, four pages at
		// most; the first page has 600 ms to spare on a loaded 2-core CI.
		add(sequence(499, T0));
		add([{ timestamp: iso(T0 + 499 * SECOND), event: 'Integration paused' }]);
		emulator().setLatency(PAGE_MS);
	});
	afterEach(() => emulator().setLatency(0));
	const parameters = dateParameters(iso(T0), {
		filters: { events: { texts: ['paused'] } },
		options: { lookbackSeconds: 0 },
	});
	/** A poll of the durable scheduler: the one on publishing, or a scheduled one ('update'). */
	const budgeted = (workflowId: string, staticData?: IDataObject, scheduled = true) =>
		pollTrigger({
			credentials: credentials(),
			parameters,
			pollBudgetMs: BUDGET_MS,
			workflowId,
			staticData,
			activation: scheduled ? 'update' : 'activate',
		});

	it.each([
		[
			'with durable poll cursors (n8n keeps the cursor of a poll that emits nothing)',
			'durable-cursors',
		],
		["under n8n's default scheduler (static data shared in memory)", 'default-scheduler'],
		[
			'without durable poll cursors (n8n keeps static data only when a poll emits): what this process stored stands in',
			'durable-scheduler',
		],
	])(
		'%s, goes on from where the last poll got to and emits the match, with no error',
		async (_label, workflowId) => {
			const shared = activeTrigger({
				credentials: credentials(),
				parameters,
				pollBudgetMs: BUDGET_MS,
				workflowId,
			});
			// Without durable cursors every poll gets the static data saved on publishing again.
			const published =
				workflowId === 'default-scheduler'
					? undefined
					: (await budgeted(workflowId, undefined, false)).staticData;
			let staticData = published;
			let result: PollResult | undefined;
			for (let polls = 0; polls < 20 && !result?.items; polls++) {
				result =
					workflowId === 'default-scheduler'
						? await shared.poll()
						: await budgeted(workflowId, workflowId === 'durable-cursors' ? staticData : published);
				staticData = result.staticData;
			}
			expect(emitted(result!).map(({ event }) => event)).toEqual(['Integration paused']);
		},
	);

	it('without durable poll cursors, a start from now that n8n never kept (no poll on publishing) emits what is logged after it, and again when n8n dropped that result too (a poll abandoned past its timeout)', async () => {
		emulator().setLatency(0);
		const now = () =>
			pollTrigger({
				credentials: credentials(),
				parameters: { startFrom: 'now' },
				workflowId: 'now-not-kept',
				activation: 'update',
			});
		expect((await now()).items).toBeNull();
		const logged = add([{ timestamp: iso(T0 + 600 * SECOND), event: 'Logged after the start' }]);
		expect(emitted(await now())).toEqual(logged);
		// n8n kept nothing of that poll either: the next one reads from the same start again.
		expect(emitted(await now())).toEqual(logged);
	});

	it('without durable poll cursors, reads on from a cursor another main moved on since, not from what this process stored', async () => {
		emulator().setLatency(0);
		// Another main is the same workflow in another process: another id here, for its memory.
		const run = (workflowId: string, staticData?: IDataObject) =>
			pollTrigger({
				credentials: credentials(),
				parameters,
				workflowId,
				staticData,
				activation: 'update',
			});
		const first = await run('this-main');
		expect(emitted(first)).toHaveLength(1);
		add(sequence(10, T0 + 500 * SECOND));
		expect((await run('this-main', first.staticData)).items).toBeNull();
		add([{ timestamp: iso(T0 + 600 * SECOND), event: 'Integration paused' }]);
		const elsewhere = await run('another-main', first.staticData);
		expect(emitted(elsewhere)).toHaveLength(1);
		expect((await run('this-main', elsewhere.staticData)).items).toBeNull();
	});

	it('without durable poll cursors, starts over when Start Date changes, whatever this process stored', async () => {
		emulator().setLatency(0);
		const from = (startDate: string, texts: string[]) =>
			pollTrigger({
				credentials: credentials(),
				parameters: { ...parameters, startDate, filters: { events: { texts } } },
				workflowId: 'start-changed',
				activation: 'update',
			});
		expect((await from(iso(T0), ['nothing matches'])).items).toBeNull();
		const later = await from(iso(T0 + 400 * SECOND), ['paused']);
		expect(emitted(later).map(({ event }) => event)).toEqual(['Integration paused']);
	});

	it('without durable poll cursors, a poll that reads to the end and emits nothing returns nothing, with no error', async () => {
		emulator().setLatency(0);
		const nothingMatches = { ...parameters, filters: { events: { texts: ['nothing matches'] } } };
		const unbudgeted = (staticData?: IDataObject) =>
			pollTrigger({
				credentials: credentials(),
				parameters: nothingMatches,
				pollBudgetMs: 60_000,
				workflowId: 'read-to-the-end',
				staticData,
				activation: 'update',
			});
		const published = (await unbudgeted()).staticData;
		add(sequence(99, T0 + 500 * SECOND));
		const read = await unbudgeted(published);
		expect(read.items).toBeNull();
		expect(cursorOf(read.staticData)!.cursor > cursorOf(published)!.cursor).toBe(true);
		// The store of that poll was not kept, but the poll was not cut: no error.
		expect((await unbudgeted(published)).items).toBeNull();
	});

	it('a poll cut with nothing to emit, after one that emitted and a cursor another poll moved on (another main), reads on, with no error', async () => {
		const run = (workflowId: string, pollBudgetMs: number, staticData?: IDataObject) =>
			pollTrigger({
				credentials: credentials(),
				parameters,
				pollBudgetMs,
				workflowId,
				staticData,
				activation: 'update',
			});
		emulator().setLatency(0);
		const here = await run('moved-elsewhere', 60_000);
		expect(emitted(here)).toHaveLength(1);
		add([{ timestamp: iso(T0 + 600 * SECOND), event: 'Integration paused' }]);
		const elsewhere = await run('another-main', 60_000, here.staticData);
		expect(emitted(elsewhere)).toHaveLength(1);
		add(sequence(499, T0 + 700 * SECOND));
		emulator().setLatency(PAGE_MS);
		expect((await run('moved-elsewhere', BUDGET_MS, elsewhere.staticData)).items).toBeNull();
	});

	it("under n8n's default scheduler, a poll cut with nothing to emit after one that emitted reads on, with no error", async () => {
		const shared = activeTrigger({
			credentials: credentials(),
			parameters,
			pollBudgetMs: BUDGET_MS,
			workflowId: 'after-an-emit',
		});
		let result: PollResult | undefined;
		for (let polls = 0; polls < 20 && !result?.items; polls++) result = await shared.poll();
		expect(emitted(result!)).toHaveLength(1);
		add(sequence(499, T0 + 500 * SECOND));
		expect((await shared.poll()).items).toBeNull();
	});
});

describe('a service that evolves', () => {
	beforeEach(() => emulator().reset({ seed: false }));

	it('re-emits nothing when it starts adding a field, reordering fields and writing timestamps differently', async () => {
		add(
			Array.from({ length: 12 }, (_, i) => ({
				timestamp: i % 2 ? iso(T0 + i * SECOND).replace('.000Z', 'Z') : iso(T0 + i * SECOND),
			})),
		);
		const parameters = dateParameters(iso(T0), { options: { lookbackSeconds: 3600 } });
		const first = await poll(parameters);
		expect(emitted(first)).toHaveLength(12);

		emulator().store.auditLogVariant = { restyledEntries: true };
		const later = add(sequence(2, T0 + 60 * SECOND));
		const second = await poll(parameters, first.staticData);

		expect(idsOf(emitted(second))).toEqual(idsOf(later));
		expect(emitted(second)[0]).toHaveProperty('region');
	});
});

describe('a service that ignores the offset (every page starts at the first entry)', () => {
	beforeEach(() => emulator().reset({ seed: false }));

	it('is read by time: from the newest entry read, oldest first, each entry once and in order', async () => {
		const log = add(sequence(237, T0));
		emulator().store.auditLogVariant = OFFSET_IGNORED;

		const first = await poll(dateParameters(iso(T0)));

		expect(idsOf(emitted(first))).toEqual(idsOf(log));
		// The first page, the one repeating it, the newest page (the probe), the first page asked by
		// time, and two more: each from the newest instant read.
		expect(
			auditRequests().map(({ query }) => [query.offset, query.sortOrder, query.startTime]),
		).toEqual([
			['0', 'asc', iso(T0)],
			['100', 'asc', iso(T0)],
			['0', 'desc', iso(T0)],
			['0', 'asc', iso(T0)],
			['0', 'asc', iso(T0 + 99 * SECOND)],
			['0', 'asc', iso(T0 + 198 * SECOND)],
		]);
		expect((await poll(dateParameters(iso(T0)), first.staticData)).items).toBeNull();
	});
});

describe('manual mode (Fetch Test Event)', () => {
	it('returns the newest matching entry and leaves the static data alone', async () => {
		const stored = (await poll(dateParameters('2026-10-30T00:00:00Z'))).staticData;
		const before = JSON.stringify(stored);
		const newest = logFrom(0).reverse();

		const any = await pollTrigger({
			credentials: credentials(),
			parameters: dateParameters('2026-10-30T00:00:00Z'),
			staticData: stored,
			mode: 'manual',
		});
		expect(emitted(any)).toEqual([newest[0]]);
		expect(JSON.stringify(any.staticData)).toBe(before);
		// Newest first: the newest entry is on the first page, whatever the log's length.
		expect(auditRequests().at(-1)!.query.sortOrder).toBe('desc');

		const filters = { events: { texts: ['SYNC FAILED'] } };
		const matching = await pollTrigger({
			credentials: credentials(),
			parameters: { startFrom: 'now', filters },
			mode: 'manual',
		});
		const expected = newest.find((item) => item.event === 'Sync failed');
		expect(expected).toBeDefined();
		expect(emitted(matching)).toEqual([expected]);
		expect(matching.staticData).toEqual({});
	});

	it('says plainly that nothing matches', async () => {
		const error = await pollError(
			{ startFrom: 'now', filters: { actorEmails: { emails: ['nobody@example.com'] } } },
			undefined,
			'manual',
		);
		expect(error.message).toBe('No audit log entry matches the filters');
		expect(error.description).toContain(`None of the newest ${SEED.audit.count} entries matches`);
		expect(error).toMatchObject({ failure: { cause: 'configuration-invalid' } });
	});

	it('says plainly that the log is empty', async () => {
		emulator().reset({ seed: false });
		const error = await pollError({ startFrom: 'now' }, undefined, 'manual');
		expect(error.message).toBe('The audit log has no entries yet');
		expect(error.description).toBe('Try again once the service has logged an event.');
		expect(error).toMatchObject({ failure: { cause: 'temporarily-unavailable' } });
	});
});

describe('the API key', () => {
	it('never appears in the static data or in error messages', async () => {
		const { apiKey } = credentials();
		const ok = await poll(dateParameters('2026-10-01T00:00:00Z'));
		expect(ok.items).toHaveLength(SEED.audit.count);
		expect(JSON.stringify(ok.staticData)).not.toContain(apiKey);

		emulator().injectFault({ kind: 'status', status: 500, path: '/audit-logs', message: 'boom' });
		const failed = await pollError(dateParameters('2026-10-01T00:00:00Z'));
		const refused = await pollTrigger({
			credentials: { ...credentials(), apiKey: `${apiKey}-wrong` },
			parameters: dateParameters('2026-10-01T00:00:00Z'),
		}).then(
			() => undefined,
			(error: Error & { description?: string }) => error,
		);
		expect(refused?.message).toMatch(/invalid API key/);
		for (const error of [failed, refused!]) {
			const text = [error.message, error.description, error.stack, JSON.stringify(error)].join(
				'\n',
			);
			expect(text).not.toContain(apiKey);
		}
	});
});

/** Resolves once `check` holds, looking every few ms (the emulator answers on loopback). */
/** Runs `work` with this machine's clock (Date.now) moved on by what it gives `moveOn`, then puts it back. */
async function withClockMovedOn<T>(work: (moveOn: (ms: number) => void) => Promise<T>): Promise<T> {
	const realNow = Date.now;
	let movedOnMs = 0;
	const clock = jest.spyOn(Date, 'now').mockImplementation(() => realNow() + movedOnMs);
	try {
		return await work((ms) => (movedOnMs = ms));
	} finally {
		clock.mockRestore();
	}
}

async function waitFor(check: () => boolean): Promise<void> {
	for (let tries = 0; !check(); tries++) {
		if (tries > 2000) throw new Error('the condition never held');
		await sleep(5);
	}
}
