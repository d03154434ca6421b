/**
 * Search and the audit-log filters match text the way a person reads it: the same letters match
 * whether the service or the user wrote an accent as one character (NFC, what keyboards and
 * models type) or as a letter and a combining mark (NFD, what macOS file names and some exports
 * hold). Run through n8n-core against the emulator.
 */
import type { INodeParameters } from 'n8n-workflow';

import { useEmulator } from '../helpers/emulator';
import { runActionNode } from '../helpers/n8n';

const { emulator, credentials } = useEmulator();

const run = async (parameters: INodeParameters) => {
	const { items, error } = await runActionNode({ credentials: credentials(), parameters });
	expect(error).toBeUndefined();
	return items.map(({ json }) => json);
};

const decomposed = (text: string) => text.normalize('NFD');

describe('text written with combining marks (NFD) or without (NFC)', () => {
	it.each([
		['the service NFD, the search NFC', decomposed('Zoë Müller'), 'zoë MÜLLER'],
		['the service NFC, the search NFD', 'Zoë Müller', decomposed('zoë müller')],
	])('User → Get Many: Filters → Search finds the user (%s)', async (_label, name, search) => {
		emulator().store.users.set('usr_zoe', {
			id: 'usr_zoe',
			name,
			email: 'zoe@example.com',
			createdAt: '2026-01-01T00:00:00.000Z',
		});

		const found = await run({
			resource: 'user',
			operation: 'getAll',
			returnAll: true,
			filters: { search },
		});

		expect(found.map(({ id }) => id)).toEqual(['usr_zoe']);
	});

	it('Audit Log → Get Many: Events and Actor Types match the entry either way', async () => {
		emulator().reset({ seed: false });
		emulator().addAuditEntries([
			{
				timestamp: '2026-10-05T10:00:00.000Z',
				event: decomposed('Tabelle „Bestellungen“ geändert'),
				actor: { type: decomposed('système'), email: 'a@example.com' },
			},
			{ timestamp: '2026-10-05T10:00:01.000Z', event: 'Other' },
		]);

		const found = await run({
			resource: 'auditLog',
			operation: 'getAll',
			returnAll: true,
			filters: {
				events: { texts: ['GEÄNDERT'] },
				actorTypes: { types: ['Système'] },
			},
		});

		expect(found.map(({ timestamp }) => timestamp)).toEqual(['2026-10-05T10:00:00.000Z']);
	});
});
