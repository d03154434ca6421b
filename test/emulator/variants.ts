/**
 * Services that fit the spec but answer `GET /audit-logs` differently from our choices. The spec
 * leaves the query names, the default page size and the presence of fields open ("not shown"),
 * so a real service may cap pages lower, leave `totalItems` out or cap it, ignore the sort order or the
 * time bounds, not know (and ignore or refuse) a query name of ours, or serve odd entries. Each
 * switch makes the emulator behave so; none set (the default) is the spec-following service.
 *
 * "Our" query names are the package's documented ones as the emulator states them
 * (./choices.ts), not read from the nodes' client/choices.ts: the contract test checks that the
 * nodes send the same, so a variant that forgets them forgets what the nodes send.
 */
import type {
	AuditLogEntry,
	AuditLogPage,
} from '../../nodes/DataIntegrationManagement/client/types';
import type { ServiceVariant } from './service-variant';
import type { Store } from './store';
import { AUDIT_LOG_QUERY_NAMES } from './choices';
import { badRequest } from './errors';
import { parseAuditLogQuery, type QueryParams } from './query';

export type { ServiceVariant } from './service-variant';

/** Every switch, one at a time, and all at once: the services the nodes must stay correct against. */
export const SERVICE_VARIANTS: Record<string, ServiceVariant> = {
	'spec-following': {},
	'pages of 50': { pageSizeCap: 50 },
	'pages of 7': { pageSizeCap: 7 },
	'no totalItems': { omitTotalItems: true },
	'totalItems capped below a page': { totalItemsCap: 50 },
	'newest first always, totalItems capped at 120': { fixedOrder: 'desc', totalItemsCap: 120 },
	'newest first always': { fixedOrder: 'desc' },
	'oldest first always': { fixedOrder: 'asc' },
	'time bounds ignored': { ignoreTimeBounds: true },
	'our names unknown, ignored': {
		unknownNames: {
			names: [
				AUDIT_LOG_QUERY_NAMES.pageSize,
				AUDIT_LOG_QUERY_NAMES.sortField,
				AUDIT_LOG_QUERY_NAMES.sortDirection,
				AUDIT_LOG_QUERY_NAMES.since,
				AUDIT_LOG_QUERY_NAMES.until,
			],
			handling: 'ignore',
		},
	},
	'odd ids and timestamps': { oddIds: true, oddTimestamps: true },
	'all at once': {
		pageSizeCap: 30,
		omitTotalItems: true,
		fixedOrder: 'desc',
		ignoreTimeBounds: true,
		oddIds: true,
		oddTimestamps: true,
	},
};

/** A service that does not know our offset name: every page starts at the first entry. */
export const OFFSET_IGNORED: ServiceVariant = {
	unknownNames: { names: [AUDIT_LOG_QUERY_NAMES.skip], handling: 'ignore' },
};

/** `variant` that ignores the offset too (its unknown names, and ours for the offset). */
export function withOffsetIgnored(variant: ServiceVariant): ServiceVariant {
	const names = [...(variant.unknownNames?.names ?? []), AUDIT_LOG_QUERY_NAMES.skip];
	return {
		...variant,
		unknownNames: { names, handling: variant.unknownNames?.handling ?? 'ignore' },
	};
}

/** `GET /audit-logs` as the variant service answers it. */
export function answerAuditLog(store: Store, query: QueryParams): Partial<AuditLogPage> {
	const variant = store.auditLogVariant;
	let known = query;
	if (variant.unknownNames) {
		const { names, handling } = variant.unknownNames;
		const unknown = Object.keys(query).filter((name) => names.includes(name));
		if (unknown.length && handling === 'refuse')
			throw badRequest(`unknown query parameter '${unknown[0]}'`);
		known = Object.fromEntries(Object.entries(query).filter(([name]) => !names.includes(name)));
	}
	const asked = parseAuditLogQuery(known);
	const page = store.queryAuditLog({
		...asked,
		limit: Math.min(asked.limit, variant.pageSizeCap ?? asked.limit),
		sortOrder: variant.fixedOrder ?? asked.sortOrder,
		...(variant.ignoreTimeBounds && { startTime: undefined, endTime: undefined }),
	});
	let items = page.items;
	if (variant.oddIds || variant.oddTimestamps) {
		const positions = new Map(store.auditEntries.map((entry, position) => [entry, position]));
		items = items.map((entry) => present(store, entry, positions.get(entry)!, variant));
	}
	if (variant.restyledEntries) items = items.map(restyle);
	const totalItems = Math.min(page.totalItems ?? 0, variant.totalItemsCap ?? Infinity);
	return variant.omitTotalItems ? { items } : { totalItems, items };
}

/** The entry as a service with odd ids or timestamps serves it. */
function present(
	store: Store,
	entry: AuditLogEntry,
	position: number,
	variant: ServiceVariant,
): AuditLogEntry {
	const served: Record<string, unknown> = { ...entry };
	if (variant.oddIds) {
		if (position % 5 === 1) delete served.id;
		if (position % 5 === 2) served.id = position;
		// Repeats the id of an entry served with its own id (position - 3 is 0 modulo 5).
		if (position % 5 === 3) served.id = store.auditEntries[position - 3].id;
	}
	if (variant.oddTimestamps && servedWithoutReadableTimestamp(position)) {
		if (position % 5 === 4) served.timestamp = 'yesterday, around noon';
		else delete served.timestamp;
	}
	return served as unknown as AuditLogEntry;
}

/** Whether, with `oddTimestamps`, the entry at this position of the log is served without a readable timestamp. */
export function servedWithoutReadableTimestamp(position: number): boolean {
	return position % 5 === 4 || position % 10 === 0;
}

/** The entry as a service that evolved serves it (see `restyledEntries`). */
function restyle(entry: AuditLogEntry): AuditLogEntry {
	const { timestamp, ...rest } = entry as unknown as Record<string, unknown>;
	const instant = typeof timestamp === 'string' ? Date.parse(timestamp) : Number.NaN;
	const fields = Object.entries(rest).reverse();
	if (Number.isNaN(instant)) fields.push(['timestamp', timestamp]);
	else {
		const utc = new Date(instant).toISOString();
		fields.push(['timestamp', utc.endsWith('.000Z') ? utc.replace('.000Z', '+00:00') : utc]);
	}
	return Object.fromEntries([['region', 'eu-west-1'], ...fields]) as unknown as AuditLogEntry;
}
