import { NodeApiError } from 'n8n-workflow';

import type { Context } from '../transport';
import { AUDIT_LOG_MAX_PAGE_SIZE } from './choices';
import { callEndpoint, type Read } from './endpoint';
import type { PlacedEntry } from './auditLogPlacement';
import { refused, refusedQuery } from './auditLogRefusals';
import {
	SCAN_START,
	afterFailure,
	mayAsk,
	pageQuery,
	readsOn,
	type AuditLogScan,
	type ScanEnd,
	type ScannedPage,
} from './auditLogScan';
import { nextStep } from './auditLogStep';
import type { AuditLogEntry, AuditLogPage } from './types';
import { declaredError } from '../shared/failures';

/**
 * `GET /audit-logs`, shared by the trigger and Audit Log → Get Many: the scan's page requests.
 * What each answer means and what comes next is decided in ./auditLogStep.ts.
 */

export { auditEntryKey } from './auditLogEntryKey';
export type { PlacedEntry } from './auditLogPlacement';
export type { AuditLogScan, ScanEnd, ScannedPage } from './auditLogScan';

/**
 * Scans the log page by page until it ends or `onPage` returns false. Entries whose timestamps
 * cannot be read wait for a newer readable neighbour, so oldest first the last of a page may come
 * with the next page.
 */
export async function scanAuditLog(
	this: Context,
	scan: AuditLogScan,
	onPage: (page: ScannedPage) => boolean | Promise<boolean>,
): Promise<ScanEnd> {
	let state = SCAN_START;
	const keys = { received: new Set<string>(), handedOver: new Set<string>() };
	let answered = 0;
	for (;;) {
		if (!mayAsk(scan, state, Date.now())) return 'deadline';
		const asked = Date.now();
		let answer: Read<AuditLogPage>;
		try {
			answer = await callEndpoint(this, 'GET /audit-logs', {
				qs: pageQuery(scan, state),
				deadline: scan.deadline,
				pacer: scan.pacer,
			});
		} catch (error) {
			const end = afterFailure(scan, state, Date.now(), {
				deadlineReached: (error as NodeApiError).context?.deadlineReached === true,
				rateLimited: (error as NodeApiError).httpCode === '429',
				pagesRead: answered,
			});
			if (end === 'deadline') return 'deadline';
			if (end === 'mayKeep' && scan.keepsWhatItRead?.(error)) return 'failed';
			// Another server's page (a proxy's) refused no query name of ours.
			const byApi = error instanceof NodeApiError && !error.context.byAnotherServer;
			if (byApi && error.httpCode === '400') throw refusedQuery(this, error);
			throw declaredError(this.getNode(), error);
		}
		answered++;
		const tookMs = Date.now() - asked;
		scan.onAnswer?.();
		// The Date header counts whole seconds: the service's present is in the one it names.
		const answeredAt = answer.date !== undefined ? answer.date + 1000 : Date.now();
		const answeredAfter = answer.date ?? asked;
		const { items, totalItems } = answer.data;
		const step = nextStep(scan, state, keys, {
			items,
			totalItems,
			answeredAt,
			answeredAfter,
			tookMs,
		});
		if (step.action === 'refuse') throw refused(this, step.refusal, state.offset);
		if (step.action === 'end') return step.end;
		state = step.state;
		for (const key of step.received) keys.received.add(key);
		for (const key of step.handedOver) keys.handedOver.add(key);
		if (!(await onPage(step.page))) return 'stopped';
		if (step.last) return 'end';
	}
}

/**
 * Up to `limit` entries inside the bounds that `keep` keeps, in `scan.sortOrder`, whatever order the service
 * answers in: when it answers in the other order, the whole bounded range is read and the
 * wanted end of it kept. `complete` is false when the deadline came first. Repeats are dropped
 * (`dropRepeats`), so an entry with the same `auditEntryKey` as one read before is taken for it.
 */
export async function scanAuditLogInOrder(
	this: Context,
	scan: AuditLogScan,
	limit = Infinity,
	keep: (entry: AuditLogEntry) => boolean = () => true,
): Promise<{ entries: PlacedEntry[]; complete: boolean; answeredAt?: number }> {
	let entries: PlacedEntry[] = [];
	let reversed = false;
	let answeredAt: number | undefined;
	// A first page no larger than the limit needs (Limit 5 asks for 5), yet of 2 entries at least,
	// so that the answer shows its order; should more be needed, full pages follow.
	const firstPageSize = Math.min(AUDIT_LOG_MAX_PAGE_SIZE, Math.max(2, limit));
	const end = await scanAuditLog.call(
		this,
		{ ...scan, dropRepeats: true, firstPageSize },
		(page) => {
			answeredAt = page.answeredAt;
			reversed = page.order !== undefined && page.order !== scan.sortOrder;
			entries.push(...page.entries.filter(({ entry }) => keep(entry)));
			// In the other order, the wanted entries are the last ones: only those are held.
			if (reversed && entries.length > limit) entries = entries.slice(entries.length - limit);
			return readsOn(page.order, scan.sortOrder, entries.length, limit);
		},
	);
	if (reversed) entries.reverse();
	// Pages that shifted under the scan (entries logged meanwhile) can leave a few out of place:
	// a stable sort by instant puts them back, and keeps ties in the service's order.
	const direction = scan.sortOrder === 'asc' ? 1 : -1;
	entries.sort((a, b) => direction * (a.earliest - b.earliest));
	const complete = end === 'end' || end === 'stopped';
	return { entries: entries.slice(0, limit), complete, answeredAt };
}
