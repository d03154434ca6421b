import {
	NodeApiError,
	NodeOperationError,
	type IDataObject,
	type INodeExecutionData,
	type IPollFunctions,
} from 'n8n-workflow';

import { scanAuditLog, type PlacedEntry } from '../client/auditLog';
import { AUDIT_LOG_QUERY } from '../client/choices';
import { credentialFingerprint } from '../client/credential';
import type { AuditLogEntry } from '../client/types';
import { parseInstant } from '../shared/timestamps';
import { asOption, checkCollection, checkValue, configurationError } from '../shared/checks';
import { declaredError } from '../shared/failures';
import { restoreState, type CursorState } from './cursor';
import { pollOptions, startDateField, startFromField } from './fields';
import { entryFilter, readFilters } from '../shared/filters';
import { PollLease, type LeaseRecord } from './lease';
import {
	BUDGET_RAN_OUT,
	readNewEntries,
	WHAT_TOOK_THE_TIME,
	WHERE_N8N_SETS_IT,
} from './newEntries';
import { QuietStates, type QuietState } from './quietStates';
import { afterSearchPage, NOTHING_FOUND, type Search } from './steps';

/** An Options field of the trigger: its value, or its default as its description declares it. */
function optionOf(options: IDataObject, name: string): number {
	const fields = pollOptions.options as Array<{ name: string; default: number }>;
	const field = fields.find((option) => option.name === name)!;
	return (options[name] as number | undefined) ?? field.default;
}

/** Where in the node's static data the cursor lives. */
const STATE_KEY = 'auditLogCursor';
/**
 * The polls running in this n8n process, by workflow and node (see ./lease.ts): each is dropped
 * when its poll ends, so it holds no more than the polls running.
 */
export const runningPolls = new Map<string, LeaseRecord>();
/** A lease without a poll budget (n8n 1.x): n8n 2.x's default budget, renewed with every page. */
const LEASE_WITHOUT_BUDGET_MS = 5 * 60 * 1000;
/** What the last poll of each trigger stored without emitting, for its activation (./quietStates.ts). */
export const quietStates = new QuietStates();
/** The share of n8n's poll budget spent reading; the rest is left for handing the items over. */
const POLL_BUDGET_SHARE = 0.8;

/**
 * The user's start: "now" (decided by `startAtNewestEntry`), or the date they chose. A date given
 * by an expression (`{{ $now.minus(1, 'hour') }}`) is known by the expression's text, so the
 * start it gave when the cursor was created stays, instead of moving with every poll.
 */
function readStart(this: IPollFunctions): { origin: string; start?: number } {
	const origin = { node: this.getNode(), timeZone: this.getTimezone() };
	if (asOption(origin, startFromField, this.getNodeParameter('startFrom', 'now')) !== 'date')
		return { origin: 'now' };
	const start = checkValue(
		origin,
		startDateField,
		this.getNodeParameter('startDate', ''),
	) as string;
	const written = this.getNodeParameter('startDate', '', { rawExpressions: true });
	const expression = typeof written === 'string' && written.startsWith('=') ? written : undefined;
	return { origin: `date:${expression ?? start}`, start: parseInstant(start) };
}

/** A budget n8n gave, if it is a positive, finite number of ms. */
export function usableBudget(budget: unknown): number | undefined {
	return typeof budget === 'number' && Number.isFinite(budget) && budget > 0 ? budget : undefined;
}

/**
 * One poll: read from the cursor (less the lookback) oldest first, drop what was already
 * processed, emit the rest up to the cap, and only then store the moved cursor. A poll that fails
 * throws before the store, so the next poll starts from the same place, unless the failure came
 * past the second page once it took new entries in: then it keeps them (./newEntries.ts).
 * A poll that starts while another poll of this node runs emits nothing (see ./lease.ts).
 */
export async function pollAuditLog(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const node = { node: this.getNode() };
	const matches = entryFilter(readFilters(node, this.getNodeParameter('filters', {})));
	const options = checkCollection(node, pollOptions, this.getNodeParameter('options', {}));
	if (this.getMode() === 'manual') return await newestMatching.call(this, matches);

	const maxEmitted = optionOf(options, 'maxItemsPerPoll');
	const lookbackMs = optionOf(options, 'lookbackSeconds') * 1000;
	const { origin, start } = readStart.call(this);

	const staticData = this.getWorkflowStaticData('node');
	// The budget n8n gives a poll, in ms (n8n 2.x: 5 minutes by default; its durable scheduler
	// abandons a poll after 45 s by default), or undefined (n8n 1.x gives none).
	const budget = usableBudget(
		typeof this.getPollBudgetMs === 'function' ? this.getPollBudgetMs() : undefined,
	);
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
		const { quiet, state } = await stateToReadFrom.call(this, leaseKey, origin, staticData);
		const read = await readNewEntries.call(this, {
			state,
			origin,
			start,
			settings: { lookbackMs, maxEmitted, matches },
			reading,
		});
		// Overtaken by a poll that started after this one's lease ran out: that poll reads from
		// the same stored cursor, and emits what this one found.
		if (!lease.held) return null;
		staticData[STATE_KEY] = { ...read.state };
		// Kept after an emit too, should n8n drop that poll's result: once n8n saves it, the stored
		// state is no longer the one read, and the next poll drops it.
		if (!read.emitted.length) quietStates.remember(leaseKey, { ...quiet, state: read.state });
		return read.emitted.length
			? [this.helpers.returnJsonArray(read.emitted.map((entry) => ({ ...entry })))]
			: null;
	} catch (error) {
		throw declaredError(
			this.getNode(),
			error instanceof NodeApiError ? explainBudgetCut(error) : error,
		);
	} finally {
		lease.release();
	}
}

/**
 * The state a poll reads from: what this process kept of the last quiet poll of its activation
 * (./quietStates.ts), or else what n8n stored; and what a quiet poll keeps it for.
 */
async function stateToReadFrom(
	this: IPollFunctions,
	key: string,
	origin: string,
	staticData: IDataObject,
): Promise<{ quiet: Omit<QuietState, 'state'>; state?: CursorState }> {
	const stored = staticData[STATE_KEY];
	const credential = await credentialFingerprint.call(this);
	const quiet = { credential, origin, read: JSON.stringify(stored ?? null) };
	// n8n's durable scheduler polls with 'update'; publishing or starting n8n, with another.
	const startsActivation = this.getActivationMode() !== 'update';
	const kept = quietStates.resume(key, { ...quiet, startsActivation });
	return { quiet, state: kept ?? restoreState(stored, origin) };
}

/**
 * A request the poll budget cut says so: n8n's own words for a cut request ("The connection was
 * aborted…") name the wrong cause. A 429 whose wait would not fit is not waited: the error
 * declares the wait (./transport's failure), for n8n's scheduler to wait out.
 */
export function explainBudgetCut(error: NodeApiError): NodeApiError {
	if (error.context.deadlineReached !== true) return error;
	const said = error.message.replace(/\.$/, '');
	error.description =
		error.httpCode === '429'
			? `The service asked to wait before the next request (${said}), longer than the time n8n allows a poll, so the poll did not wait. Nothing was emitted and the cursor stays; the next poll reads again from there, and n8n's durable scheduler (2.40 and later) waits as long as the service asked before it.`
			: error.httpCode === '503'
				? `The service turned the poll's request away (${said}), and the wait before sending it again would end past the time n8n allows a poll, so the poll did not wait. Nothing was emitted and the cursor stays; the next poll reads again from there.`
				: `The first request of the poll did not get its answer within the time n8n allows a poll (${said}). What helps: a credential of this trigger's own (another API key), or a lower Options → Max Concurrency in the run sharing it; Options → Max Items per Poll and the Filters do not shorten a first request. What took the time: ${WHAT_TOOK_THE_TIME}. ${WHERE_N8N_SETS_IT}`;
	error.message = BUDGET_RAN_OUT;
	return error;
}

/** "Fetch Test Event": the newest matching entry, without touching the cursor. */
async function newestMatching(
	this: IPollFunctions,
	matches: (entry: AuditLogEntry) => boolean,
): Promise<INodeExecutionData[][]> {
	let search: Search<PlacedEntry> = NOTHING_FOUND;
	let oldestFirst = false;
	// Where the offset is ignored, the first page is all there is to search.
	const scan = { sortOrder: 'desc', firstPagesSuffice: true } as const;
	const end = await scanAuditLog.call(this, scan, (page) => {
		oldestFirst ||= page.order === 'asc';
		const step = afterSearchPage(search, page, (read) => matches(read.entry));
		search = step.search;
		return step.readOn;
	});
	if (end === 'offsetIgnored' && oldestFirst)
		throw configurationError(
			{ node: this.getNode() },
			'Fetch Test Event cannot find the newest audit log entries',
			`Asked newest first, the service answered its oldest entries, and the same page again when asked for the next (it ignores the paging parameter "${AUDIT_LOG_QUERY.skip}"). Publish the workflow (activate it, in n8n 1.x) instead: the trigger reads such a service by time from its start, where it honours "${AUDIT_LOG_QUERY.since}".`,
		);
	const { found, looked } = search;
	if (!found && looked === 0) {
		throw new NodeOperationError(this.getNode(), 'The audit log has no entries yet', {
			description: 'Try again once the service has logged an event.',
			failure: { cause: 'temporarily-unavailable' },
		});
	}
	if (!found)
		throw configurationError(
			{ node: this.getNode() },
			'No audit log entry matches the filters',
			`${end === 'offsetIgnored' ? `None of the ${looked} entries the service answered matches (it ignores the paging parameter "${AUDIT_LOG_QUERY.skip}", so no later page could be read).` : `None of the newest ${looked} entries matches.`} Loosen the filters, or try again once the service has logged a matching event.`,
		);
	return [this.helpers.returnJsonArray([{ ...found.entry }])];
}
