/**
 * ISO 8601 date-time in extended format with a mandatory time zone designator:
 * 2026-10-05T14:03:00Z, 2026-10-05T14:03:00.123Z, 2026-10-05T16:03:00.123+02:00.
 * Fractions of a second may have 1 to 9 digits.
 */
const ISO_DATE_TIME =
	/^(?<year>\d{4})-(?<month>\d{2})-(?<day>\d{2})T(?<hour>\d{2}):(?<minute>\d{2}):(?<second>\d{2})(?:\.(?<fraction>\d{1,9}))?(?:Z|(?<sign>[+-])(?<offsetHours>\d{2}):(?<offsetMinutes>\d{2}))$/;

const NANOS_PER_MILLI = 1_000_000n;

function daysInMonth(year: number, month: number): number {
	const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
	return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
}

/**
 * The instant a timestamp names, in nanoseconds since the Unix epoch, or undefined when the text
 * is not a valid date-time with a time zone. Nanoseconds (as a bigint) keep comparisons exact for
 * any fraction length, so two strings naming the same instant in different notations tie.
 */
export function parseInstant(text: string): bigint | undefined {
	const groups = ISO_DATE_TIME.exec(text)?.groups;
	if (!groups) return undefined;
	const [year, month, day, hour, minute, second] = [
		groups.year,
		groups.month,
		groups.day,
		groups.hour,
		groups.minute,
		groups.second,
	].map(Number);
	const offsetHours = Number(groups.offsetHours ?? 0);
	const offsetMinutes = Number(groups.offsetMinutes ?? 0);
	const valid =
		month >= 1 &&
		month <= 12 &&
		day >= 1 &&
		day <= daysInMonth(year, month) &&
		hour <= 23 &&
		minute <= 59 &&
		second <= 59 &&
		offsetHours <= 23 &&
		offsetMinutes <= 59;
	if (!valid) return undefined;

	// Local time = UTC + offset, so UTC = local time - offset.
	const offset = (groups.sign === '-' ? -1 : 1) * (offsetHours * 60 + offsetMinutes);
	// setUTCFullYear, unlike Date.UTC, does not map years 0-99 to 1900-1999.
	const date = new Date(0);
	date.setUTCFullYear(year, month - 1, day);
	date.setUTCHours(hour, minute - offset, second, 0);
	const fractionNanos = BigInt((groups.fraction ?? '').padEnd(9, '0'));
	return BigInt(date.getTime()) * NANOS_PER_MILLI + fractionNanos;
}
