/**
 * Audit Log → Get Many against every service the spec allows (test/emulator/variants.ts): pages
 * capped below what was asked, no totalItems, the sort order or the time bounds ignored, our
 * query names unknown, odd ids and timestamps. Each answer must hold exactly the right entries,
 * in the order the user chose. Entries are told apart by a trace in their context, which no
 * variant changes.
 */
import type { INodeParameters } from 'n8n-workflow';

import type { AuditLogEntry } from '../../nodes/DataIntegrationManagement/client/types';
import { AUDIT_LOG_QUERY } from '../../nodes/DataIntegrationManagement/client/choices';
import { OFFSET_IGNORED, SERVICE_VARIANTS } from '../emulator';
import { onRequestArrival, useEmulator } from '../helpers/emulator';
import { runActionNode } from '../helpers/n8n';

const { emulator, credentials } = useEmulator();

const T0 = Date.parse('2026-10-01T00:00:00.000Z');
const MINUTE = 60_000;
const COUNT = 237;

/** Entry i at T0 + i minutes, except 100-104, which share entry 100's instant; notations vary. */
function instantOf(index: number): number {
	return T0 + (index >= 100 && index <= 104 ? 100 : index) * MINUTE;
}
function notation(index: number): string {
	const iso = new Date(instantOf(index)).toISOString();
	if (index % 3 === 1) return iso.replace('.000Z', 'Z');
	if (index % 3 === 2)
		return `${new Date(instantOf(index) + 2 * 3600_000).toISOString().slice(0, 19)}+02:00`;
	return iso;
}

const traceOf = (entry: { context?: { userAgent?: string } }) => entry.context?.userAgent;

// Bounds fall on entries whose own and older neighbour's timestamps every variant serves readable
// (the odd-timestamps switch spoils positions 0 and 4 modulo 5), so the answer is exact even where
// the service ignores the bounds and entries without a readable timestamp are placed by neighbours.
const SINCE = 42;
const UNTIL = 193;

const CASES: Array<{ name: string; parameters: INodeParameters; pick: number[] }> = [];
for (const order of ['asc', 'desc'] as const) {
	const all = Array.from({ length: COUNT }, (_, i) => i);
	const bounded = all.filter((i) => i >= SINCE && i < UNTIL);
	const inOrder = (indexes: number[]) => (order === 'asc' ? indexes : [...indexes].reverse());
	const options = { sortDirection: order };
	const filters = {
		timeRange: {
			since: new Date(instantOf(SINCE)).toISOString(),
			until: new Date(instantOf(UNTIL)).toISOString(),
		},
	};
	CASES.push(
		{ name: `${order}, Return All`, parameters: { returnAll: true, options }, pick: inOrder(all) },
		{
			name: `${order}, Limit 30`,
			parameters: { returnAll: false, limit: 30, options },
			pick: inOrder(all).slice(0, 30),
		},
		{
			name: `${order}, Limit 150, Since and Until`,
			parameters: { returnAll: false, limit: 150, options, filters },
			pick: inOrder(bounded).slice(0, 150),
		},
		{
			name: `${order}, Return All, Since and Until`,
			parameters: { returnAll: true, options, filters },
			pick: inOrder(bounded),
		},
	);
}

describe.each(Object.entries(SERVICE_VARIANTS))(
	'auditLog getAll against a service "%s"',
	(_, variant) => {
		it.each(CASES)('$name: exactly the right entries, in order', async ({ parameters, pick }) => {
			emulator().reset({ seed: false });
			const written = emulator().addAuditEntries(
				Array.from({ length: COUNT }, (_unused, i) => ({
					timestamp: notation(i),
					context: { ipAddress: '10.0.0.1', userAgent: `trace-${i}` },
				})),
			);
			emulator().store.auditLogVariant = variant;

			const result = await runActionNode({
				credentials: credentials(),
				parameters: { resource: 'auditLog', operation: 'getAll', ...parameters },
			});

			expect(result.error).toBeUndefined();
			expect(result.items.map((item) => traceOf(item.json as unknown as AuditLogEntry))).toEqual(
				pick.map((i) => traceOf(written[i])),
			);
		});
	},
);

describe('auditLog getAll against a service that ignores the offset (every page starts at the first entry)', () => {
	it.each([
		{ name: 'with totalItems', omitTotalItems: false },
		{ name: 'without totalItems', omitTotalItems: true },
	])(
		'$name: ends after the first repeated page with an error naming the offset parameter, never a silent part',
		async ({ omitTotalItems }) => {
			emulator().reset({ seed: false });
			emulator().addAuditEntries(
				Array.from({ length: COUNT }, (_unused, i) => ({ timestamp: notation(i) })),
			);
			emulator().store.auditLogVariant = { ...OFFSET_IGNORED, omitTotalItems };

			const result = await runActionNode({
				credentials: credentials(),
				parameters: { resource: 'auditLog', operation: 'getAll', returnAll: true },
			});

			expect(result.items).toEqual([]);
			expect(result.error?.message).toBe(
				'The service kept answering audit log entries already read, so the read stopped',
			);
			expect(result.error?.description).toContain('after the first 100');
			expect(result.error?.description).toContain(`("${AUDIT_LOG_QUERY.skip}")`);
			// What reads anyway (the next test).
			expect(result.error?.description).toMatch(
				/Get Many with Return All off reads only the first page, which needs no paging, when its Limit fits in one page of the service's \(100 at most\), the service keeps to the Sort Direction and the Time Range, and no other filter is set\.$/,
			);
			// The raw record n8n shows with the error's details.
			expect(result.error).toMatchObject({
				errorResponse: {
					message: `GET /audit-logs repeated earlier entries at ${AUDIT_LOG_QUERY.skip}=100`,
				},
				// Entries logged during the read shift the pages: the next read may go through.
				failure: { cause: 'temporarily-unavailable' },
			});
			expect(emulator().requests.filter((request) => request.path === '/audit-logs')).toHaveLength(
				2,
			);
		},
	);
});

describe('auditLog getAll against a service that ignores the offset, while entries are logged', () => {
	// What the error offers: a Limit one page holds reads the entries anyway.
	it('with Return All off and a Limit of 100 or less: one page, the entries, no error', async () => {
		emulator().reset({ seed: false });
		emulator().addAuditEntries(
			Array.from({ length: COUNT }, (_unused, i) => ({ timestamp: notation(i) })),
		);
		emulator().store.auditLogVariant = OFFSET_IGNORED;

		const result = await runActionNode({
			credentials: credentials(),
			parameters: { resource: 'auditLog', operation: 'getAll', returnAll: false, limit: 100 },
		});

		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(100);
		expect(emulator().requests.filter((request) => request.path === '/audit-logs')).toHaveLength(1);
	});

	it('takes a second page that starts with entries logged meanwhile, then the first page again, for what it is: never a silent part', async () => {
		emulator().reset({ seed: false });
		emulator().addAuditEntries(
			Array.from({ length: 150 }, (_unused, i) => ({ timestamp: notation(i) })),
		);
		emulator().store.auditLogVariant = OFFSET_IGNORED;
		// Logged as the second page is asked: newest first, it comes first, then the first page again.
		const unhook = onRequestArrival(emulator(), () => {
			if (emulator().requests.filter((request) => request.path === '/audit-logs').length === 2)
				emulator().addAuditEntries([{ timestamp: notation(200) }]);
		});
		let result;
		try {
			result = await runActionNode({
				credentials: credentials(),
				parameters: { resource: 'auditLog', operation: 'getAll', returnAll: true },
			});
		} finally {
			unhook();
		}
		expect(result.items).toEqual([]);
		expect(result.error?.message).toBe(
			'The service kept answering audit log entries already read, so the read stopped',
		);
	});
});

describe('auditLog getAll against a service that ignores the time bounds', () => {
	it.each(['asc', 'desc'])(
		'Sort Direction %s: stops at the first page that passes the bound it reads towards',
		async (sortDirection) => {
			emulator().reset({ seed: false });
			emulator().addAuditEntries(
				Array.from({ length: 300 }, (_unused, i) => ({
					timestamp: new Date(T0 + i * MINUTE).toISOString(),
				})),
			);
			emulator().store.auditLogVariant = SERVICE_VARIANTS['time bounds ignored'];
			// Newest first the read goes towards Since, oldest first towards Until: each 50 entries in.
			const filters = {
				since: new Date(T0 + 250 * MINUTE).toISOString(),
				until: new Date(T0 + 50 * MINUTE).toISOString(),
			};
			const bound = sortDirection === 'desc' ? { since: filters.since } : { until: filters.until };

			const result = await runActionNode({
				credentials: credentials(),
				parameters: {
					resource: 'auditLog',
					operation: 'getAll',
					returnAll: true,
					filters: { timeRange: bound },
					options: { sortDirection },
				},
			});

			expect(result.items).toHaveLength(50);
			expect(emulator().requests).toHaveLength(1);
		},
	);
});
