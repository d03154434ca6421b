import {
	NodeOperationError,
	type IDataObject,
	type INodeExecutionData,
	type IPollFunctions,
} from 'n8n-workflow';

import {
	auditEntryKey,
	scanAuditLog,
	scanAuditLogInOrder,
	type AuditLogScan,
	type PlacedEntry,
	type ScannedPage,
} from '../client/auditLog';
import type { AuditLogEntry } from '../client/types';
import { parseInstant, toUtcIso } from '../shared/timestamps';
import { asOption, checkCollection } from '../shared/checks';
import {
	CursorScan,
	initialState,
	restoreState,
	type CursorState,
	type ScanSettings,
} from './cursor';
import { filtersCollection, pollOptions, startFromField } from './fields';
import { PollLease, type LeaseRecord } from './lease';

/** The default of an Options field of the trigger, as its description declares it. */
function defaultOf(name: string): number {
	return (pollOptions.options as Array<{ name: string; default: number }>).find(
		(option) => option.name === name,
	)!.default;
}

/** Where in the node's static data the cursor lives. */
const STATE_KEY = 'auditLogCursor';
/** The polls running in this n8n process, by workflow and node (see ./lease.ts). */
const runningPolls = new Map<string, LeaseRecord>();
/**
 * How long a lease holds when n8n gives no poll budget (n8n 1.x): as long as n8n 2.x's default
 * budget. The running poll renews it with every page it reads.
 */
const LEASE_WITHOUT_BUDGET_MS = 5 * 60 * 1000;
/** How many pages "Fetch Test Event" reads, newest first, looking for a matching entry. */
const MANUAL_SEARCH_PAGES = 10;
/** The share of n8n's poll budget spent reading; the rest is left for handing the items over. */
const POLL_BUDGET_SHARE = 0.8;

interface Filters {
	eventContains?: string;
	actorEmail?: string;
	actorType?: string;
}

function entryFilter(filters: Filters): (entry: AuditLogEntry) => boolean {
	const lower = (text: unknown) =>
		String(text ?? '')
			.trim()
			.toLowerCase();
	const event = lower(filters.eventContains);
	const email = lower(filters.actorEmail);
	const type = lower(filters.actorType);
	return (entry) =>
		(!event || lower(entry.event).includes(event)) &&
		(!email || lower(entry.actor?.email) === email) &&
		(!type || lower(entry.actor?.type) === type);
}

/**
 * The user's start: "now" (decided by `startAtNewestEntry`), or the date they chose. A date given
 * by an expression (`{{ $now.minus(1, 'hour') }}`) is known by the expression's text, so the
 * start it gave when the cursor was created stays, instead of moving with every poll.
 */
function readStart(this: IPollFunctions): { origin: string; start?: number } {
	if (
		asOption(
			{ node: this.getNode() },
			startFromField,
			this.getNodeParameter('startFrom', 'now'),
		) !== 'date'
	)
		return { origin: 'now' };
	const written = this.getNodeParameter('startDate', '', { rawExpressions: true });
	const start = parseInstant(this.getNodeParameter('startDate', ''), this.getTimezone());
	if (start === undefined) {
		throw new NodeOperationError(
			this.getNode(),
			'The field "Start Date" is not a valid date and time',
			{
				description:
					'Pick a date and time, or give an ISO 8601 date-time such as 2026-11-01T09:30:00Z.',
			},
		);
	}
	const expression = typeof written === 'string' && written.startsWith('=') ? written : undefined;
	return { origin: `date:${expression ?? toUtcIso(start)}`, start };
}

/**
 * The budget n8n gives a poll, in ms (n8n-workflow 2.x: 5 minutes by default; its durable
 * scheduler abandons a poll after 45 s by default), or undefined (n8n 1.x gives none).
 */
function pollBudgetMs(this: IPollFunctions): number | undefined {
	const budget = typeof this.getPollBudgetMs === 'function' ? this.getPollBudgetMs() : undefined;
	return typeof budget === 'number' && Number.isFinite(budget) && budget > 0 ? budget : undefined;
}

/**
 * The start of "now": the newest entry the service already has (its instant, and the ids that
 * share it), or this instant when the log is empty. Anchoring on the service's own newest
 * timestamp means a clock difference between n8n and the service can neither drop the first
 * new entries nor let old ones through; it also checks the credential on activation.
 */
async function startAtNewestEntry(
	this: IPollFunctions,
	origin: string,
	reading: Pick<AuditLogScan, 'deadline' | 'onAnswer'>,
): Promise<CursorState> {
	let newest: number | undefined;
	/** Entries at the newest instant (or later, when stamped past the service's present). */
	let atNewest: PlacedEntry[] = [];
	await scanAuditLog.call(this, { sortOrder: 'desc', ...reading }, (page) => {
		for (const read of page.entries) {
			const instant = Math.min(read.instant, page.answeredAt);
			if (newest === undefined || instant > newest) {
				newest = instant;
				atNewest = atNewest.filter((other) => other.instant >= instant);
			}
			if (read.instant >= newest) atNewest.push(read);
		}
		// Newest first, an entry older than the newest means the rest are older too.
		return !(page.order === 'desc' && page.entries.some(({ instant }) => instant < newest!));
	});
	return initialState(
		origin,
		newest ?? Date.now(),
		atNewest.map(({ entry }) => auditEntryKey(entry)),
	);
}

/**
 * One poll: read from the cursor (less the lookback) oldest first, drop what was already
 * processed, emit the rest up to the cap, and only then store the moved cursor. A poll that fails
 * part-way throws before the store, so it emits nothing and the next poll starts from the same place.
 * A poll that starts while another poll of this node runs emits nothing (see ./lease.ts).
 */
export async function pollAuditLog(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const node = { node: this.getNode() };
	const filters = checkCollection(node, filtersCollection, this.getNodeParameter('filters', {}));
	const options = checkCollection(node, pollOptions, this.getNodeParameter('options', {}));
	const matches = entryFilter(filters as Filters);
	if (this.getMode() === 'manual') return await newestMatching.call(this, matches);

	const maxEmitted =
		(options.maxItemsPerPoll as number | undefined) ?? defaultOf('maxItemsPerPoll');
	const lookbackMs =
		((options.lookbackSeconds as number | undefined) ?? defaultOf('lookbackSeconds')) * 1000;
	const { origin, start } = readStart.call(this);

	const staticData = this.getWorkflowStaticData('node');
	const budget = pollBudgetMs.call(this);
	const leaseKey = `${this.getWorkflow().id}:${this.getNode().id}`;
	const lease = PollLease.take(runningPolls, leaseKey, budget ?? LEASE_WITHOUT_BUDGET_MS);
	if (!lease) {
		this.logger.debug('Audit log poll skipped: the previous poll of this trigger is still running');
		// Ending before the running poll would break it under n8n 2.x (see ./lease.ts).
		await PollLease.untilFree(runningPolls, leaseKey);
		return null;
	}
	try {
		const reading = {
			deadline: budget === undefined ? undefined : Date.now() + budget * POLL_BUDGET_SHARE,
			onAnswer: () => lease.renew(),
		};
		const read = await readNewEntries.call(this, {
			state: restoreState(staticData[STATE_KEY], origin),
			origin,
			start,
			settings: { lookbackMs, maxEmitted, matches },
			reading,
		});
		// Overtaken by a poll that started after this one's lease ran out: that poll reads from
		// the same stored cursor, and emits what this one found.
		if (!lease.held) return null;
		staticData[STATE_KEY] = read.state as unknown as IDataObject;
		return read.emitted.length
			? [this.helpers.returnJsonArray(read.emitted as unknown as IDataObject[])]
			: null;
	} finally {
		lease.release();
	}
}

/**
 * What is new since the stored state, and the state to store once it is emitted. Without a
 * stored state, a start from "now" records the newest entry and emits nothing.
 */
async function readNewEntries(
	this: IPollFunctions,
	{
		state,
		origin,
		start,
		settings,
		reading,
	}: {
		state: CursorState | undefined;
		origin: string;
		start: number | undefined;
		settings: ScanSettings;
		reading: Pick<AuditLogScan, 'deadline' | 'onAnswer'>;
	},
): Promise<{ state: CursorState; emitted: AuditLogEntry[] }> {
	if (!state) {
		// First poll from "now": remember the start, emit nothing that was there before it.
		if (start === undefined)
			return { state: await startAtNewestEntry.call(this, origin, reading), emitted: [] };
		state = initialState(origin, start);
	}

	let scan = new CursorScan(state, settings);
	let newestFirst = state.newestFirst === true;
	if (!newestFirst) {
		// Oldest first from the horizon, as asked: each page is taken in as it comes, so a poll
		// cut short by the cap or the deadline keeps what it read. Pages whose entries all share
		// one instant wait until a later page shows the order (a service answering newest first
		// shows its newest entries first); if none does up to the log's end, every entry shares
		// that instant.
		const tied: ScannedPage[] = [];
		const end = await scanAuditLog.call(
			this,
			{ sortOrder: 'asc', startTime: scan.horizon, ...reading },
			(page) => {
				newestFirst = page.boundsIgnored || page.order === 'desc';
				if (newestFirst || page.repeatsHeldBack) return false;
				tied.push(page);
				if (page.order === undefined) return true;
				return tied.splice(0).every((read) => scan.absorb(read.entries, read.answeredAt));
			},
		);
		// Still no order shown. A read cut short (by the deadline, or by entries logged meanwhile
		// that pushed a held-back entry on) may have seen only the newest entries of a service
		// answering newest first: taking them in would move the cursor past every older entry.
		// So the waiting pages are left, and the next poll reads again from the same cursor.
		// Read to the end: take them in if their entries do share one instant; otherwise (they
		// differ, in an order that could not be trusted) read newest first.
		const instants = new Set(tied.flatMap((read) => read.entries.map(({ instant }) => instant)));
		if (!newestFirst && end === 'end' && instants.size > 1) newestFirst = true;
		if (!newestFirst && end === 'end')
			tied.every((read) => scan.absorb(read.entries, read.answeredAt));
		else if (!newestFirst && tied.length > 0)
			this.logger.warn(
				'Audit log poll: the read ended before the service showed its order, so this poll leaves the cursor where it was and the next one reads again from there',
			);
	}
	if (newestFirst) {
		// Read again from the stored state: what the pass above took in may be newer than entries
		// the newest-first read finds, and must not be emitted before them.
		scan = new CursorScan(state, settings);
		await absorbNewestFirst.call(this, scan, reading);
	}
	return { state: scan.nextState(origin, newestFirst), emitted: scan.emitted };
}

/**
 * For a service that answers newest first or ignores the time bounds: read newest first down to
 * the horizon (or, if it answers oldest first anyway, the whole log), then take it in oldest
 * first. What is read grows with what is new, not with the history, when it answers newest first.
 */
async function absorbNewestFirst(
	this: IPollFunctions,
	scan: CursorScan,
	reading: Pick<AuditLogScan, 'deadline' | 'onAnswer'>,
): Promise<void> {
	const answeredBefore = Date.now();
	const { entries, complete, answeredAt } = await scanAuditLogInOrder.call(this, {
		sortOrder: 'desc',
		startTime: scan.horizon,
		...reading,
	});
	if (!complete) {
		throw new NodeOperationError(
			this.getNode(),
			'The new audit log entries could not be read within the poll time budget',
			{
				description:
					'The service answers newest first or ignores the time bounds, so a poll reads everything since the cursor before emitting any of it, and that took longer than n8n allows a poll. Nothing was emitted and the cursor stays; raise N8N_SCHEDULER_POLL_TIMEOUT if this repeats.',
			},
		);
	}
	scan.absorbAll(entries.reverse(), answeredAt ?? answeredBefore);
}

/** "Fetch Test Event": the newest matching entry, without touching the cursor. */
async function newestMatching(
	this: IPollFunctions,
	matches: (entry: AuditLogEntry) => boolean,
): Promise<INodeExecutionData[][]> {
	let found: PlacedEntry | undefined;
	let pages = 0;
	let looked = 0;
	await scanAuditLog.call(this, { sortOrder: 'desc' }, (page) => {
		looked += page.entries.length;
		for (const read of page.entries) {
			if (matches(read.entry) && (found === undefined || read.instant > found.instant))
				found = read;
		}
		// A service that answers oldest first has its newest match last: read on.
		return page.order === 'asc' || (!found && ++pages < MANUAL_SEARCH_PAGES);
	});
	if (!found && looked === 0) {
		throw new NodeOperationError(this.getNode(), 'The audit log has no entries yet', {
			description: 'Try again once the service has logged an event.',
		});
	}
	if (!found) {
		throw new NodeOperationError(this.getNode(), 'No audit log entry matches the filters', {
			description: `None of the newest ${looked} entries matches. Loosen the filters, or try again once the service has logged a matching event.`,
		});
	}
	return [this.helpers.returnJsonArray([found.entry as unknown as IDataObject])];
}
