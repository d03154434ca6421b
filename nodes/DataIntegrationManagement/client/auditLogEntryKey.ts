import { createHash } from 'node:crypto';

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
	const { id, timestamp, event, actor, context } = (entry ?? {}) as Partial<
		Record<keyof AuditLogEntry, unknown>
	>;
	const shownId = typeof id === 'string' || typeof id === 'number' ? String(id) : '';
	const field = (parent: unknown, name: string) =>
		typeof parent === 'object' && parent !== null
			? (parent as Record<string, unknown>)[name]
			: undefined;
	const identifying = [
		shownId,
		parseInstant(timestamp) ?? timestamp,
		event,
		field(actor, 'type'),
		field(actor, 'email'),
		field(context, 'ipAddress'),
		field(context, 'userAgent'),
	];
	return `${shownId}#${digest(canonicalJson(identifying))}`;
}

function canonicalJson(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
	if (typeof value === 'object' && value !== null) {
		const fields = Object.keys(value)
			.sort()
			.map(
				(key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`,
			);
		return `{${fields.join(',')}}`;
	}
	return JSON.stringify(value) ?? 'null';
}

/** A short digest of `text`: 66 bits of its SHA-256. */
const digest = (text: string) => createHash('sha256').update(text).digest('base64url').slice(0, 11);
