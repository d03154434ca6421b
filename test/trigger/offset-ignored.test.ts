/**
 * The trigger against services that ignore the page offset (every page starts at the first entry;
 * test/emulator/variants.ts's OFFSET_IGNORED), through n8n-core's PollContext over HTTP: combined
 * with every other service profile, it reads on by time where the service honours startTime and
 * the order, each entry once and in order, and fails saying what to do where it cannot.
 * The rules are table-tested in test/client/auditLogByTime.test.ts; the exactly-once schedules
 * (./exactly-once.test.ts) run each combination too.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { AuditLogEntry } from '../../nodes/DataIntegrationManagement/client/types';
import {
	OFFSET_IGNORED,
	SERVICE_VARIANTS,
	servedWithoutReadableTimestamp,
	withOffsetIgnored,
	type NewAuditEntry,
	type ServiceVariant,
} from '../emulator';
import { onRequestArrival, useEmulator } from '../helpers/emulator';
import { pollTrigger, type PollResult } from '../helpers/n8n';

const { emulator, credentials } = useEmulator();

const SECOND = 1000;
const HOUR = 3600 * SECOND;
const iso = (instant: number) => new Date(instant).toISOString();

async function poll(parameters: INodeParameters, staticData?: IDataObject): Promise<PollResult> {
	return await pollTrigger({ credentials: credentials(), parameters, staticData });
}
const traces = (result: PollResult) =>
	(result.items ?? []).map((item) => (item.json as unknown as AuditLogEntry).context.userAgent);
const auditRequests = () => emulator().requests.filter((request) => request.path === '/audit-logs');

/** What the trigger says where it cannot read past the first page. */
const NOT_BY_TIME = {
	message:
		'The service ignores the audit-log paging parameter "offset" and does not answer oldest first from the "startTime" asked either, so the trigger cannot read past the first page',
	failure: { cause: 'configuration-invalid' },
};

/**
 * `count` entries from `from` on, traced by their user agent (which every service serves as
 * written): a second apart, with runs of up to three sharing one instant.
 */
function entries(count: number, from: number, label: string): NewAuditEntry[] {
	return Array.from({ length: count }, (_, i) => ({
		timestamp: iso(from + Math.floor(i / 3) * SECOND + (i % 3 === 2 ? 1 : 0)),
		event: `${label} ${i}`,
		context: { ipAddress: '10.0.0.1', userAgent: `${label}-${i}` },
	}));
}

/** Every profile the tests know, with the offset ignored too, and what the trigger must do. */
const PROFILES: Array<[string, ServiceVariant, 'exactly once' | typeof NOT_BY_TIME]> = [
	...Object.entries(SERVICE_VARIANTS).map(([name, variant]): (typeof PROFILES)[number] => {
		const byTime = !variant.fixedOrder && !variant.ignoreTimeBounds && !variant.unknownNames;
		return [name, withOffsetIgnored(variant), byTime ? 'exactly once' : NOT_BY_TIME];
	}),
	[
		'pages of 7, odd ids and timestamps',
		withOffsetIgnored({ pageSizeCap: 7, oddIds: true, oddTimestamps: true }),
		'exactly once',
	],
];

describe('after a start from now, 150 new entries', () => {
	it.each(PROFILES)('the offset ignored, %s', async (_, variant, outcome) => {
		emulator().reset({ seed: false });
		emulator().store.auditLogVariant = variant;
		const start = Date.now() - HOUR;
		emulator().addAuditEntries(entries(30, start, 'before'));
		const parameters = { startFrom: 'now' };
		const first = await poll(parameters);
		expect(first.items).toBeNull();
		// Stamped after the start, which is the service's present when its newest entry is unreadable.
		const logged = emulator().addAuditEntries(entries(150, Date.now() + 2 * SECOND, 'after'));

		if (outcome !== 'exactly once') {
			await expect(poll(parameters, first.staticData)).rejects.toMatchObject(outcome);
			return;
		}
		const second = await poll(parameters, first.staticData);
		const third = await poll(parameters, second.staticData);
		expect(third.items).toBeNull();
		const traced = logged.map((entry) => entry.context.userAgent);
		// Entries served without a readable timestamp have no order of their own to keep.
		const unreadable = new Set(
			traced.filter((__, i) => variant.oddTimestamps && servedWithoutReadableTimestamp(30 + i)),
		);
		expect(traces(second).sort()).toEqual([...traced].sort());
		expect(traces(second).filter((trace) => !unreadable.has(trace))).toEqual(
			traced.filter((trace) => !unreadable.has(trace)),
		);
	});
});

describe('more entries at one instant than a page holds (pages of 7)', () => {
	const tieAt = Date.parse('2026-11-01T00:01:00.000Z');
	const parameters = { startFrom: 'date', startDate: '2026-11-01T00:00:00.000Z' };
	const tied = (count: number): NewAuditEntry[] =>
		Array.from({ length: count }, (_, i) => ({ timestamp: iso(tieAt), event: `tied ${i}` }));

	beforeEach(() => {
		emulator().reset({ seed: false });
		emulator().store.auditLogVariant = { pageSizeCap: 7, ...OFFSET_IGNORED };
		emulator().addAuditEntries([
			{ timestamp: '2026-11-01T00:00:30.000Z', event: 'before' },
			{ timestamp: '2026-11-01T00:00:31.000Z', event: 'before' },
		]);
	});

	it('fails saying which instant, and what gets past it; nothing emitted, the cursor stays', async () => {
		emulator().addAuditEntries([
			...tied(8),
			{ timestamp: '2026-11-01T00:02:00.000Z', event: 'after' },
		]);
		const error = (await poll(parameters).catch((thrown: unknown) => thrown)) as Error & {
			description: string;
		};
		expect(error).toMatchObject({
			message:
				'More audit log entries share one instant (2026-11-01T00:01:00.000Z) than the service answers in a page, so the trigger cannot read past them',
			failure: { cause: 'configuration-invalid' },
		});
		expect(error.description).toContain(
			'To go on, set Start From to A Date and Start Date to a time after 2026-11-01T00:01:00.000Z: the entries at that instant not emitted yet are skipped.',
		);
		// As the error says: from a date after that instant, the trigger reads on.
		const after = await poll({ ...parameters, startDate: '2026-11-01T00:01:00.001Z' });
		expect((after.items ?? []).map((item) => item.json.event)).toEqual(['after']);
	});

	it("from now, its newest page all at one instant: starts at the service's present after two requests, and emits only what follows", async () => {
		emulator().addAuditEntries(tied(8));
		const before = Date.now();
		const started = await poll({ startFrom: 'now' });
		expect(started.items).toBeNull();
		expect(auditRequests()).toHaveLength(2);
		// The end of the second the service's Date header names: after every entry it had.
		const node = Object.keys(started.staticData).find((key) => key.startsWith('node:'))!;
		const { floor: stored } = (started.staticData[node] as IDataObject)
			.auditLogCursor as IDataObject;
		const floor = Date.parse(stored as string);
		expect(floor % SECOND).toBe(0);
		expect(floor).toBeGreaterThan(before);
		expect(floor).toBeLessThanOrEqual(Date.now() + SECOND);
		emulator().addAuditEntries([{ timestamp: iso(Date.now() + SECOND), event: 'after' }]);
		const next = await poll({ startFrom: 'now' }, started.staticData);
		expect((next.items ?? []).map((item) => item.json.event)).toEqual(['after']);
	});

	it('Fetch Test Event searches the first page, and says none of its entries matches', async () => {
		emulator().addAuditEntries(tied(8));
		const filters = { actorEmails: { emails: ['nobody@example.com'] } };
		const error = (await pollTrigger({
			credentials: credentials(),
			parameters: { startFrom: 'now', filters },
			mode: 'manual',
		}).catch((thrown: unknown) => thrown)) as Error & { description: string };
		expect(error.message).toBe('No audit log entry matches the filters');
		expect(error.description).toContain(
			'None of the 7 entries the service answered matches (it ignores the paging parameter "offset", so no later page could be read).',
		);
		expect(auditRequests()).toHaveLength(2);
	});

	it('Fetch Test Event against a service answering oldest first too: says it cannot find the newest entries', async () => {
		emulator().store.auditLogVariant = withOffsetIgnored({ pageSizeCap: 7, fixedOrder: 'asc' });
		emulator().addAuditEntries([...tied(8), { timestamp: iso(tieAt + SECOND), event: 'newest' }]);
		const error = (await pollTrigger({
			credentials: credentials(),
			parameters: { startFrom: 'now' },
			mode: 'manual',
		}).catch((thrown: unknown) => thrown)) as Error & { description: string };
		expect(error.message).toBe('Fetch Test Event cannot find the newest audit log entries');
		expect(error.description).toContain('Publish the workflow (activate it, in n8n 1.x) instead');
		expect(auditRequests()).toHaveLength(2);
	});

	it('reads a page of entries at one instant that ends the log', async () => {
		emulator().addAuditEntries(tied(7));
		const first = await poll(parameters);
		expect((first.items ?? []).map((item) => item.json.event)).toEqual([
			'before',
			'before',
			...tied(7).map((entry) => entry.event),
		]);
		expect((await poll(parameters, first.staticData)).items).toBeNull();
	});
});

describe('an entry logged during a read by time, behind what it had read', () => {
	const t0 = Date.parse('2026-11-01T00:00:00.000Z');
	const traced = (label: string, at: number): NewAuditEntry => ({
		timestamp: iso(at),
		event: label,
		context: { ipAddress: '10.0.0.1', userAgent: label },
	});
	const backlog = entries(150, t0, 'backlog');
	const backlogTraces = backlog.map((entry) => entry.context!.userAgent);

	// 150 entries over 50 s: the first page ends at 00:00:33, the second repeats it, the third is
	// the newest page, the fourth the first page again, the fifth the first from 00:00:33. The late
	// entry is within a minute of the newest entry then logged (00:00:49), so it must be emitted.
	it.each<[string, number, number, string[], string[]]>([
		// title, the request it is logged at, the first poll's requests, what each poll emits
		[
			'logged as the first request by time is sent: the next poll emits it',
			5,
			5,
			[...backlogTraces, 'far ahead'],
			['late'],
		],
		[
			'logged as the newest page is asked for, so that page shows the far newer one: the first page asked again shows the late one, and the read ends there',
			3,
			4,
			backlogTraces.slice(0, 100),
			['late', ...backlogTraces.slice(100), 'far ahead'],
		],
	])(
		'%s, though a far newer entry logged with it moved past it',
		async (_, request, requests, firstPoll, secondPoll) => {
			emulator().reset({ seed: false });
			emulator().store.auditLogVariant = OFFSET_IGNORED;
			emulator().addAuditEntries(backlog);
			const parameters = {
				startFrom: 'date',
				startDate: iso(t0),
				options: { lookbackSeconds: 60 },
			};
			const unhook = onRequestArrival(emulator(), () => {
				if (auditRequests().length !== request) return;
				emulator().addAuditEntries([
					traced('late', t0 + 20 * SECOND),
					traced('far ahead', t0 + HOUR),
				]);
			});
			let first: PollResult;
			try {
				first = await poll(parameters);
			} finally {
				unhook();
			}
			expect(auditRequests()).toHaveLength(requests);
			const second = await poll(parameters, first.staticData);
			const third = await poll(parameters, second.staticData);

			expect(traces(first)).toEqual(firstPoll);
			expect(traces(second)).toEqual(secondPoll);
			expect(third.items).toBeNull();
		},
	);
});
