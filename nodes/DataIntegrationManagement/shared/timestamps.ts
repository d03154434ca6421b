/**
 * Timestamps as instants. The API's timestamps are ISO 8601 in UTC, but may come with or without
 * milliseconds, and with `Z` or an offset; comparing their text would order them wrongly, so
 * everything here works in epoch milliseconds and writes back UTC ISO strings.
 */

const ZONE_DESIGNATOR = /(Z|[+-]\d{2}:?\d{2})$/i;
const LOCAL_DATE_TIME =
	/^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3})\d*)?)?)?$/;
/** The date and clock fields at the start of an ISO 8601 date-time, with or without a zone. */
const CALENDAR_FIELDS = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?/;

/**
 * Whether an ISO 8601 date-time names a real day and time of day. Date.parse and Date.UTC roll
 * 2026-02-30 over into March and 24:00 into the next day; here they name nothing.
 */
function isRealCalendarTime(text: string): boolean {
	const match = CALENDAR_FIELDS.exec(text);
	if (!match) return true;
	const [year, month, day, hour = 0, minute = 0, second = 0] = match
		.slice(1)
		.map((field) => (field === undefined ? undefined : Number(field)));
	const date = new Date(Date.UTC(year!, month! - 1, day!));
	return (
		month! >= 1 &&
		month! <= 12 &&
		date.getUTCMonth() === month! - 1 &&
		date.getUTCDate() === day &&
		hour < 24 &&
		minute < 60 &&
		second < 60
	);
}

/**
 * The instant a timestamp names, in epoch milliseconds, or undefined when it names none.
 * A date-time without a zone designator (as n8n's date picker gives) is read in `timeZone`,
 * the workflow's time zone, and in UTC when none is given.
 */
export function parseInstant(value: unknown, timeZone = 'UTC'): number | undefined {
	if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value.getTime();
	const toISO = (value as { toISO?: unknown } | null | undefined)?.toISO;
	// A Luxon DateTime, as expressions like {{ $now }} produce (not JSON that only names toISO).
	if (typeof value === 'object' && typeof toISO === 'function')
		return parseInstant(toISO.call(value));
	if (typeof value !== 'string' || value.trim() === '') return undefined;
	const text = value.trim();
	if (!isRealCalendarTime(text)) return undefined;
	if (ZONE_DESIGNATOR.test(text)) {
		const instant = Date.parse(text);
		return Number.isNaN(instant) ? undefined : instant;
	}
	const match = LOCAL_DATE_TIME.exec(text);
	if (!match) return undefined;
	const [, y, mo, d, h = '0', mi = '0', s = '0', ms = '0'] = match;
	const asUtc = Date.UTC(+y, +mo - 1, +d, +h, +mi, +s, +ms.padEnd(3, '0'));
	if (Number.isNaN(asUtc)) return undefined;
	// Shift by the zone's offset at that moment (twice, to settle across a DST change).
	let instant = asUtc - zoneOffset(asUtc, timeZone);
	instant = asUtc - zoneOffset(instant, timeZone);
	return instant;
}

/** How far `timeZone` is ahead of UTC at `instant`, in milliseconds. */
function zoneOffset(instant: number, timeZone: string): number {
	const parts = new Intl.DateTimeFormat('en-US', {
		timeZone,
		hourCycle: 'h23',
		year: 'numeric',
		month: '2-digit',
		day: '2-digit',
		hour: '2-digit',
		minute: '2-digit',
		second: '2-digit',
	}).formatToParts(new Date(instant));
	const get = (type: string) => Number(parts.find((part) => part.type === type)?.value);
	const wallClock = Date.UTC(
		get('year'),
		get('month') - 1,
		get('day'),
		get('hour'),
		get('minute'),
		get('second'),
	);
	return wallClock - Math.floor(instant / 1000) * 1000;
}

/** The UTC ISO 8601 form of an instant, as the API is sent. */
export function toUtcIso(instant: number): string {
	return new Date(instant).toISOString();
}
