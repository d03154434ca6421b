/**
 * Generated numbers, dates and JSON values, as expressions may give them. Limit must be a whole
 * number of at least 1, dates real calendar dates, JSON within the depth bound; anything else is
 * refused by name before any request, and what is accepted is sent as given.
 */
import fc from 'fast-check';
import { DateTime } from 'luxon';
import type { IDataObject } from 'n8n-workflow';

import { AUDIT_LOG_QUERY } from '../../nodes/DataIntegrationManagement/client/choices';
import { MAX_JSON_DEPTH } from '../../nodes/DataIntegrationManagement/shared/checks';
import { useEmulator } from '../helpers/emulator';
import { atScale } from '../helpers/scale';
import {
	canonicalJson,
	dateParts,
	formatDate,
	isRealDate,
	nestedObject,
	numericInput,
	wholeNumberAtLeastOne,
	type DateParts,
} from './arbitraries';
import {
	expectRefusalError,
	failCase,
	propertyParameters,
	propertySuite,
	runBatch,
	type Batch,
	type Expectation,
} from './harness';

const { emulator, credentials } = useEmulator();
propertySuite('values');

const ITEMS_PER_RUN = 100;
/** Runs of ITEMS_PER_RUN cases per property: numbers and dates, the audit log's Limit, nested JSON. */
const RUNS = atScale(2, 4);
const AUDIT_RUNS = atScale(1, 2);
const JSON_RUNS = atScale(1, 3);
const AUDIT_PAGE_SIZE = 100;

async function runCases(
	parameters: Batch['parameters'],
	items: IDataObject[],
	expectations: Expectation[],
) {
	const batch: Batch = {
		emulator: emulator(),
		credentials: credentials(),
		parameters,
		items,
		expectations,
	};
	const result = await runBatch(batch);
	await expectRefusalError(batch);
	return { batch, ...result };
}

describe('Limit', () => {
	test(`user Get Many: a whole number of at least 1, else refused (${RUNS} runs of ${ITEMS_PER_RUN} cases)`, async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.array(numericInput, { minLength: ITEMS_PER_RUN, maxLength: ITEMS_PER_RUN }),
				async (limits) => {
					const users = emulator().store.users.size;
					const accepted = limits.map(wholeNumberAtLeastOne);
					const { batch, outputs } = await runCases(
						{
							resource: 'user',
							operation: 'getAll',
							returnAll: false,
							limit: '={{ $json.limit }}',
						},
						limits.map((limit) => ({ limit }) as IDataObject),
						accepted.map((limit) =>
							limit === undefined
								? { refused: true, labels: ['Limit'] }
								: { requests: [{ method: 'GET', path: '/users' }] },
						),
					);
					accepted.forEach((limit, index) => {
						if (limit === undefined) return;
						const expected = Math.min(limit, users);
						if (
							outputs[index].length !== expected ||
							outputs[index].some((item) => item.json.error)
						)
							failCase(batch, outputs, index, `expected ${expected} users`);
					});
				},
			),
			propertyParameters(RUNS),
		);
	});

	test(`audit log Get Many: a whole number of at least 1, else refused (${AUDIT_RUNS} runs of ${ITEMS_PER_RUN} cases)`, async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.array(numericInput, { minLength: ITEMS_PER_RUN, maxLength: ITEMS_PER_RUN }),
				async (limits) => {
					const total = emulator().store.auditEntries.length;
					const accepted = limits.map(wholeNumberAtLeastOne);
					const { batch, outputs } = await runCases(
						{
							resource: 'auditLog',
							operation: 'getAll',
							returnAll: false,
							limit: '={{ $json.limit }}',
						},
						limits.map((limit) => ({ limit }) as IDataObject),
						accepted.map((limit): Expectation => {
							if (limit === undefined) return { refused: true, labels: ['Limit'] };
							return {
								requests: Array.from({ length: auditPagesFor(limit) }, () => ({
									method: 'GET',
									path: '/audit-logs',
								})),
							};
						}),
					);
					accepted.forEach((limit, index) => {
						if (limit !== undefined && outputs[index].length !== Math.min(limit, total))
							failCase(batch, outputs, index, `expected ${Math.min(limit, total)} entries`);
					});
				},
			),
			propertyParameters(AUDIT_RUNS),
		);
	});
});

/**
 * How many pages Get Many asks for, newest first, to return `limit` entries: a first page of
 * `limit` (2 to 100), then pages of 100, until the answer has shown its order (entries not all
 * at one instant) and holds `limit` entries, or the log ends.
 */
function auditPagesFor(limit: number): number {
	const store = emulator().store;
	let size = Math.min(AUDIT_PAGE_SIZE, Math.max(2, limit));
	let offset = 0;
	let ordered = false;
	for (let pages = 1; ; pages++) {
		const { items, totalItems } = store.queryAuditLog({ limit: size, offset, sortOrder: 'desc' });
		offset += items.length;
		size = AUDIT_PAGE_SIZE;
		ordered ||= new Set(items.map((entry) => Date.parse(entry.timestamp))).size > 1;
		if (items.length === 0 || offset >= (totalItems ?? 0) || (ordered && offset >= limit))
			return pages;
	}
}

describe('Since and Until', () => {
	/** A case: the date, and whether the expression turns it into a Luxon DateTime first. */
	const dateCase = fc.record({ parts: dateParts, luxon: fc.boolean() });
	const since = '={{ $json.luxon ? DateTime.fromISO($json.since, { zone: "utc" }) : $json.since }}';
	// A DateTime the expression made is sent when valid: Luxon reads 24:00 as the next day's 00:00.
	const accepted = ({ parts, luxon }: { parts: DateParts; luxon: boolean }) =>
		luxon ? DateTime.fromISO(formatDate(parts), { zone: 'utc' }).isValid : isRealDate(parts);

	test(`a real calendar date and time is sent as UTC, anything else refused (${RUNS} runs of ${ITEMS_PER_RUN} cases)`, async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.array(dateCase, { minLength: ITEMS_PER_RUN, maxLength: ITEMS_PER_RUN }),
				async (cases) => {
					const { batch, requests } = await runCases(
						{
							resource: 'auditLog',
							operation: 'getAll',
							returnAll: false,
							// A full first page: the dates, not the paging, are what varies here.
							limit: AUDIT_PAGE_SIZE,
							filters: { timeRange: { since } },
						},
						cases.map(({ parts, luxon }) => ({ since: formatDate(parts), luxon })),
						cases.map((dateCase) =>
							accepted(dateCase)
								? { requests: [{ method: 'GET', path: '/audit-logs' }] }
								: { refused: true, labels: ['Since'] },
						),
					);
					cases.forEach(({ parts, luxon }, index) => {
						// Without a zone, the date is read in the workflow's time zone; checked elsewhere.
						if (!accepted({ parts, luxon }) || (parts.form !== 'utc' && !luxon)) return;
						const expected = utcIso(parts);
						const sent = requests[index][0].query[AUDIT_LOG_QUERY.since];
						if (sent !== expected)
							failCase(batch, [], index, `expected startTime ${expected}, sent ${String(sent)}`);
					});
				},
			),
			propertyParameters(RUNS),
		);
	});
});

function utcIso(parts: DateParts): string {
	const { year, month, day, hour, minute, second, form } = parts;
	const time = form === 'date' ? [0, 0, 0] : [hour, minute, second];
	const date = new Date(Date.UTC(year, month - 1, day, time[0], time[1], time[2]));
	// Years before 100 are not generated, so Date.UTC's two-digit-year rule does not apply.
	return date.toISOString();
}

describe('Connection (JSON)', () => {
	const depth = fc.oneof(
		fc.integer({ min: 1, max: MAX_JSON_DEPTH + 16 }),
		fc.constantFrom(MAX_JSON_DEPTH - 1, MAX_JSON_DEPTH, MAX_JSON_DEPTH + 1),
	);
	const connectionCase = depth.chain((levels) =>
		nestedObject(levels).map((value) => ({ levels, text: JSON.stringify(value) })),
	);

	test(`nested up to ${MAX_JSON_DEPTH} levels is sent as given, deeper is refused (${JSON_RUNS} runs of ${ITEMS_PER_RUN} cases)`, async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.array(connectionCase, { minLength: ITEMS_PER_RUN, maxLength: ITEMS_PER_RUN }),
				async (cases) => {
					const { batch, requests } = await runCases(
						{
							resource: 'asset',
							operation: 'create',
							name: 'Deep',
							type: 'postgres',
							additionalFields: { connection: '={{ $json.connection }}' },
						},
						cases.map(({ text }) => ({ connection: text })),
						cases.map(({ levels }) =>
							levels <= MAX_JSON_DEPTH
								? { requests: [{ method: 'POST', path: '/assets' }] }
								: { refused: true, labels: ['Connection'] },
						),
					);
					cases.forEach(({ levels, text }, index) => {
						if (levels > MAX_JSON_DEPTH) return;
						const body = requests[index][0].body as { connection: unknown };
						if (canonicalJson(body.connection) !== canonicalJson(JSON.parse(text)))
							failCase(batch, [], index, 'the connection was not sent as given');
					});
				},
			),
			propertyParameters(JSON_RUNS),
		);
	});
});
