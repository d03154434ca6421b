/**
 * The emulator's own choices where the API description is silent, written here and nowhere else:
 * the emulator does not read the nodes' client/choices.ts, so the contract test
 * (./contract.test.ts) compares two sources and a name changed on either side fails it.
 * docs/guarantees.md ("Where the API description is silent") mirrors both.
 */
import type { SortOrder } from '../../nodes/DataIntegrationManagement/client/types';

/**
 * Literal query-parameter names of `GET /audit-logs` the emulator reads, keyed by the meaning the
 * spec gives them (it gives no names): the names docs/guarantees.md gives as the package's.
 */
export const AUDIT_LOG_QUERY_NAMES = {
	/** Maximum number of entries to return (at most AUDIT_LOG_PAGE_SIZE_MAX). */
	pageSize: 'limit',
	/** Number of entries to skip. */
	skip: 'offset',
	/** Field to sort by (only AUDIT_LOG_SORT_FIELDS). */
	sortField: 'sortBy',
	/** Sort direction: one of SORT_ORDERS. */
	sortDirection: 'sortOrder',
	/** Only entries at or after this time (inclusive). */
	since: 'startTime',
	/** Only entries before this time (exclusive). */
	until: 'endTime',
} as const;

/** The sort fields the emulator accepts: the one the spec allows. */
export const AUDIT_LOG_SORT_FIELDS: readonly string[] = ['timestamp'];

/** The most entries one `GET /audit-logs` page may ask for (the spec's "at most 100"). */
export const AUDIT_LOG_PAGE_SIZE_MAX = 100;

/** Page size applied when a client sends no limit. */
export const AUDIT_LOG_DEFAULT_PAGE_SIZE = 50;

export const SORT_ORDERS: readonly SortOrder[] = ['asc', 'desc'];

/** Value of `code` in a successful envelope (the spec does not list code values). */
export const SUCCESS_CODE = 'SUCCESS';

/**
 * HTTP statuses the spec leaves open, with the error `code` used for each.
 * The spec states only 400 for an invalid `POST /tags`; the rest are the usual REST choices.
 */
export const ERROR_CODES = {
	400: 'BAD_REQUEST',
	401: 'UNAUTHORIZED',
	404: 'NOT_FOUND',
	429: 'RATE_LIMITED',
	500: 'INTERNAL_ERROR',
} as const;

/** Value of `origin` on a tag created or edited through the API (allowed values not shown). */
export const TAG_ORIGIN_API = 'api';
