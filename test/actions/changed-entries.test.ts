/**
 * Update Schemas' changed entries, pure: each with its flags as the service's answer has them;
 * one the answer lacks marked as maybe not made, or, where the answer left out the map it would
 * be listed in, as not confirmed; one it lists with a flag unlike the one sent, as maybe not in
 * effect. Marked entries come first. The answers hold only what each case needs (`as ReceivedSchemas`).
 */
import { changedEntries } from '../../nodes/DataIntegrationManagement/actions/integration/sourceSchemas';
import type { ReceivedSchemas } from '../../nodes/DataIntegrationManagement/client/types';

const NOT_LISTED = { unconfirmed: expect.stringContaining('does not list it') };
const LEFT_OUT = { unconfirmed: expect.stringContaining('leaves out the list it would be in') };
const NO_MAP = { unconfirmed: expect.stringContaining('is not what the API describes') };
/** The mark of an entry listed with flags unlike the ones sent, as `told`. */
const UNLIKE = (told: string) => ({
	unconfirmed: `${told}: the change may not have taken effect; Integration → Get Schemas shows it now.`,
});
const column = { public: { tables: { users: { columns: { email: { hashed: true } } } } } };
const table = { public: { tables: { users: { enabled: false } } } };
const sentColumn = { schema: 'public', table: 'users', column: 'email', hashed: true };
const sentTable = { schema: 'public', table: 'users', enabled: false };
const unnamed = { schema: '', table: '', column: 'c', hashed: true };

describe('changedEntries', () => {
	test.each<[string, object, object | undefined, object[]]>([
		[
			'no map in the answer (off the API): as sent, not confirmed',
			column,
			undefined,
			[{ ...sentColumn, ...NO_MAP }],
		],
		[
			'the answer lists it as sent: its flags from the answer, unmarked',
			column,
			{ public: { tables: { users: { columns: { email: { hashed: true, enabled: false } } } } } },
			[{ ...sentColumn, hashed: true, enabled: false }],
		],
		[
			'the answer lists it with another value: its flags from the answer, marked',
			column,
			{ public: { tables: { users: { columns: { email: { hashed: false, enabled: true } } } } } },
			[
				{
					...sentColumn,
					hashed: false,
					enabled: true,
					...UNLIKE("hashed is false in the service's answer, true in the change"),
				},
			],
		],
		[
			'the answer lists it without the flag sent: as sent, marked',
			column,
			{ public: { tables: { users: { columns: { email: { enabled: true } } } } } },
			[
				{
					...sentColumn,
					enabled: true,
					...UNLIKE("hashed is missing in the service's answer, true in the change"),
				},
			],
		],
		[
			'two flags unlike the ones sent: both told',
			{ public: { tables: { t: { columns: { c: { enabled: true, hashed: true } } } } } },
			{ public: { tables: { t: { columns: { c: { enabled: 'yes', hashed: false } } } } } },
			[
				{
					schema: 'public',
					table: 't',
					column: 'c',
					enabled: 'yes',
					hashed: false,
					...UNLIKE(
						'enabled is "yes" in the service\'s answer, true in the change; hashed is false in the service\'s answer, true in the change',
					),
				},
			],
		],
		[
			'a table answered as sent, its column unlike: the marked entry first',
			{ public: { tables: { users: { enabled: false, columns: { email: { hashed: true } } } } } },
			{ public: { tables: { users: { enabled: false, columns: { email: { hashed: false } } } } } },
			[
				{
					...sentColumn,
					hashed: false,
					...UNLIKE("hashed is false in the service's answer, true in the change"),
				},
				{ ...sentTable, enabled: false },
			],
		],
		[
			'a table with fields named like where it sits: still its entry, flags from the answer',
			table,
			{ public: { tables: { users: { enabled: false, schema: 'x', table: 'y' } } } },
			[sentTable],
		],
		[
			'a table with a field named column: still its entry',
			table,
			{ public: { tables: { users: { enabled: false, column: 'c' } } } },
			[sentTable],
		],
		[
			'a schema with a field named table, its tables left out: still its entry',
			{ public: { enabled: true } },
			{ public: { enabled: true, table: 'x' } },
			[{ schema: 'public', enabled: true }],
		],
		[
			'a schema named like a prototype key in a column change, missing: not listed',
			{ constructor: { tables: { t: { columns: { c: { hashed: true } } } } } },
			{ public: {} },
			[{ schema: 'constructor', table: 't', column: 'c', hashed: true, ...NOT_LISTED }],
		],
		['the schema missing: not listed', column, { other: {} }, [{ ...sentColumn, ...NOT_LISTED }]],
		[
			'a schema without tables: left out',
			column,
			{ public: { enabled: true } },
			[{ ...sentColumn, ...LEFT_OUT }],
		],
		[
			'a table without columns: left out',
			column,
			{ public: { tables: { users: {} } } },
			[{ ...sentColumn, ...LEFT_OUT }],
		],
		[
			'the table missing from tables: not listed',
			column,
			{ public: { tables: { orders: {} } } },
			[{ ...sentColumn, ...NOT_LISTED }],
		],
		[
			'the column missing from columns: not listed',
			column,
			{ public: { tables: { users: { columns: {} } } } },
			[{ ...sentColumn, ...NOT_LISTED }],
		],
		['a table, tables left out', table, { public: {} }, [{ ...sentTable, ...LEFT_OUT }]],
		[
			'a table, not in tables',
			table,
			{ public: { tables: {} } },
			[{ ...sentTable, ...NOT_LISTED }],
		],
		[
			'a schema named like a prototype key, missing: not listed',
			{ constructor: { enabled: true } },
			{ public: {} },
			[{ schema: 'constructor', enabled: true, ...NOT_LISTED }],
		],
		[
			'a column of a table named like a prototype key, not in tables: marked',
			{ public: { tables: { toString: { columns: { id: { enabled: true } } } } } },
			{ public: { tables: {} } },
			[{ schema: 'public', table: 'toString', column: 'id', enabled: true, ...NOT_LISTED }],
		],
		[
			'empty names, the schema missing: not listed',
			{ '': { tables: { '': { columns: { c: { hashed: true } } } } } },
			{ public: {} },
			[{ ...unnamed, ...NOT_LISTED }],
		],
		[
			'an empty table name, tables left out',
			{ public: { tables: { '': { columns: { c: { hashed: true } } } } } },
			{ public: {} },
			[{ ...unnamed, schema: 'public', ...LEFT_OUT }],
		],
		[
			'an empty table name, not in tables',
			{ public: { tables: { '': { columns: { c: { hashed: true } } } } } },
			{ public: { tables: { x: {} } } },
			[{ ...unnamed, schema: 'public', ...NOT_LISTED }],
		],
	])('%s', (_, patch, after, expected) => {
		expect(changedEntries(patch as never, after as ReceivedSchemas | undefined)).toEqual(expected);
	});
});
