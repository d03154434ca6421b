/**
 * The audit-entry key (client/auditLogEntryKey.ts) is the same on every Node n8n runs on: with
 * crypto.hash (Node 21.7 and later), and without it (n8n 1.x on Node 18 and 20), through createHash.
 * The digests cursors already hold are pinned in test/trigger/cursor.test.ts.
 */
import type { AuditLogEntry } from '../../nodes/DataIntegrationManagement/client/types';
import { auditEntryKey } from '../../nodes/DataIntegrationManagement/client/auditLogEntryKey';

const ENTRIES = [
	{
		id: '3f1c2a9e-0000-4000-8000-000000000001',
		timestamp: '2026-11-01T10:00:00.000Z',
		event: 'Integration paused',
		actor: { type: 'user', email: 'maya.patel@northwind-data.example' },
		context: { ipAddress: '10.0.0.1', userAgent: 'say "hi" — ünïcode' },
	},
	{ id: 7, timestamp: 'yesterday, around noon', event: { name: 'paused', code: 7 } },
	{ timestamp: '2026-11-01T12:00:00+02:00', event: null, actor: null },
	null,
] as unknown as AuditLogEntry[];

it('is the same key without crypto.hash, as on Node 18 and 20', () => {
	const withHash = ENTRIES.map(auditEntryKey);
	let withoutHash: string[] = [];
	const actual = jest.requireActual<typeof import('node:crypto')>('node:crypto');
	const createHash = jest.fn(actual.createHash);
	jest.isolateModules(() => {
		jest.doMock('node:crypto', () => ({ ...actual, hash: undefined, createHash }));
		// eslint-disable-next-line @typescript-eslint/no-require-imports -- a fresh copy of the module, under the mock
		const fresh = require('../../nodes/DataIntegrationManagement/client/auditLogEntryKey') as {
			auditEntryKey: typeof auditEntryKey;
		};
		withoutHash = ENTRIES.map(fresh.auditEntryKey);
	});
	expect(createHash).toHaveBeenCalledTimes(ENTRIES.length);
	expect(withoutHash).toEqual(withHash);
	expect(new Set(withHash).size).toBe(ENTRIES.length);
});
