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
	const fast = utcInstant(text);
	if (fast !== undefined) return fast;
	const time = DateTime.fromISO(text, { zone: timeZone, setZone: true });
	// Luxon also reads 24:00 (as the next day's 00:00) and a time alone (as today's): a timestamp
	// here names its own day, first.
	return time.isValid && time.toISODate() === text.slice(0, 10) ? time.toMillis() : undefined;
}

/** The form the API and JavaScript write (`2026-11-01T09:30:00.000Z`, `+00:00`, no fraction). */
const UTC_FORM = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{3}))?(?:Z|\+00:00)$/;
const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * The instant of `text` in the UTC form, as luxon reads it, about 20 times faster (it is read
 * for every entry of every page); undefined for any other text, which luxon then reads.
 */
function utcInstant(text: string): number | undefined {
	const fields = UTC_FORM.exec(text);
	if (!fields) return undefined;
	const [year, month, day, hour, minute, second, milli] = fields.slice(1).map(Number);
	const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
	const valid =
		// Date.UTC reads the years 0 to 99 as 1900 to 1999: luxon reads those.
		year >= 100 &&
		month >= 1 &&
		month <= 12 &&
		day >= 1 &&
		day <= (month === 2 && !leap ? 28 : DAYS_IN_MONTH[month - 1]) &&
		hour <= 23 &&
		minute <= 59 &&
		second <= 59;
	return valid ? Date.UTC(year, month - 1, day, hour, minute, second, milli || 0) : undefined;
}

/** The UTC ISO 8601 form of an instant, with milliseconds, as the API is sent. */
export function toUtcIso(instant: number): string {
	return DateTime.fromMillis(instant, { zone: 'utc' }).toISO()!;
}
