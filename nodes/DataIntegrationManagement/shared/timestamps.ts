/**
 * Timestamps as instants. The API's timestamps are ISO 8601 in UTC, but may come with or without
 * milliseconds, and with `Z` or an offset; comparing their text would order them wrongly, so
 * everything here works in epoch milliseconds and writes back UTC ISO strings.
 */

const ZONE_DESIGNATOR = /(Z|[+-]\d{2}:?\d{2})$/i;
const LOCAL_DATE_TIME =
	/^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3})\d*)?)?)?$/;

/**
 * The instant a timestamp names, in epoch milliseconds, or undefined when it names none.
 * A date-time without a zone designator (as n8n's date picker gives) is read in `timeZone`,
 * the workflow's time zone, and in UTC when none is given.
 */
export function parseInstant(value: unknown, timeZone = 'UTC'): number | undefined {
	if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value.getTime();
	if (typeof value === 'object' && value !== null && 'toISO' in value) {
		// A Luxon DateTime, as expressions like {{ $now }} produce.
		return parseInstant((value as { toISO: () => string }).toISO());
	}
	if (typeof value !== 'string' || value.trim() === '') return undefined;
	const text = value.trim();
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
