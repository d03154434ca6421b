import { NodeApiError, type IDataObject, type JsonObject } from 'n8n-workflow';

import { parseInstant, toUtcIso } from '../shared/timestamps';
import { apiRequestAnswer, type Answer, type Context } from '../transport';
import type { Pacer } from '../transport/pacer';
import { AUDIT_LOG_MAX_PAGE_SIZE, AUDIT_LOG_QUERY, AUDIT_LOG_SORT_FIELD } from './choices';
import { A_LIST_OF_OBJECTS, AN_OPTIONAL_COUNT, checkData } from './endpoint';
import type { AuditLogEntry, AuditLogPage, SortOrder } from './types';

/**
 * Reading `GET /audit-logs`, shared by the trigger and Audit Log → Get Many. The spec leaves the
 * query names, the default page size and the presence of fields open, so nothing here trusts the
 * service to have done what was asked: pages are counted by what came back, the order of the
 * answer is checked, the time bounds are applied again on our side, and timestamps that cannot be
 * read are placed by their neighbours.
 */

/**
 * What identifies an audit-log entry: its id, and, since ids may be missing or repeated, the other
 * fields the spec names (the timestamp as an instant, the event, the actor, the context), hashed.
 * Fields the spec does not name, their order, and how the timestamp is written (`Z` or `+00:00`,
 * with or without milliseconds) leave the key unchanged, so a service that adds a field to its
 * entries does not make the entries it served before look new. The id comes first and before a
 * "#", so that the keys of version 0.1.0 (the id alone) can still be told apart.
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

/** An entry as read, with the instant it is placed at. */
export interface ReadEntry {
	entry: AuditLogEntry;
	/**
	 * Epoch ms: its timestamp, or, when that cannot be read, the instant of the next newer entry
	 * whose timestamp can (or when the service answered, if none): never earlier than where the
	 * service has it, so a bounded read that no longer returns it has also passed it.
	 */
	instant: number;
	/**
	 * Epoch ms: its timestamp, or, when that cannot be read, the instant of the next older
	 * readable entry (where known): no later than where the service has it. Entries are put in
	 * order by this, so one without a readable timestamp comes right after its older neighbour.
	 */
	earliest: number;
	/** Whether its timestamp could be read; only those move the trigger's cursor. */
	readable: boolean;
}

export interface AuditLogRead {
	/** The order to ask for. */
	sortOrder: SortOrder;
	/** Epoch ms, inclusive. */
	startTime?: number;
	/** Epoch ms, exclusive. */
	endTime?: number;
	/** Epoch ms: no page is asked for, nor a 429 waited out, past it. */
	deadline?: number;
	/**
	 * Drop an entry served exactly as one already received in this read: entries logged during
	 * the read push others onto the next page, which then repeats them. An unreadable timestamp
	 * is placed where the entry was first read (by its neighbour then).
	 */
	dropRepeats?: boolean;
	/** Called as each page arrives, before it is taken in (the trigger renews its lease). */
	onAnswer?: () => void;
	/** Entries to ask for in the next page: at most (and by default) AUDIT_LOG_MAX_PAGE_SIZE. */
	pageSize?: number;
	/** The run's pacer, told of each page's answer (Audit Log → Get Many; the trigger has none). */
	pacer?: Pacer;
}

export interface PageRead {
	/** The page's entries inside the bounds, in the order the service gave them. */
	entries: ReadEntry[];
	/** The order the service answers in, once an answer showed it (unknown while all instants tie). */
	order?: SortOrder;
	/** The service returned entries outside the bounds asked: it ignores them. */
	boundsIgnored: boolean;
	/**
	 * The page repeats an entry held back from the page before (its timestamp unreadable, it
	 * waits for a newer neighbour): entries logged during the read pushed it on. A reader that
	 * stops at a page repeating what it read must stop here too.
	 */
	repeatsHeldBack: boolean;
	/**
	 * Epoch ms: no earlier than when the service answered (the second after its Date header, else
	 * n8n's clock).
	 */
	answeredAt: number;
}

/** How a read ended: the log's end, the caller said stop, or the deadline came first. */
export type ReadEnd = 'end' | 'stopped' | 'deadline';

/**
 * Reads pages until the log ends or `onPage` returns false. The next offset is the previous one
 * plus the entries received; the end is where `totalItems` says, or (without it) an empty page, or
 * where the service's order has passed the bounds. Entries whose timestamps cannot be read wait
 * for the next newer readable entry to be placed, so in ascending order the last of a page may be
 * handed over with the next page.
 */
export async function readAuditLogPages(
	this: Context,
	read: AuditLogRead,
	onPage: (page: PageRead) => boolean | Promise<boolean>,
): Promise<ReadEnd> {
	let offset = 0;
	let order: SortOrder | undefined;
	let boundsIgnored = false;
	/** In descending order: the instant of the last readable entry, newer than what follows. */
	let newerInstant: number | undefined;
	/** In ascending order: the instant of the last readable entry, older than what follows. */
	let olderInstant: number | undefined;
	/** In ascending order: unreadable entries waiting for a newer readable one. */
	let waiting: AuditLogEntry[] = [];
	let slowestPageMs = 0;
	/** Every entry received so far (by `auditEntryKey`). */
	const received = new Set<string>();
	/** With `dropRepeats`: every entry handed over so far. */
	const handedOver = new Set<string>();
	for (;;) {
		if (read.deadline !== undefined && offset > 0 && Date.now() + slowestPageMs > read.deadline)
			return 'deadline';
		const asked = Date.now();
		let answer: Answer<AuditLogPage>;
		try {
			answer = (await apiRequestAnswer.call(this, 'GET', '/audit-logs', {
				qs: pageQuery(read, offset),
				deadline: read.deadline,
				pacer: read.pacer,
			})) as Answer<AuditLogPage>;
		} catch (error) {
			// A 429 wait or a request the deadline cut short: what was read so far stands.
			const cut =
				(error as NodeApiError).context?.deadlineReached === true ||
				(read.deadline !== undefined && Date.now() >= read.deadline);
			if (cut && offset > 0) return 'deadline';
			throw namingRefusedParameter(error);
		}
		slowestPageMs = Math.max(slowestPageMs, Date.now() - asked);
		read.onAnswer?.();
		// The Date header counts whole seconds: the service's present is before the next one.
		const answeredAt = answer.date !== undefined ? answer.date + 1000 : Date.now();
		const data = answer.envelope.data;
		// A page without its list is an answer we cannot read, not an empty log; `totalItems`
		// may be missing (the end is then an empty page).
		checkData(this, 'GET /audit-logs', data, {
			items: A_LIST_OF_OBJECTS,
			totalItems: AN_OPTIONAL_COUNT,
		});
		const { items, totalItems: total } = data as AuditLogPage;
		const keys = items.map(auditEntryKey);
		// A page of nothing but entries this read already received: a service that ignores our
		// offset answers every page so, and reading on would never end (or, with totalItems, end
		// on a silent part of the log).
		if (offset > 0 && keys.length > 0 && keys.every((key) => received.has(key))) {
			throw offsetNotHonoured(this, offset);
		}
		for (const key of keys) received.add(key);
		offset += items.length;

		const instants = items.map((entry) => parseInstant(entry?.timestamp));
		// Only within a page: entries logged during the read shift later pages, so a later page
		// may hold newer or older entries than an earlier one whatever the order.
		order = order ?? orderOf(instants);
		const ascending = (order ?? read.sortOrder) === 'asc';
		const placed: ReadEntry[] = [];
		const heldBack = new Set(waiting.map(auditEntryKey));
		const repeatsHeldBack = heldBack.size > 0 && keys.some((key) => heldBack.has(key));
		if (ascending) {
			items.forEach((entry, index) => {
				const instant = instants[index];
				if (instant === undefined) {
					waiting.push(entry);
					return;
				}
				for (const earlier of waiting) {
					placed.push({
						entry: earlier,
						instant,
						earliest: olderInstant ?? instant,
						readable: false,
					});
				}
				waiting = [];
				olderInstant = instant;
				placed.push({ entry, instant, earliest: instant, readable: true });
			});
		} else {
			// The newest entries, before any readable one: at the present, or later if the service
			// has readable entries stamped later still.
			const newestReadable = instants.find((instant) => instant !== undefined);
			// Each entry's next older readable instant in this page: a lower bound.
			const olderInPage: Array<number | undefined> = [];
			for (let index = items.length - 1, older: number | undefined; index >= 0; index--) {
				olderInPage[index] = older;
				older = instants[index] ?? older;
			}
			items.forEach((entry, index) => {
				const instant = instants[index];
				newerInstant =
					instant ?? newerInstant ?? Math.max(answeredAt, newestReadable ?? answeredAt);
				placed.push({
					entry,
					instant: newerInstant,
					earliest: instant ?? Math.min(newerInstant, olderInPage[index] ?? newerInstant),
					readable: instant !== undefined,
				});
			});
		}
		// In the service's order, once an entry is past the bounds every later one is too.
		const passedBounds = instants.some(
			(instant) =>
				instant !== undefined &&
				(order === 'asc'
					? read.endTime !== undefined && instant >= read.endTime
					: order === 'desc' && read.startTime !== undefined && instant < read.startTime),
		);
		const atEnd = passedBounds || items.length === 0 || (total !== undefined && offset >= total);
		// At the end, unreadable entries still waiting are the newest: placed at the present, or
		// later if the service has readable entries stamped later still.
		if (atEnd) {
			const instant = Math.max(answeredAt, olderInstant ?? answeredAt);
			const earliest = olderInstant ?? instant;
			placed.push(...waiting.map((entry) => ({ entry, instant, earliest, readable: false })));
		}

		// Repeats go only now: within its page, a repeated entry is still a true neighbour.
		const fresh = read.dropRepeats
			? placed.filter(({ entry }) => {
					const key = auditEntryKey(entry);
					return !handedOver.has(key) && !!handedOver.add(key);
				})
			: placed;
		const inside = fresh.filter(({ instant }) => within(read, instant));
		if (inside.length < fresh.length) boundsIgnored = true;
		const page = { entries: inside, order, boundsIgnored, repeatsHeldBack, answeredAt };
		if (!(await onPage(page))) return 'stopped';
		if (atEnd) return 'end';
	}
}

/**
 * Up to `limit` entries inside the bounds, in `read.sortOrder`, whatever order the service
 * answers in: when it answers in the other order, the whole bounded range is read and the
 * wanted end of it kept. `complete` is false when the deadline came first. Repeats are dropped
 * (`dropRepeats`), so an entry with the same `auditEntryKey` as one read before is taken for it.
 */
export async function readAuditLogInOrder(
	this: Context,
	read: AuditLogRead,
	limit = Infinity,
): Promise<{ entries: ReadEntry[]; complete: boolean; answeredAt?: number }> {
	let entries: ReadEntry[] = [];
	let reversed = false;
	let answeredAt: number | undefined;
	// A first page no larger than the limit needs (Limit 5 asks for 5), yet of 2 entries at least,
	// so that the answer shows its order; should more be needed, full pages follow.
	const paged: AuditLogRead = {
		...read,
		dropRepeats: true,
		pageSize: Math.min(AUDIT_LOG_MAX_PAGE_SIZE, Math.max(2, limit)),
	};
	const end = await readAuditLogPages.call(this, paged, (page) => {
		paged.pageSize = AUDIT_LOG_MAX_PAGE_SIZE;
		answeredAt = page.answeredAt;
		reversed = page.order !== undefined && page.order !== read.sortOrder;
		entries.push(...page.entries);
		// Read in the other order, the wanted entries are the last ones: keep only those.
		if (reversed) {
			if (entries.length > limit) entries = entries.slice(entries.length - limit);
			return true;
		}
		// Read in the wanted order (or all tied so far): the first `limit` are the answer, once
		// an answer showed that order.
		return !(page.order !== undefined && entries.length >= limit);
	});
	if (reversed) entries.reverse();
	// Pages that shifted under the read (entries logged meanwhile) can leave a few out of place:
	// a stable sort by instant puts them back, and keeps ties in the service's order.
	const direction = read.sortOrder === 'asc' ? 1 : -1;
	entries.sort((a, b) => direction * (a.earliest - b.earliest));
	return { entries: entries.slice(0, limit), complete: end !== 'deadline', answeredAt };
}

function pageQuery(read: AuditLogRead, offset: number): IDataObject {
	const qs: IDataObject = {
		[AUDIT_LOG_QUERY.pageSize]: read.pageSize ?? AUDIT_LOG_MAX_PAGE_SIZE,
		[AUDIT_LOG_QUERY.skip]: offset,
		[AUDIT_LOG_QUERY.sortField]: AUDIT_LOG_SORT_FIELD,
		[AUDIT_LOG_QUERY.sortDirection]: read.sortOrder,
	};
	if (read.startTime !== undefined) qs[AUDIT_LOG_QUERY.since] = toUtcIso(read.startTime);
	if (read.endTime !== undefined) qs[AUDIT_LOG_QUERY.until] = toUtcIso(read.endTime);
	return qs;
}

function within(read: AuditLogRead, instant: number): boolean {
	return (
		(read.startTime === undefined || instant >= read.startTime) &&
		(read.endTime === undefined || instant < read.endTime)
	);
}

/** The order the readable instants of one answer are in, or undefined while they all tie. */
function orderOf(instants: Array<number | undefined>): SortOrder | undefined {
	let previous: number | undefined;
	for (const instant of instants) {
		if (instant === undefined) continue;
		if (previous !== undefined && instant !== previous) return instant > previous ? 'asc' : 'desc';
		previous = instant;
	}
	return undefined;
}

function offsetNotHonoured(context: Context, offset: number): NodeApiError {
	const name = AUDIT_LOG_QUERY.skip;
	return new NodeApiError(
		context.getNode(),
		{ message: `GET /audit-logs repeated earlier entries at ${name}=${offset}` },
		{
			message: 'The service kept answering audit log entries already read, so the read stopped',
			description: `Asked for the entries after the first ${offset}, it answered only entries it had already returned; reading on would never end, so nothing was returned. If entries were being logged meanwhile, run it again. If it happens every time, the service pages the audit log differently from what this package asks ("${name}"): see the README, "Choices we made where the API description is silent".`,
		},
	);
}

/**
 * A 400 that names one of our query names is a service that does not know it: say which, and
 * where our names are chosen. Other errors pass through unchanged.
 */
function namingRefusedParameter(error: unknown): unknown {
	const apiError = error as NodeApiError;
	if (!(error instanceof NodeApiError) || apiError.httpCode !== '400') return error;
	const said = `${apiError.message} ${apiError.description ?? ''}`;
	const name = Object.values(AUDIT_LOG_QUERY).find((candidate) =>
		new RegExp(`\\b${candidate}\\b`).test(said),
	);
	const names = Object.values(AUDIT_LOG_QUERY).join(', ');
	return new NodeApiError(
		apiError.node,
		{ message: apiError.message, httpCode: '400' } as JsonObject,
		{
			message: name
				? `The service refused the audit-log query parameter "${name}": ${apiError.message}`
				: `The service refused the audit-log query: ${apiError.message}`,
			description: `To read the audit log, this package asks with the names ${names}, which the service's API description leaves open (see the README, "Choices we made where the API description is silent"). A service that calls them differently refuses them; tell the package's maintainers which names your service expects.`,
			httpCode: '400',
		},
	);
}
