/**
 * What the API description leaves open ("not shown") and the nodes send; the emulator states its
 * own (test/emulator/choices.ts, compared by its contract test), docs/guarantees.md mirrors it.
 */

/** The query-parameter names of `GET /audit-logs`, by the meaning the spec gives (no names). */
export const AUDIT_LOG_QUERY = {
	/** Maximum number of entries to return (at most AUDIT_LOG_MAX_PAGE_SIZE). */
	pageSize: 'limit',
	/** Number of entries to skip. */
	skip: 'offset',
	/** Field to sort by (only AUDIT_LOG_SORT_FIELD). */
	sortField: 'sortBy',
	/** Sort direction: asc or desc. */
	sortDirection: 'sortOrder',
	/** Only entries at or after this time (inclusive). */
	since: 'startTime',
	/** Only entries before this time (exclusive). */
	until: 'endTime',
} as const;

/** The spec's limit for one `GET /audit-logs` request. */
export const AUDIT_LOG_MAX_PAGE_SIZE = 100;

/** The only sort field the spec allows. */
export const AUDIT_LOG_SORT_FIELD = 'timestamp';
