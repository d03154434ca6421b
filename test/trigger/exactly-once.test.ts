/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, no-console -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * Exactly once, checked over many random schedules of writes, polls, failures and crashes.
 *
 * THE CONTRACT checked here. Let F be the floor: the start date (startFrom: date), or the start the
 * first poll recorded (startFrom: now: the newest instant then in the log, the current instant
 * when the log is empty, or the service's present at its first answer when n8n's poll budget cut
 * that read short or the service ignored the offset); let L be the lookback. With startFrom: now, the entries visible when the
 * first poll ran are never emitted, even those exactly at F. Entries become visible in
 * batches (one addAuditEntries call, atomic in the emulator), between polls or during one (while
 * a page request of the poll is in flight). For an entry E, let N(E) be the newest timestamp
 * among the entries visible just before E's batch appeared (none: -infinity). Then
 *   - E must be emitted exactly once when it matches the filters, E >= F, and E >= N(E) - L
 *     ("on time": no more than the lookback behind the newest entry then visible), whatever caps,
 *     failed polls, crashed polls and concurrent writes came before or after it;
 *   - E may be emitted, at most once, when it matches, E >= F, but E < N(E) - L (too late: a
 *     poll still reaches it only if the cursor lagged behind, e.g. because of the cap);
 *   - E is never emitted when it does not match the filters or E < F.
 * Timestamps are compared as instants (entries are written with and without milliseconds, with Z
 * or an offset). Counted are the items of kept polls: polls that returned, whose static data was
 * stored and handed to the next poll. A crashed poll (n8n died before it saved the static data,
 * so it never started the executions either) is dropped with its items; a failed poll (500, 429
 * beyond the retries, dropped connection, malformed body) throws and stores nothing. Each
 * schedule ends by draining: polls without faults or writers until one returns null.
 *
 * Every poll goes through n8n-core's PollContext over HTTP to the emulator, starting from the
 * stored JSON only. Writes during a poll are made when a chosen page request reaches the
 * emulator (before it is answered), or, in some schedules, by timers while every request waits
 * out a small latency. Seed and count: EXACTLY_ONCE_SEED, EXACTLY_ONCE_SCHEDULES (100 in npm test,
 * 1,000 in `npm run test:full`, which CI runs while the end-to-end tests wait): shared among the
 * variants, as many per twist, half as many per variant with the offset ignored, about twice the
 * count in all. The seed fixes
 * every random choice; only the timer-driven writes and the wall clock of "now" schedules vary
 * from run to run.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { AuditLogEntry } from '../../nodes/DataIntegrationManagement/client/types';
import {
	SERVICE_VARIANTS,
	servedWithoutReadableTimestamp,
	withOffsetIgnored,
	type FaultSpec,
	type NewAuditEntry,
	type RecordedRequest,
	type ServiceVariant,
} from '../emulator';
import { onRequestArrival, useEmulator } from '../helpers/emulator';
import { activeTrigger, type PollResult } from '../helpers/n8n';
import { seededRandom } from '../helpers/random';
import { atScale } from '../helpers/scale';

const { emulator, credentials } = useEmulator();

const SEED = Number(process.env.EXACTLY_ONCE_SEED ?? 20261122);
const SCHEDULES = Number(process.env.EXACTLY_ONCE_SCHEDULES ?? atScale(100, 1000));

const SECOND = 1000;
const DATE_START = Date.parse('2026-11-01T00:00:00.000Z');

/** Seeded random choices: the same for one seed. */
function createRandom(seed: number) {
	const next = seededRandom(seed);
	const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
	const chance = (p: number) => next() < p;
	const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)];
	return { next, int, chance, pick };
}
type Random = ReturnType<typeof createRandom>;

const ACTORS = [
	{ type: 'user', email: 'maya.patel@northwind-data.example' },
	{ type: 'api_key', email: 'lucas.moreau@northwind-data.example' },
	{ type: 'system', email: 'system@northwind-data.example' },
];
const EVENTS = [
	'Integration paused',
	'Integration PAUSED by schedule',
	'Tag created',
	'Sync failed',
	'Schema change detected',
];
const FILTERS: Array<{ filters: IDataObject; matches: (entry: AuditLogEntry) => boolean }> = [
	{
		filters: { events: { texts: ['Paused', 'SYNC'] } },
		matches: (entry) => /paused|sync/i.test(entry.event),
	},
	{
		filters: { actorTypes: { types: ['USER'], match: 'allBut' } },
		matches: (entry) => entry.actor.type !== 'user',
	},
	{
		filters: { actorEmails: { emails: ['Lucas.Moreau@Northwind-Data.example'] } },
		matches: (entry) => entry.actor.type === 'api_key',
	},
];

/** The same instant in one of the notations the API may use. */
function notation(random: Random, instant: number): string {
	const utc = new Date(instant).toISOString();
	const style = random.int(0, 3);
	if (style === 1 && instant % SECOND === 0) return utc.replace('.000Z', 'Z');
	if (style === 2)
		return `${new Date(instant + 2 * 3600 * SECOND).toISOString().slice(0, 23)}+02:00`;
	if (style === 3)
		return `${new Date(instant - 5 * 3600 * SECOND).toISOString().slice(0, 19)}${instant % SECOND === 0 ? '' : `.${String(instant % SECOND).padStart(3, '0')}`}-05:00`;
	return utc;
}

/**
 * The service's present bounds how new an entry counts as, in the contract as in the trigger: an
 * entry stamped in the future moves N(E) no further than the moment E was written (plus the
 * second the service's Date header rounds off).
 */
const PRESENT_TOLERANCE = SECOND;

interface Tracked {
	entry: AuditLogEntry;
	instant: number;
	/** Newest instant visible just before this entry's batch. */
	newestBefore: number;
	emitted: number;
	/** Visible when the first poll of a startFrom: now schedule ran. */
	atActivation: boolean;
	/**
	 * Served without a readable timestamp: the trigger can only tell it lies between its
	 * neighbours, so next to the start it may be emitted though it is (just) before it.
	 */
	unreadable: boolean;
}

const BEFORE_ACTIVATION = 'before activation';

interface Totals {
	schedules: number;
	futureEntries: number;
	oddTimestamps: number;
	polls: number;
	failedPolls: number;
	crashedPolls: number;
	/** Kept polls that ran together with a second poll of the same trigger. */
	overlappingPolls: number;
	concurrentBatches: number;
	entries: number;
	mustEmit: number;
	/** Too late but matching and inside the floor: may be emitted, once at most. */
	mayEmit: number;
	emitted: number;
	emittedOfMayEmit: number;
	lost: number;
	duplicated: number;
	outsideFloor: number;
	unmatched: number;
	notDrained: number;
	badOrder: number;
	overCap: number;
	unboundedState: number;
	/** Polls that failed as the trigger says where it cannot read on (a service it cannot page). */
	cannotReadOn: number;
	/** Polls without an injected fault or entries logged meanwhile that failed otherwise. */
	unexplainedFailures: number;
	/** Pages asked newest first from a start: the probe of a read by time (or a newest-first read). */
	probes: number;
}

const newTotals = (): Totals => ({
	schedules: 0,
	futureEntries: 0,
	oddTimestamps: 0,
	polls: 0,
	failedPolls: 0,
	crashedPolls: 0,
	overlappingPolls: 0,
	concurrentBatches: 0,
	entries: 0,
	mustEmit: 0,
	mayEmit: 0,
	emitted: 0,
	emittedOfMayEmit: 0,
	lost: 0,
	duplicated: 0,
	outsideFloor: 0,
	unmatched: 0,
	notDrained: 0,
	badOrder: 0,
	overCap: 0,
	unboundedState: 0,
	cannotReadOn: 0,
	unexplainedFailures: 0,
	probes: 0,
});
let totals = newTotals();

/** Identifies a written entry whatever the service does to its id and timestamp. */
let traceCounter = 0;

/** Called with every request the emulator records, as it arrives and before it is answered. */
let onArrival: ((request: RecordedRequest) => void) | undefined;

interface Cursor {
	floor: string;
	cursor: string;
	seen: Record<string, number>;
}

/** The trigger's words where it cannot read on: a service it cannot page, declared for n8n. */
function saysItCannotReadOn(error: unknown): boolean {
	const { message, failure } = error as { message?: string; failure?: { cause?: string } };
	return (
		failure?.cause === 'configuration-invalid' &&
		/^(The service ignores the audit-log paging parameter|More audit log entries share one instant)/.test(
			message ?? '',
		)
	);
}

/** One schedule: a fresh log, random settings, random steps, then the drain and the checks. */
class Schedule {
	readonly log: string[] = [];
	/** By trace (the entry's context.userAgent), which the service serves unchanged. */
	private readonly tracked = new Map<string, Tracked>();
	private newestVisible = -Infinity;
	private clock: number;
	private floor?: number;
	private staticData: IDataObject | undefined;
	private readonly parameters: INodeParameters;
	private readonly matches: (entry: AuditLogEntry) => boolean;
	private readonly lookbackMs: number;
	private readonly cap: number;
	/** How many entries each instant holds, when `atOneInstant` bounds it. */
	private readonly atInstant = new Map<number, number>();
	private readonly twist?: Twist;
	private readonly atOneInstant?: number;
	/** The trigger may fail saying it cannot read on (a service it cannot page): it ends there. */
	private readonly cannotReadOn: boolean;
	/** It did, at a poll without a fault: what follows is not read, so none of it counts as lost. */
	private stuck = false;
	private readonly overAPage: boolean;

	constructor(
		private readonly random: Random,
		readonly mode: 'now' | 'date',
		private readonly variant: ServiceVariant,
		{
			twist,
			atOneInstant,
			cannotReadOn = false,
			overAPage = false,
		}: {
			twist?: Twist;
			/** At most this many entries at one instant: fewer than the service's page holds. */
			atOneInstant?: number;
			cannotReadOn?: boolean;
			/** More to read than a page holds, more often: a backlog of a page or more, no cap half the time. */
			overAPage?: boolean;
		} = {},
	) {
		this.twist = twist;
		this.atOneInstant = atOneInstant;
		this.cannotReadOn = cannotReadOn;
		this.overAPage = overAPage;
		this.lookbackMs = random.chance(0.2) ? 0 : random.int(1, 120) * SECOND;
		this.cap = random.chance(overAPage ? 0.5 : 0.25) ? 1000 : random.int(10, 150);
		const filter = random.chance(0.3) ? random.pick(FILTERS) : undefined;
		this.matches = filter?.matches ?? (() => true);
		const options: IDataObject = { lookbackSeconds: this.lookbackMs / SECOND };
		if (this.cap !== 1000 || random.chance(0.5)) options.maxItemsPerPoll = this.cap;
		this.parameters = (
			mode === 'date'
				? {
						startFrom: 'date',
						startDate: notation(random, DATE_START),
						filters: filter?.filters ?? {},
						options,
					}
				: { startFrom: 'now', filters: filter?.filters ?? {}, options }
		) as INodeParameters;
		this.clock = mode === 'date' ? DATE_START - 60 * SECOND : Date.now() - 3600 * SECOND;
		if (mode === 'date') this.floor = DATE_START;
		this.log.push(
			`${mode} lookback=${this.lookbackMs / SECOND}s cap=${this.cap} filter=${JSON.stringify(filter?.filters ?? {})}`,
		);
	}

	/** Makes one batch visible; N(E) is the newest instant before it. */
	add(written: number[], label: string): void {
		const random = this.random;
		const instants = written.map((instant) => this.spread(instant));
		const batch: NewAuditEntry[] = instants.map((instant) => ({
			timestamp: notation(random, instant),
			event: random.pick(EVENTS),
			actor: { ...random.pick(ACTORS) },
			context: { ipAddress: '10.0.0.1', userAgent: `trace-${++traceCounter}` },
		}));
		const newestBefore = Math.min(this.newestVisible, Date.now() + PRESENT_TOLERANCE);
		let position = emulator().store.auditEntries.length;
		for (const entry of emulator().addAuditEntries(batch)) {
			const unreadable =
				this.variant.oddTimestamps === true && servedWithoutReadableTimestamp(position++);
			const instant = Date.parse(entry.timestamp);
			this.tracked.set(entry.context.userAgent, {
				entry,
				instant,
				newestBefore,
				emitted: 0,
				atActivation: label === BEFORE_ACTIVATION,
				unreadable,
			});
			this.newestVisible = Math.max(this.newestVisible, instant);
		}
		this.log.push(
			`${label}: +${instants.length} [${instants.map((i) => i - DATE_START).join(',')}]`,
		);
	}

	/** `instant`, or the next millisecond that holds fewer than `atOneInstant` entries. */
	private spread(instant: number): number {
		let at = instant;
		while (this.atOneInstant !== undefined && (this.atInstant.get(at) ?? 0) >= this.atOneInstant)
			at++;
		this.atInstant.set(at, (this.atInstant.get(at) ?? 0) + 1);
		return at;
	}

	/** Fresh entries from the clock on; some share a timestamp, some jump further than the lookback. */
	fresh(count: number): number[] {
		const random = this.random;
		return Array.from({ length: count }, () => {
			this.clock += random.pick([
				0,
				0,
				random.int(1, 999),
				random.int(1, 5) * SECOND,
				random.int(60, 300) * SECOND,
			]);
			return this.clock;
		});
	}

	/** Entries behind the newest visible one: inside the lookback, or (too late) outside it. */
	late(count: number, tooLate: boolean): number[] {
		const random = this.random;
		const newest = Number.isFinite(this.newestVisible) ? this.newestVisible : this.clock;
		return Array.from({ length: count }, () =>
			tooLate
				? newest - this.lookbackMs - random.int(1, 90 * SECOND)
				: newest - random.int(0, this.lookbackMs),
		);
	}

	/** A random batch of writes: fresh, late, too late, or more than a page sharing one timestamp. */
	randomWrite(label: string): void {
		const random = this.random;
		const kind = random.int(0, 9);
		if (this.variant.oddTimestamps && random.chance(0.1)) {
			// Stamped far ahead of the service's present, amid entries stamped as usual.
			totals.futureEntries++;
			this.add(
				[Date.now() + random.int(1, 365) * 86400 * SECOND, ...this.fresh(random.int(0, 5))],
				`${label} future`,
			);
		} else if (kind <= 4) this.add(this.fresh(random.int(1, 25)), `${label} fresh`);
		else if (kind <= 6) this.add(this.late(random.int(1, 4), false), `${label} late`);
		else if (kind === 7) this.add(this.late(random.int(1, 3), true), `${label} too-late`);
		else if (kind === 8)
			this.add(
				[...this.late(random.int(1, 3), false), ...this.fresh(random.int(1, 10))],
				`${label} late+fresh`,
			);
		else if (random.chance(0.5)) {
			const [instant] = this.fresh(1);
			this.add(Array<number>(random.int(101, 230)).fill(instant), `${label} tie`);
		} else this.add(this.fresh(random.int(1, 5)), `${label} fresh`);
	}

	/**
	 * Writes while a poll runs: a batch when the poll's `writeAtRequest`-th request arrives, and
	 * `latencyWrites` batches on timers while every answer is slowed by 1 to 3 ms.
	 */
	private scheduleWrites(how: {
		writeAtRequest?: number;
		latencyWrites?: number;
	}): Array<Promise<void>> {
		const random = this.random;
		let arrivals = 0;
		if (how.writeAtRequest !== undefined) {
			onArrival = (request) => {
				if (request.path !== '/audit-logs' || ++arrivals !== how.writeAtRequest) return;
				totals.concurrentBatches++;
				this.randomWrite(`during poll, at request ${arrivals}`);
				if (random.chance(0.5)) this.randomWrite(`during poll, at request ${arrivals}`);
			};
		}
		const writers: Array<Promise<void>> = [];
		if (how.latencyWrites) {
			emulator().setLatency(random.int(1, 3));
			for (let i = 0; i < how.latencyWrites; i++) {
				const wait = random.int(0, 8);
				const label = `timer ${wait}ms`;
				writers.push(
					delay(wait).then(() => {
						totals.concurrentBatches++;
						this.randomWrite(label);
					}),
				);
			}
		}
		return writers;
	}

	async poll(how: {
		fault?: FaultSpec;
		writeAtRequest?: number;
		latencyWrites?: number;
		crash?: boolean;
		/** A second poll of the same trigger: started at once, or once the first one has asked. */
		overlap?: 'together' | 'during';
	}): Promise<'kept' | 'failed' | 'crashed'> {
		totals.polls++;
		if (how.fault) emulator().injectFault({ ...how.fault, path: '/audit-logs' });
		const writers = this.scheduleWrites(how);
		const trigger = activeTrigger({
			credentials: credentials(),
			parameters: this.parameters,
			staticData: this.staticData,
		});
		try {
			const results = await this.runPolls(trigger, how.overlap);
			const kept = results.flatMap((result) =>
				result.status === 'fulfilled' ? [result.value] : [],
			);
			if (kept.length === 0) throw (results[0] as PromiseRejectedResult).reason;
			const items = kept.flatMap((result) => result.items ?? []);
			if (how.crash) {
				totals.crashedPolls++;
				this.log.push(`poll crashed before saving: ${items.length} items dropped`);
				return 'crashed';
			}
			if (how.overlap) totals.overlappingPolls++;
			this.keep(
				items.map((item) => item.json as unknown as AuditLogEntry),
				JSON.parse(JSON.stringify(trigger.liveStaticData())) as IDataObject,
			);
			return 'kept';
		} catch (error) {
			totals.failedPolls++;
			this.log.push(`poll failed: ${(error as Error).message}`);
			if (this.cannotReadOn && saysItCannotReadOn(error)) {
				totals.cannotReadOn++;
				if (!how.fault) this.stuck = true;
			} else if (!how.fault && !how.writeAtRequest && !how.latencyWrites) {
				// Not counted with entries logged during the poll: they may shift its pages past
				// what it can tell apart (a page of the first page's entries, without totalItems).
				totals.unexplainedFailures++;
			}
			return 'failed';
		} finally {
			onArrival = undefined;
			await Promise.all(writers);
			emulator().clearFaults();
			emulator().setLatency(0);
		}
	}

	/**
	 * One poll, or two of the same trigger that overlap as under n8n's default scheduler: both
	 * share the workflow's static data in memory, and n8n keeps what each one that returned emits.
	 */
	private async runPolls(
		trigger: ReturnType<typeof activeTrigger>,
		overlap: 'together' | 'during' | undefined,
	): Promise<Array<PromiseSettledResult<PollResult>>> {
		if (overlap === undefined) return await Promise.allSettled([trigger.poll()]);
		if (overlap === 'together') return await Promise.allSettled([trigger.poll(), trigger.poll()]);
		const asked = emulator().requests.length;
		const first = trigger.poll();
		first.catch(() => {});
		while (emulator().requests.length === asked) await delay(1);
		const second = await Promise.allSettled([trigger.poll()]);
		return [...(await Promise.allSettled([first])), ...second];
	}

	private keep(items: AuditLogEntry[], staticData: IDataObject): void {
		this.staticData = staticData;
		const cursor = Object.values(staticData).map(
			(node) => (node as IDataObject).auditLogCursor,
		)[0] as Cursor;
		if (this.floor === undefined) this.floor = Date.parse(cursor.floor);
		this.log.push(
			`poll kept: ${items.length} items, cursor ${Date.parse(cursor.cursor) - DATE_START}`,
		);
		if (items.length > this.cap) totals.overCap++;
		let previous = -Infinity;
		for (const item of items) {
			const tracked = this.tracked.get(item.context?.userAgent);
			if (!tracked) throw new Error(`emitted an entry that was never written: ${item.id}`);
			if (Number.isNaN(Date.parse(item.timestamp))) totals.oddTimestamps++;
			tracked.emitted++;
			totals.emitted++;
			// An entry served without a readable timestamp has no order of its own to keep.
			if (tracked.unreadable) continue;
			if (tracked.instant < previous) totals.badOrder++;
			previous = tracked.instant;
		}
		// Bounded state: only ids inside the window, which reaches no further back than the lookback.
		const floor = Date.parse(cursor.floor);
		const bounded =
			floor >= this.floor &&
			floor >= Date.parse(cursor.cursor) - this.lookbackMs &&
			Object.values(cursor.seen).every((instant) => instant >= floor);
		if (!bounded) totals.unboundedState++;
	}

	async run(): Promise<void> {
		const random = this.random;
		if (this.mode === 'now') {
			// History from before activation (all of it older than the start the first poll records).
			const history = this.fresh(random.int(0, 30));
			this.add(
				history.map((instant) => Math.min(instant, Date.now() - SECOND)),
				BEFORE_ACTIVATION,
			);
			const first = await this.poll({});
			if (this.stuck) return;
			if (first !== 'kept') throw new Error(`the first poll from "now" failed: ${this.log.at(-1)}`);
			this.clock = this.floor!;
			if (this.overAPage) this.add(this.fresh(random.int(100, 180)), 'after activation');
		} else {
			// Backlog on both sides of the start date; sometimes more than a page.
			this.add(
				this.fresh(
					random.chance(this.overAPage ? 1 : 0.2) ? random.int(100, 180) : random.int(0, 60),
				),
				'backlog',
			);
		}
		const steps = random.int(3, 10);
		const evolvesAt = random.int(0, steps - 1);
		for (let step = 0; step < steps; step++) {
			if (random.chance(0.6)) this.randomWrite('between polls');
			const faulty = random.chance(0.25);
			const fault: FaultSpec | undefined = faulty
				? {
						...random.pick<FaultSpec>([
							{ kind: 'status', status: 500 },
							// Sent again at once (Retry-After: 0) up to 3 times: more than that fails the poll.
							{ kind: 'status', status: 503, retryAfterSeconds: 0, count: random.int(1, 4) },
							{ kind: 'drop' },
							{ kind: 'malformed' },
							{ kind: 'status', status: 429, retryAfterSeconds: 0, count: random.int(1, 4) },
						]),
						skip: random.int(0, 3),
					}
				: undefined;
			if (this.twist === 'a field added mid-run' && step === evolvesAt) {
				this.log.push('the service starts adding a field');
				emulator().store.auditLogVariant = { ...this.variant, restyledEntries: true };
			}
			if (this.twist === 'the service switching order' && random.chance(0.5)) {
				const { fixedOrder } = emulator().store.auditLogVariant;
				const order = fixedOrder === 'desc' ? this.variant.fixedOrder : 'desc';
				this.log.push(`the service answers ${order === 'desc' ? 'newest first' : 'as asked'}`);
				emulator().store.auditLogVariant = { ...this.variant, fixedOrder: order };
			}
			const overlap =
				this.twist === 'two polls at once'
					? 'together'
					: this.twist === 'a tick during a slow poll'
						? 'during'
						: undefined;
			if (overlap === 'during') emulator().setLatency(random.int(2, 6));
			await this.poll({
				fault,
				writeAtRequest: random.chance(0.3) ? random.pick([1, 2, 2, 3]) : undefined,
				latencyWrites: random.chance(0.04) ? random.int(1, 3) : undefined,
				crash: random.chance(0.1),
				overlap: overlap && random.chance(0.6) ? overlap : undefined,
			});
			if (this.stuck) return;
		}
		await this.drain();
	}

	private async drain(): Promise<void> {
		const need = Math.ceil(this.tracked.size / this.cap) + 3;
		for (let i = 0; i < need; i++) {
			const before = totals.emitted;
			if ((await this.poll({})) !== 'kept') {
				if (this.stuck) return;
				throw new Error(`a poll without faults failed: ${this.log.at(-1)}`);
			}
			if (totals.emitted === before) return;
		}
		totals.notDrained++;
		this.log.push('did not drain');
	}

	/** Counts what broke the contract; returns a description when something did. */
	check(): string | undefined {
		const problems: string[] = [];
		for (const tracked of this.tracked.values()) {
			const { entry, instant, newestBefore, emitted, atActivation, unreadable } = tracked;
			const matches = this.matches(entry);
			const insideFloor = !atActivation && instant >= this.floor!;
			const mustEmit = matches && insideFloor && instant >= newestBefore - this.lookbackMs;
			totals.entries++;
			if (mustEmit) totals.mustEmit++;
			if (matches && insideFloor && !mustEmit) {
				totals.mayEmit++;
				if (emitted > 0) totals.emittedOfMayEmit++;
			}
			const where = `${entry.id} at ${instant - DATE_START} (${entry.timestamp}), N(E)=${newestBefore - DATE_START}`;
			const broken: Array<[boolean, keyof Totals, string]> = [
				[mustEmit && emitted === 0 && !this.stuck, 'lost', 'lost'],
				[emitted > 1, 'duplicated', `emitted ${emitted} times`],
				[emitted > 0 && !insideFloor && !unreadable, 'outsideFloor', 'emitted before the floor'],
				[emitted > 0 && !matches, 'unmatched', 'emitted though filtered out'],
			];
			for (const [failed, total, what] of broken) {
				if (!failed) continue;
				totals[total]++;
				problems.push(`${what}: ${where}`);
			}
		}
		return problems.length ? [...problems.slice(0, 5), ...this.log].join('\n') : undefined;
	}
}

type Twist =
	| 'two polls at once'
	| 'a tick during a slow poll'
	| 'a field added mid-run'
	| 'the service switching order';
const TWISTS: Twist[] = [
	'two polls at once',
	'a tick during a slow poll',
	'a field added mid-run',
	// A service that answers newest first for a while (a deploy, a cache), then as asked again.
	'the service switching order',
];

/**
 * Runs `count` schedules from `SEED`, each made by `makeSchedule`, and checks the contract over
 * all of them; returns the line of lost and duplicated entries to print.
 */
async function runSchedules(
	label: string,
	count: number,
	makeSchedule: (random: Random) => Schedule,
	check: (totals: Totals) => void,
): Promise<string> {
	console.log(
		`exactly-once "${label}": seed=${SEED} schedules=${count} (EXACTLY_ONCE_SEED / EXACTLY_ONCE_SCHEDULES to change)`,
	);
	totals = newTotals();
	const random = createRandom(SEED);
	const failures: string[] = [];
	const started = Date.now();
	// Three failing schedules are enough to read: a broken build stops there.
	for (let index = 0; index < count && failures.length < 3; index++) {
		emulator().reset({ seed: false });
		const schedule = makeSchedule(random);
		await schedule.run();
		totals.schedules++;
		const problem = schedule.check();
		if (problem) failures.push(`schedule ${index}:\n${problem}`);
	}
	console.log(
		`exactly-once "${label}" totals: ${Object.entries(totals)
			.map(([total, value]) => `${total}=${value}`)
			.join(' ')} (${((Date.now() - started) / 1000).toFixed(1)} s)`,
	);
	expect(failures).toEqual([]);
	expect(totals).toMatchObject({
		lost: 0,
		duplicated: 0,
		outsideFloor: 0,
		unmatched: 0,
		notDrained: 0,
		badOrder: 0,
		overCap: 0,
		unboundedState: 0,
		unexplainedFailures: 0,
	});
	// The schedules did exercise what they are meant to.
	expect(totals.schedules).toBe(count);
	expect(totals.mustEmit).toBeGreaterThan(count * 10);
	check(totals);
	const stuck = totals.cannotReadOn ? ` cannotReadOn=${totals.cannotReadOn}` : '';
	return `lost=${totals.lost} duplicated=${totals.duplicated}${stuck} (mustEmit=${totals.mustEmit} emitted=${totals.emitted} polls=${totals.polls} overlapping=${totals.overlappingPolls})`;
}

/** The schedules met failed and crashed polls and writes during polls: one in ten at least. */
function expectFaultsMet(counted: Totals, count: number): void {
	// At 10 schedules, as mutation testing runs a twist: one.
	const aTenth = Math.ceil(count / 10);
	expect(counted.failedPolls).toBeGreaterThanOrEqual(aTenth);
	expect(counted.crashedPolls).toBeGreaterThanOrEqual(aTenth);
	expect(counted.concurrentBatches).toBeGreaterThanOrEqual(aTenth);
}

describe('exactly once, over random schedules', () => {
	beforeAll(() => {
		onRequestArrival(emulator(), (request) => {
			const { sortOrder, startTime } = request.query;
			if (request.path === '/audit-logs' && sortOrder === 'desc' && startTime) totals.probes++;
			onArrival?.(request);
		});
	});

	const variants = Object.entries(SERVICE_VARIANTS);
	const perVariant = Math.ceil(SCHEDULES / variants.length);
	/** As many schedules per twist as per service variant, each against a random variant. */
	const perTwist = perVariant;
	// Each test's budget grows with its schedules: 100 of them beside the end-to-end run (CI) on a
	// slow machine took over two minutes.
	const budgetMs = Math.max(120_000, perVariant * 3_000);
	const lostAndDuplicated: Record<string, string> = {};

	afterAll(() => {
		console.log(
			`exactly-once per service variant and twist (${perVariant} schedules each):\n${Object.entries(
				lostAndDuplicated,
			)
				.map(([name, line]) => `  ${name.padEnd(28)} ${line}`)
				.join('\n')}`,
		);
	});

	it.each(variants)(
		`emits every entry inside the contract exactly once against a service "%s" (seed ${SEED}, ${perVariant} schedules)`,
		async (name, variant) => {
			lostAndDuplicated[name] = await runSchedules(
				name,
				perVariant,
				(random) => {
					emulator().store.auditLogVariant = variant;
					return new Schedule(random, random.chance(0.15) ? 'now' : 'date', variant);
				},
				(counted) => {
					expectFaultsMet(counted, perVariant);
					if (!variant.oddTimestamps) return;
					expect(counted.futureEntries).toBeGreaterThan(perVariant / 10);
					expect(counted.oddTimestamps).toBeGreaterThan(perVariant);
				},
			);
		},
		budgetMs,
	);

	/**
	 * Each profile with the offset ignored too. Where the service honours startTime and the order,
	 * the trigger reads on by time, and no instant holds as many entries as a page (where it cannot
	 * tell them apart); elsewhere it fails saying so, and nothing is emitted twice or out of place.
	 */
	const offsetIgnored = variants.map(([name, variant]) => {
		const byTime = !variant.fixedOrder && !variant.ignoreTimeBounds && !variant.unknownNames;
		return [name, withOffsetIgnored(variant), byTime] as const;
	});
	const perOffsetIgnored = Math.ceil(perVariant / 2);
	it.each(offsetIgnored)(
		`emits every entry inside the contract exactly once against a service "%s" that ignores the offset too, or says it cannot read on (seed ${SEED}, ${perOffsetIgnored} schedules)`,
		async (name, variant, byTime) => {
			const atOneInstant = (variant.pageSizeCap ?? 100) - 3;
			lostAndDuplicated[`${name}, offset ignored`] = await runSchedules(
				`${name}, offset ignored`,
				perOffsetIgnored,
				(random) => {
					emulator().store.auditLogVariant = variant;
					const mode = random.chance(0.15) ? 'now' : 'date';
					const readOn = byTime ? { atOneInstant } : { cannotReadOn: true };
					return new Schedule(random, mode, variant, { ...readOn, overAPage: true });
				},
				(counted) => {
					// Where it cannot read on, schedules end there: fewer faults are met.
					if (!byTime) return;
					expectFaultsMet(counted, perOffsetIgnored);
					// Read by time: in a poll of every other schedule at least.
					expect(counted.probes).toBeGreaterThanOrEqual(perOffsetIgnored / 2);
				},
			);
		},
		budgetMs,
	);

	it.each(TWISTS)(
		`emits every entry inside the contract exactly once with %s, against random service variants (seed ${SEED}, ${perTwist} schedules)`,
		async (twist) => {
			lostAndDuplicated[twist] = await runSchedules(
				twist,
				perTwist,
				(random) => {
					const variant = random.pick(variants.map(([, each]) => each));
					emulator().store.auditLogVariant = variant;
					return new Schedule(random, random.chance(0.15) ? 'now' : 'date', variant, { twist });
				},
				(counted) => {
					expectFaultsMet(counted, perTwist);
					if (twist === 'two polls at once' || twist === 'a tick during a slow poll')
						expect(counted.overlappingPolls).toBeGreaterThan(perTwist);
				},
			);
		},
		budgetMs,
	);
});
