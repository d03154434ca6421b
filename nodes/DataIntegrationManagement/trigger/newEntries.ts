import { NodeOperationError, type IPollFunctions } from 'n8n-workflow';

import {
	scanAuditLogInOrder,
	scanAuditLog,
	type AuditLogScan,
	type ScannedPage,
	type PlacedEntry,
} from '../client/auditLog';
import type { AuditLogEntry } from '../client/types';
import { CursorScan, initialState, type CursorState, type ScanSettings } from './cursor';
import {
	afterNewestPage,
	afterPage,
	afterRead,
	NOTHING_HELD,
	NOTHING_SEEN,
	startOfNow,
	type NewestSeen,
	type OldestFirstRead,
	type ReadDone,
} from './steps';

/** What a poll that ran out of n8n's poll budget before it read all that is new says. */
export const BUDGET_RAN_OUT =
	'The new audit log entries could not be read within the poll time budget';

/** Who else takes the time a poll waits: what a reader can change, before n8n's own setting. */
export const WHAT_TOOK_THE_TIME =
	"a run of this package's nodes using the same credential (the same Base URL and API key), behind whose requests this poll waits its turn, or a slow service";
export const WHERE_N8N_SETS_IT =
	'Nothing was emitted and the cursor stays; the next poll reads again from there. On self-hosted n8n, N8N_SCHEDULER_POLL_TIMEOUT raises the time n8n allows a poll; n8n Cloud users cannot set it.';

/** What bounds a poll's reads: n8n's budget, and the lease renewed with each answer. */
export type Reading = Pick<AuditLogScan, 'deadline' | 'onAnswer'>;

/** What a poll reads from: the stored state, or else the start; and how it reads. */
interface PollRead {
	state: CursorState | undefined;
	origin: string;
	start: number | undefined;
	settings: ScanSettings;
	reading: Reading;
}

/**
 * What is new since the stored state, and the state to store once it is emitted. Without a
 * stored state, a start from "now" records where it starts (`startAtNewestEntry`) and emits
 * nothing.
 */
export async function readNewEntries(
	this: IPollFunctions,
	{ state, origin, start, settings, reading }: PollRead,
): Promise<{ state: CursorState; emitted: AuditLogEntry[] }> {
	const stored = state ?? (start === undefined ? undefined : initialState(origin, start));
	if (!stored) return { state: await startAtNewestEntry.call(this, origin, reading), emitted: [] };
	// Every poll asks oldest first, even after the service answered otherwise (once, in a deploy):
	// a service that always does costs one page a poll.
	const oldestFirst = new CursorScan(stored, settings);
	const done = await readOldestFirst.call(this, oldestFirst, reading);
	if (done.next !== 'readNewestFirst')
		return { state: oldestFirst.nextState(origin), emitted: oldestFirst.emitted };
	// From the stored state again: what the oldest-first read took in may be newer than entries
	// the newest-first read finds, and must not be emitted before them.
	const scan = new CursorScan(stored, settings);
	await absorbNewestFirst.call(this, scan, reading);
	return { state: scan.nextState(origin), emitted: scan.emitted };
}

/**
 * Reads oldest first from the scan's horizon, taking each page in as ./steps.ts decides, so a
 * poll cut short by the cap or the deadline keeps what it read.
 */
async function readOldestFirst(
	this: IPollFunctions,
	scan: CursorScan,
	reading: Reading,
): Promise<ReadDone<ScannedPage>> {
	const takeIn = (pages: readonly ScannedPage[]) =>
		pages.every((page) => scan.absorb(page.entries, page.answeredAt, page.settledUntil));
	let read: OldestFirstRead<ScannedPage> = NOTHING_HELD;
	let done: ReadDone<ScannedPage> | undefined;
	const end = await scanAuditLog.call(
		this,
		{
			sortOrder: 'asc',
			startTime: scan.horizon,
			pageByTime: true,
			// A failure past the second page keeps what the poll took in; one that took nothing in
			// fails, so that a page that always fails shows, not a trigger that stands still.
			keepsWhatItRead: (error) => {
				if (!scan.takenIn || read.held.length) return false;
				this.logger.warn(
					`Audit log poll: a request past the second page failed (${String((error as Error | undefined)?.message ?? error)}), so this poll keeps what it read and the next one reads on from there`,
				);
				return true;
			},
			...reading,
		},
		(page) => {
			const step = afterPage(read, page);
			if (step.next === 'hold' || step.next === 'takeIn') {
				read = step.read;
				return step.next === 'hold' || takeIn(step.pages);
			}
			done = step;
			return false;
		},
	);
	done ??= afterRead(read, { reachedEnd: end === 'end' });
	if (done.next === 'store') takeIn(done.pages);
	if (done.next === 'keepCursor')
		this.logger.warn(
			'Audit log poll: the read ended before the service showed its order, so this poll leaves the cursor where it was and the next one reads again from there',
		);
	return done;
}

/**
 * For a service that answers newest first or ignores the time bounds: read newest first down to
 * the horizon (or, if it answers oldest first anyway, the whole log), then take it in oldest
 * first. What is read grows with what is new, not with the history, when it answers newest first.
 */
async function absorbNewestFirst(
	this: IPollFunctions,
	scan: CursorScan,
	reading: Reading,
): Promise<void> {
	const answeredBefore = Date.now();
	const { entries, complete, answeredAt } = await scanAuditLogInOrder.call(this, {
		sortOrder: 'desc',
		startTime: scan.horizon,
		// Where the offset is ignored too, it fails saying so: by time, it reads oldest first only.
		pageByTime: true,
		...reading,
	});
	if (!complete) {
		throw new NodeOperationError(this.getNode(), BUDGET_RAN_OUT, {
			description: `The service answers newest first or ignores the time bounds, so a poll reads every entry since the cursor before it can emit the oldest, and that took longer than n8n allows a poll. What helps in this node: a later Start Date (Start From: A Date), where the entries since it are what takes the time (those before it are not emitted); Poll Times more often, so that less is new at each poll; a smaller Options → Lookback (Seconds). Options → Max Items per Poll and the Filters do not shorten this read (the service filters nothing), and where the service also ignores the time bounds every poll reads its whole log: then only a faster service or a longer poll time helps. What took the time: the entries new since the last poll, ${WHAT_TOOK_THE_TIME}. ${WHERE_N8N_SETS_IT}`,
			failure: { cause: 'temporarily-unavailable' },
		});
	}
	scan.absorb(entries.reverse(), answeredAt ?? answeredBefore);
}

/**
 * The start of "now": the newest entry the service already has (its instant, and the ids that
 * share it), or this instant when the log is empty; when the budget cuts the read before it
 * finds that entry, or the service ignores the offset, the service's present when it first
 * answered (see `startOfNow`). Anchoring on the service's own timestamps and clock (its Date
 * header) means a clock difference between n8n and the service can neither drop the first new
 * entries nor let old ones through; it also checks the credential on activation.
 */
async function startAtNewestEntry(
	this: IPollFunctions,
	origin: string,
	reading: Reading,
): Promise<CursorState> {
	let seen: NewestSeen<PlacedEntry> = NOTHING_SEEN;
	const scanned = { sortOrder: 'desc', firstPagesSuffice: true, ...reading } as const;
	const end = await scanAuditLog.call(this, scanned, (page) => {
		const step = afterNewestPage(seen, page);
		seen = step.seen;
		return step.readOn;
	});
	// Where the offset is ignored, the pages read may not show the newest entry: as when cut short.
	const cutShort = end === 'deadline' || end === 'offsetIgnored';
	const { start, atStart } = startOfNow(seen, { cutShort, now: Date.now() });
	const keysAtStart = atStart.map(({ key }) => key);
	return initialState(origin, start, keysAtStart);
}
