/**
 * Reading timestamps (shared/timestamps.ts): the fast path for the form the API writes gives
 * exactly what luxon gives, for every text, and luxon reads every other form. Pure.
 */
import { DateTime } from 'luxon';

import { parseInstant } from '../../nodes/DataIntegrationManagement/shared/timestamps';

/** What luxon reads, as parseInstant did before its fast path: the reference. */
function luxonInstant(text: string): number | undefined {
	const trimmed = text.trim();
	const time = DateTime.fromISO(trimmed, { zone: 'UTC', setZone: true });
	return time.isValid && time.toISODate() === trimmed.slice(0, 10) ? time.toMillis() : undefined;
}

describe('parseInstant: the same instant as luxon, for every text', () => {
	test.each([
		// The fast path's form
		['2026-11-01T09:30:00.000Z'],
		['2026-11-01T09:30:00Z'],
		['2026-11-01T09:30:00.123+00:00'],
		['2026-11-01T09:30:00+00:00'],
		['  2026-11-01T09:30:00.123Z  '],
		['1970-01-01T00:00:00.000Z'],
		['1969-12-31T23:59:59.999Z'],
		['9999-12-31T23:59:59.999Z'],
		['0100-01-01T00:00:00.000Z'],
		// Calendar edges: leap years, month lengths
		['2024-02-29T12:00:00Z'],
		['2026-02-29T12:00:00Z'],
		['2000-02-29T12:00:00Z'],
		['1900-02-29T12:00:00Z'],
		['2026-04-30T12:00:00Z'],
		['2026-04-31T12:00:00Z'],
		['2026-12-31T23:59:59Z'],
		['2026-13-01T00:00:00Z'],
		['2026-00-10T00:00:00Z'],
		['2026-01-00T00:00:00Z'],
		// Times out of range
		['2026-11-01T24:00:00Z'],
		['2026-11-01T23:60:00Z'],
		['2026-11-01T23:59:60Z'],
		// Forms luxon reads, not the fast path
		['0099-02-03T00:00:00Z'],
		['2026-11-01T09:30:00.5Z'],
		['2026-11-01T09:30:00.1234Z'],
		['2026-11-01T09:30:00.123456789Z'],
		['2026-11-01T11:30:00+02:00'],
		['2026-11-01T04:30:00-05:00'],
		['2026-11-01T09:30:00-00:00'],
		['2026-11-01T09:30Z'],
		['2026-11-01t09:30:00z'],
		['2026-11-01T09:30:00.000+0000'],
		['2026-11-01'],
		// What no one reads as an instant here
		['09:30:00Z'],
		['yesterday, around noon'],
		[''],
		['2026-11-01T09:30:00.000ZZ'],
		['2026-11-01T09:30:00.000 Z'],
		['+002026-11-01T09:30:00.000Z'],
	])('%s', (text) => {
		expect(parseInstant(text)).toBe(luxonInstant(text));
	});

	it('for every millisecond of a second', () => {
		for (let milli = 0; milli < 1000; milli++) {
			const text = `2026-02-03T04:05:06.${String(milli).padStart(3, '0')}Z`;
			expect([text, parseInstant(text)]).toEqual([text, luxonInstant(text)]);
		}
	});

	it('for every day of four years around a leap year, at either end of the day', () => {
		for (let day = Date.UTC(2023, 0, 1); day < Date.UTC(2027, 0, 1); day += 86_400_000) {
			for (const text of [
				new Date(day).toISOString(),
				new Date(day + 86_399_999).toISOString().replace('Z', '+00:00'),
			]) {
				expect([text, parseInstant(text)]).toEqual([text, luxonInstant(text)]);
			}
		}
	});
});

describe('parseInstant: the form the API writes is read without luxon', () => {
	it.each([['2026-11-01T09:30:00.000Z'], ['2026-11-01T09:30:00Z'], ['2026-11-01T09:30:00+00:00']])(
		'%s',
		(text) => {
			const fromISO = jest.spyOn(DateTime, 'fromISO');
			try {
				expect(parseInstant(text)).toBe(Date.parse(text));
				expect(fromISO).not.toHaveBeenCalled();
			} finally {
				fromISO.mockRestore();
			}
		},
	);

	it('reads another form, a time zone or an invalid date, with luxon', () => {
		const fromISO = jest.spyOn(DateTime, 'fromISO');
		try {
			parseInstant('2026-11-01T11:30:00+02:00');
			parseInstant('2026-02-29T12:00:00Z');
			expect(fromISO).toHaveBeenCalledTimes(2);
		} finally {
			fromISO.mockRestore();
		}
	});

	it('reads a Date, a DateTime, and a text without a zone in the time zone given, as before', () => {
		const instant = Date.UTC(2026, 10, 1, 9, 30);
		expect(parseInstant(new Date(instant))).toBe(instant);
		expect(parseInstant(DateTime.fromMillis(instant))).toBe(instant);
		expect(parseInstant('2026-11-01T10:30:00', 'Europe/Paris')).toBe(instant);
		expect(parseInstant(new Date(Number.NaN))).toBeUndefined();
		expect(parseInstant(42)).toBeUndefined();
	});
});
