import { DateTime } from 'luxon';

/**
 * The API writes timestamps in ISO 8601 with `Z` or an offset, with or without milliseconds: their
 * text does not sort as their instants do, so the nodes compare epoch milliseconds (luxon reads).
 */

/**
 * The instant, in epoch milliseconds, of an ISO 8601 date-time (one without a zone read in
 * `timeZone`, the workflow's, as n8n's date picker gives it), a Date or a Luxon DateTime (as
 * {{ $now }} gives); undefined when it names none.
 */
export function parseInstant(value: unknown, timeZone = 'UTC'): number | undefined {
	if (value instanceof Date || DateTime.isDateTime(value)) {
		const instant = value.valueOf();
		return Number.isFinite(instant) ? instant : undefined;
	}
	if (typeof value !== 'string') return undefined;
	const text = value.trim();
	const time = DateTime.fromISO(text, { zone: timeZone, setZone: true });
	// Luxon also reads 24:00 (as the next day's 00:00) and a time alone (as today's): a timestamp
	// here names its own day, first.
	return time.isValid && time.toISODate() === text.slice(0, 10) ? time.toMillis() : undefined;
}

/** The UTC ISO 8601 form of an instant, with milliseconds, as the API is sent. */
export function toUtcIso(instant: number): string {
	return DateTime.fromMillis(instant, { zone: 'utc' }).toISO()!;
}
