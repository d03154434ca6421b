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

/** cyrb53: a fast 53-bit string hash, in base 36. */
function digest(text: string): string {
	let h1 = 0xdeadbeef;
	let h2 = 0x41c6ce57;
	for (let i = 0; i < text.length; i++) {
		const char = text.charCodeAt(i);
		h1 = Math.imul(h1 ^ char, 2654435761);
		h2 = Math.imul(h2 ^ char, 1597334677);
	}
	h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
	h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
	return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}
