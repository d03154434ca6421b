/**
 * Turns query strings into typed inputs, or a 400 naming the offending parameter. Unknown
 * parameters are rejected rather than ignored, as unknown body fields are (./validation.ts).
 */
import type { SortOrder } from '../../nodes/DataIntegrationManagement/client/types';
import {
	AUDIT_LOG_DEFAULT_PAGE_SIZE,
	AUDIT_LOG_PAGE_SIZE_MAX,
	AUDIT_LOG_QUERY_NAMES,
	AUDIT_LOG_SORT_FIELDS,
	SORT_ORDERS,
} from './choices';
import { badRequest } from './errors';
import { parseInstant } from './timestamps';
import { rejectUnknownKeys } from './validation';

export type QueryParams = Record<string, string | string[]>;

export interface AuditLogQuery {
	limit: number;
	offset: number;
	sortOrder: SortOrder;
	/** Inclusive lower bound, nanoseconds since the epoch. */
	startTime?: bigint;
	/** Exclusive upper bound, nanoseconds since the epoch. */
	endTime?: bigint;
}

/** Operations the spec gives no query parameters must not receive any. */
export function rejectQuery(query: QueryParams) {
	rejectUnknownKeys(query, [], (key) => `unknown query parameter '${key}'`);
}

function singleValue(query: QueryParams, name: string): string | undefined {
	const value = query[name];
	if (Array.isArray(value)) throw badRequest(`${name} must be given at most once`);
	return value;
}

function integerParam(
	query: QueryParams,
	name: string,
	min: number,
	max: number,
	fallback: number,
) {
	const text = singleValue(query, name);
	if (text === undefined) return fallback;
	const value = Number(text);
	if (!/^\d+$/.test(text) || value < min || value > max) {
		const range = max === Number.MAX_SAFE_INTEGER ? `${min} or more` : `between ${min} and ${max}`;
		throw badRequest(`${name} must be an integer ${range}, got '${text}'`);
	}
	return value;
}

function timestampParam(query: QueryParams, name: string): bigint | undefined {
	const text = singleValue(query, name);
	if (text === undefined) return undefined;
	const instant = parseInstant(text);
	if (instant === undefined) {
		throw badRequest(
			`${name} must be an ISO 8601 date-time with a time zone, e.g. 2026-10-01T00:00:00Z, got '${text}'`,
		);
	}
	return instant;
}

function enumParam<T extends string>(
	query: QueryParams,
	name: string,
	allowed: readonly T[],
): T | undefined {
	const text = singleValue(query, name);
	if (text !== undefined && !allowed.includes(text as T)) {
		throw badRequest(`${name} must be one of ${allowed.join(', ')}, got '${text}'`);
	}
	return text as T | undefined;
}

export function parseAuditLogQuery(query: QueryParams): AuditLogQuery {
	const names = AUDIT_LOG_QUERY_NAMES;
	rejectUnknownKeys(query, Object.values(names), (key) => `unknown query parameter '${key}'`);
	enumParam(query, names.sortField, AUDIT_LOG_SORT_FIELDS);
	return {
		limit: integerParam(
			query,
			names.pageSize,
			1,
			AUDIT_LOG_PAGE_SIZE_MAX,
			AUDIT_LOG_DEFAULT_PAGE_SIZE,
		),
		offset: integerParam(query, names.skip, 0, Number.MAX_SAFE_INTEGER, 0),
		sortOrder: enumParam(query, names.sortDirection, SORT_ORDERS) ?? 'desc',
		startTime: timestampParam(query, names.since),
		endTime: timestampParam(query, names.until),
	};
}
