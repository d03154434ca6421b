/**
 * Forms in the order users fill them: no field of either node comes before a field it reads (its
 * list's parameters, what it declares to n8n, what shows it), at the top of the form or inside a
 * collection or a list, in any node version; and each list reads, through n8n-core, exactly what
 * the node declares it reads (shared/listReads.ts), so the check above sees every read.
 */
import { LoadOptionsContext } from 'n8n-core';
import type { INodeProperties, INodePropertyCollection, INodeTypeDescription } from 'n8n-workflow';

import { LIST_READS } from '../../nodes/DataIntegrationManagement/shared/listReads';
import { SEED } from '../emulator';
import { rl } from '../actions/support';
import { useEmulator } from '../helpers/emulator';
import { callNodeMethod } from '../helpers/n8n';
import { actionNode, triggerNode } from '../helpers/n8n-host';
import { misplacedReads } from './field-reads';
import { action, trigger } from './hints';

const versionsOf = (description: INodeTypeDescription) =>
	Array.isArray(description.version) ? description.version : [description.version];

describe.each([
	['the action node', action],
	['the trigger', trigger],
])('%s', (_name, description) => {
	it.each(versionsOf(description))(
		'shows no field above a field it reads, at version %s',
		(version) => {
			expect(misplacedReads({ description, version }, description.properties)).toEqual([]);
		},
	);
});

it('Update Schemas → Changes: Level, the names from schema to column, then the flags', () => {
	for (const field of action.properties.filter((property) => property.name === 'changes')) {
		const [section] = field.options as INodePropertyCollection[];
		expect(section.values.map((value) => value.name)).toEqual([
			'level',
			'schema',
			'table',
			'column',
			'enabled',
			'hashed',
		]);
	}
});

describe('the check finds a field above one it reads', () => {
	const withChanges = (order: (values: INodeProperties[]) => INodeProperties[]) => ({
		...action,
		properties: action.properties.map((property) =>
			property.name === 'changes'
				? {
						...property,
						options: (property.options as INodePropertyCollection[]).map((section) => ({
							...section,
							values: order(section.values),
						})),
					}
				: property,
		),
	});

	it('in a list: the fields of a change in alphabetical order (as before)', () => {
		const sorted = withChanges((values) =>
			[...values].sort((a, b) => a.displayName.localeCompare(b.displayName, 'en')),
		);

		expect(misplacedReads({ description: sorted, version: 1 }, sorted.properties)).toEqual(
			expect.arrayContaining([
				expect.stringContaining(
					'"Column" reads "schema" (its list (searchChangeColumns) reads it)',
				),
				expect.stringContaining('"Column" reads "table"'),
				expect.stringContaining('"Hashed" reads "level" (its displayOptions name it)'),
			]),
		);
	});

	it('at the top: Get Columns with Table above Schema, and Integration ID last', () => {
		const getColumns = (property: INodeProperties) =>
			JSON.stringify(property.displayOptions?.show?.operation) === '["getColumns"]' &&
			['integrationId', 'schema', 'table'].includes(property.name);
		const fields = action.properties.filter(getColumns);
		const others = action.properties.filter((property) => !getColumns(property));
		const reordered = { ...action, properties: [...others, ...fields.reverse()] };

		expect(misplacedReads({ description: reordered, version: 1 }, reordered.properties)).toEqual(
			expect.arrayContaining([
				expect.stringContaining('"Table" reads "schema" (its list (searchTables) reads it)'),
				expect.stringContaining('"Schema" reads "integrationId"'),
			]),
		);
	});
});

describe('each list reads what the node declares, through n8n-core', () => {
	const { credentials } = useEmulator();
	const ORDERS = SEED.integrations.ordersToSnowflake;
	const change = { level: 'column', schema: rl('list', 'public'), table: rl('list', 'customers') };
	const parameters = {
		resource: 'integration',
		integrationId: ORDERS,
		schema: rl('list', 'public'),
		table: rl('list', 'customers'),
		updateMode: 'changes',
		changes: { change: [change] },
	};
	const where: Record<string, string> = {
		searchChangeSchemas: 'schema',
		searchChangeTables: 'table',
		searchChangeColumns: 'column',
	};

	it('names every list method of the nodes, and no other', () => {
		const methods = [actionNode, triggerNode].flatMap((node) => [
			...Object.keys(node.methods?.listSearch ?? {}),
			...Object.keys(node.methods?.loadOptions ?? {}),
		]);

		// Both nodes list users' emails for Filters → Actor Emails.
		expect([...new Set(methods)].sort()).toEqual(Object.keys(LIST_READS).sort());
		expect(actionNode.methods?.loadOptions?.getUserEmails).toBe(
			triggerNode.methods?.loadOptions?.getUserEmails,
		);
	});

	it.each(Object.entries(LIST_READS))('%s reads %j', async (method, declared) => {
		const reads = jest.spyOn(LoadOptionsContext.prototype, 'getCurrentNodeParameter');
		const others = [
			jest.spyOn(LoadOptionsContext.prototype, 'getCurrentNodeParameters'),
			jest.spyOn(LoadOptionsContext.prototype, 'getNodeParameter'),
		];
		try {
			await callNodeMethod({
				credentials: credentials(),
				method,
				parameters: {
					...parameters,
					operation: ['searchSchemas', 'searchTables'].includes(method)
						? 'getColumns'
						: 'updateSchemas',
				} as never,
				...(where[method] && { path: `parameters.changes.change[0].${where[method]}` }),
			});

			expect(reads.mock.calls.map(([path]) => path)).toEqual(declared);
			for (const other of others) expect(other).not.toHaveBeenCalled();
		} finally {
			[reads, ...others].forEach((spy) => spy.mockRestore());
		}
	});
});
