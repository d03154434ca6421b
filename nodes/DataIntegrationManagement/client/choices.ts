/**
 * The one place for what the API description leaves open ("not shown") and the nodes need to
 * send. The test emulator states the same names on its own (test/emulator/choices.ts), and its
 * contract test compares the two, so a typo on either side fails it. docs/guarantees.md ("Where
 * the API description is silent") mirrors this file.
 */

/**
 * Literal query-parameter names of `GET /audit-logs`, keyed by the meaning the spec gives them
 * (it gives no names).
 */
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

/**
 * The spec's limit for one `GET /audit-logs` request: the trigger pages with it, Audit Log → Get
 * Many with no more than its Limit.
 */
export const AUDIT_LOG_MAX_PAGE_SIZE = 100;

/** The only sort field the spec allows. */
export const AUDIT_LOG_SORT_FIELD = 'timestamp';
