import {
	NodeOperationError,
	type IDataObject,
	type INodeExecutionData,
	type IPollFunctions,
} from 'n8n-workflow';

import { forEachAuditLogPage } from '../client/auditLog';
import type { AuditLogEntry } from '../client/types';
import { parseInstant, toUtcIso } from '../shared/timestamps';
import { CursorScan, initialState, restoreState, type CursorState } from './cursor';

/** Where in the workflow's static data the cursor lives. */
const STATE_KEY = 'auditLogCursor';
/** How many pages "Fetch Test Event" reads, newest first, looking for a matching entry. */
const MANUAL_SEARCH_PAGES = 10;

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

/** A number option, or its default when it is empty or not a number (an expression gone wrong). */
function numberOption(value: unknown, fallback: number): number {
	const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
	return typeof number === 'number' && Number.isFinite(number) ? number : fallback;
}

/** The user's start: "now" (decided by `startAtNewestEntry`), or the date they chose. */
function readStart(this: IPollFunctions): { origin: string; start?: number } {
	if (this.getNodeParameter('startFrom', 'now') !== 'date') return { origin: 'now' };
	const raw = this.getNodeParameter('startDate', '');
	const start = parseInstant(raw, this.getTimezone());
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
	return { origin: `date:${toUtcIso(start)}`, start };
}

/**
 * The start of "now": the newest entry the service already has (its instant, and the ids that
 * share it), or this instant when the log is empty. Anchoring on the service's own newest
 * timestamp means a clock difference between n8n and the service can neither drop the first
 * new entries nor let old ones through; it also checks the credential on activation.
 */
async function startAtNewestEntry(this: IPollFunctions, origin: string): Promise<CursorState> {
	let newest: number | undefined;
	const idsAtNewest: string[] = [];
	await forEachAuditLogPage.call(this, { sortOrder: 'desc' }, (page) => {
		for (const entry of page) {
			const instant = parseInstant(entry.timestamp);
			if (instant === undefined) continue;
			newest = newest ?? instant;
			if (instant !== newest) return false;
			idsAtNewest.push(entry.id);
		}
		return true; // every entry of this page shares the newest instant: the next may too
	});
	return initialState(origin, newest ?? Date.now(), idsAtNewest);
}

/**
 * One poll: read from the cursor (less the lookback) oldest first, drop what was already
 * processed, emit the rest up to the cap, and only then store the moved cursor. A poll that fails
 * part-way throws before the store, so it emits nothing and the next poll starts from the same place.
 */
export async function pollAuditLog(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const filters = this.getNodeParameter('filters', {}) as Filters;
	const matches = entryFilter(filters);
	if (this.getMode() === 'manual') return await newestMatching.call(this, matches);

	const options = this.getNodeParameter('options', {}) as IDataObject;
	const maxEmitted = Math.max(1, Math.floor(numberOption(options.maxItemsPerPoll, 1000)));
	const lookbackMs = Math.max(0, numberOption(options.lookbackSeconds, 60)) * 1000;

	const staticData = this.getWorkflowStaticData('node');
	const { origin, start } = readStart.call(this);
	let state: CursorState | undefined = restoreState(staticData[STATE_KEY], origin);
	if (!state) {
		if (start === undefined) {
			// First poll from "now": remember the start, emit nothing that was there before it.
			staticData[STATE_KEY] = (await startAtNewestEntry.call(
				this,
				origin,
			)) as unknown as IDataObject;
			return null;
		}
		state = initialState(origin, start);
	}

	const scan = new CursorScan(state, { lookbackMs, maxEmitted, matches });
	await forEachAuditLogPage.call(
		this,
		{ sortOrder: 'asc', startTime: toUtcIso(scan.horizon) },
		(page) => scan.absorb(page),
	);
	staticData[STATE_KEY] = scan.nextState(origin) as unknown as IDataObject;
	return scan.emitted.length
		? [this.helpers.returnJsonArray(scan.emitted as unknown as IDataObject[])]
		: null;
}

/** "Fetch Test Event": the newest matching entry, without touching the cursor. */
async function newestMatching(
	this: IPollFunctions,
	matches: (entry: AuditLogEntry) => boolean,
): Promise<INodeExecutionData[][]> {
	let found: AuditLogEntry | undefined;
	let pages = 0;
	let looked = 0;
	await forEachAuditLogPage.call(this, { sortOrder: 'desc' }, (page) => {
		found = page.find(matches);
		looked += page.length;
		return !found && ++pages < MANUAL_SEARCH_PAGES;
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
	return [this.helpers.returnJsonArray([found as unknown as IDataObject])];
}
