/**
 * The emulator's own choices where the API description is silent: what it answers, not what the
 * nodes send (that is in the nodes' client/choices.ts, which the emulator also reads). The README's
 * "Choices we made" section mirrors both.
 */
import type { SortOrder } from '../../nodes/DataIntegrationManagement/client/types';

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
