import type { IDataObject } from 'n8n-workflow';

import type { Context } from '../transport';
import { AUDIT_LOG_MAX_PAGE_SIZE, AUDIT_LOG_QUERY, AUDIT_LOG_SORT_FIELD } from './choices';
import { A_COUNT, A_LIST_OF_OBJECTS, callEndpoint } from './endpoint';
import type { AuditLogEntry, AuditLogPage, SortOrder } from './types';

export interface AuditLogQuery {
	sortOrder: SortOrder;
	/** Inclusive lower bound (ISO 8601). */
	startTime?: string;
	/** Exclusive upper bound (ISO 8601). */
	endTime?: string;
}

/**
 * The audit-log reader, used by Audit Log → Get Many and the trigger: reads `GET /audit-logs`
 * page by page (the spec's maximum of 100 a page, by offset), handing each page to `onPage`,
 * which returns false to stop. Stops by itself at `totalItems` or at a short page. Only one page
 * is held at a time.
 */
export async function forEachAuditLogPage(
	this: Context,
	query: AuditLogQuery,
	onPage: (items: AuditLogEntry[]) => boolean | Promise<boolean>,
): Promise<void> {
	for (let offset = 0; ; offset += AUDIT_LOG_MAX_PAGE_SIZE) {
		const qs: IDataObject = {
			[AUDIT_LOG_QUERY.pageSize]: AUDIT_LOG_MAX_PAGE_SIZE,
			[AUDIT_LOG_QUERY.skip]: offset,
			[AUDIT_LOG_QUERY.sortField]: AUDIT_LOG_SORT_FIELD,
			[AUDIT_LOG_QUERY.sortDirection]: query.sortOrder,
		};
		if (query.startTime) qs[AUDIT_LOG_QUERY.since] = query.startTime;
		if (query.endTime) qs[AUDIT_LOG_QUERY.until] = query.endTime;

		const { data } = await callEndpoint.call(this, 'GET', '/audit-logs', {
			qs,
			// Without totalItems the paging could not tell where the log ends.
			reads: { items: A_LIST_OF_OBJECTS, totalItems: A_COUNT },
		});
		const { items, totalItems: total } = data as AuditLogPage;
		const keepGoing = await onPage(items);
		if (!keepGoing || items.length < AUDIT_LOG_MAX_PAGE_SIZE || offset + items.length >= total)
			return;
	}
}
