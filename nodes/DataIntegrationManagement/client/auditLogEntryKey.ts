import { createHash, hash } from 'node:crypto';

import { parseInstant } from '../shared/timestamps';
import type { AuditLogEntry } from './types';

/**
 * What identifies an audit-log entry: its id, and, since ids may be missing or repeated, the other
 * fields the spec names (the timestamp as an instant, the event, the actor, the context), hashed.
 * Fields the spec does not name, their order, and how the timestamp is written (`Z` or `+00:00`,
 * with or without milliseconds) leave the key unchanged, so a service that adds a field to its
 * entries does not make the entries it served before look new. The id comes first, before a "#",
 * so that a stored key shows which entry it is.
 */
export function auditEntryKey(entry: AuditLogEntry): string {
	return auditEntryKeyAt(entry, parseInstant((entry as AuditLogEntry | null)?.timestamp));
}

/** `auditEntryKey` of an entry whose timestamp was read already: `instant`. */
export function auditEntryKeyAt(entry: AuditLogEntry, instant: number | undefined): string {
	const { id, timestamp, event, actor, context } = (entry ?? {}) as Partial<
		Record<keyof AuditLogEntry, unknown>
	>;
	const shownId = typeof id === 'string' || typeof id === 'number' ? String(id) : '';
	const field = (parent: unknown, name: string) => (isObject(parent) ? parent[name] : undefined);
	const identifying = [
		shownId,
		instant ?? timestamp,
		event,
		field(actor, 'type'),
		field(actor, 'email'),
		field(context, 'ipAddress'),
		field(context, 'userAgent'),
	];
	return `${shownId}#${digest(canonicalJson(identifying))}`;
}

/** JSON with every object's keys sorted, so that their order leaves it unchanged. */
function canonicalJson(value: unknown): string {
	// Fields as the API describes them are text: JSON.stringify writes them alike, faster.
	if (Array.isArray(value))
		return value.some(isObject) ? `[${value.map(canonicalJson).join(',')}]` : JSON.stringify(value);
	if (isObject(value)) {
		const fields = Object.keys(value)
			.sort()
			.map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`);
		return `{${fields.join(',')}}`;
	}
	return JSON.stringify(value) ?? 'null';
}

/** An object or an array (unlike ../shared/checks.ts's `isObject`, which takes no array). */
const isObject = (value: unknown): value is Record<string, unknown> =>
	typeof value === 'object' && value !== null;

/** A short digest of `text`: 66 bits of its SHA-256 (one call where Node has it, 21.7 and later). */
const digest = (text: string) =>
	(typeof hash === 'function'
		? hash('sha256', text, 'base64url')
		: createHash('sha256').update(text).digest('base64url')
	).slice(0, 11);
