/**
 * Update Schemas' changed entries, pure: each with its flags as the service's answer has them, as
 * sent where the answer leaves out the map it would be listed in, marked where that map lacks it.
 * The answers hold only what each case needs (`as ReceivedSchemas`).
 */
import { changedEntries } from '../../nodes/DataIntegrationManagement/actions/integration/sourceSchemas';
import type { ReceivedSchemas } from '../../nodes/DataIntegrationManagement/client/types';

const MARK = { notInAnswer: expect.stringContaining('does not list it') };
const column = { public: { tables: { users: { columns: { email: { hashed: true } } } } } };
const table = { public: { tables: { users: { enabled: false } } } };
const sentColumn = { schema: 'public', table: 'users', column: 'email', hashed: true };
const sentTable = { schema: 'public', table: 'users', enabled: false };

describe('changedEntries', () => {
	test.each<[string, object, object | undefined, object[]]>([
		['no answer: as sent, unmarked', column, undefined, [sentColumn]],
		[
			'the answer lists it: its flags from the answer',
			column,
			{ public: { tables: { users: { columns: { email: { hashed: false, enabled: true } } } } } },
			[{ ...sentColumn, hashed: false, enabled: true }],
		],
		['the schema missing: marked', column, { other: {} }, [{ ...sentColumn, ...MARK }]],
		['a schema without tables: as sent', column, { public: { enabled: true } }, [sentColumn]],
		[
			'a table without columns: as sent',
			column,
			{ public: { tables: { users: {} } } },
			[sentColumn],
		],
		[
			'the table missing from tables: marked',
			column,
			{ public: { tables: { orders: {} } } },
			[{ ...sentColumn, ...MARK }],
		],
		[
			'the column missing from columns: marked',
			column,
			{ public: { tables: { users: { columns: {} } } } },
			[{ ...sentColumn, ...MARK }],
		],
		['a table, tables left out: as sent', table, { public: {} }, [sentTable]],
		[
			'a table, not in tables: marked',
			table,
			{ public: { tables: {} } },
			[{ ...sentTable, ...MARK }],
		],
		[
			'a schema named like a prototype key, missing: marked',
			{ constructor: { enabled: true } },
			{ public: {} },
			[{ schema: 'constructor', enabled: true, ...MARK }],
		],
		[
			'a column of a table named like a prototype key, not in tables: marked',
			{ public: { tables: { toString: { columns: { id: { enabled: true } } } } } },
			{ public: { tables: {} } },
			[{ schema: 'public', table: 'toString', column: 'id', enabled: true, ...MARK }],
		],
	])('%s', (_, patch, after, expected) => {
		expect(changedEntries(patch as never, after as ReceivedSchemas | undefined)).toEqual(expected);
	});
});
