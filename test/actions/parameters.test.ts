/**
 * What every parameter takes, checked when the node runs: defaults that change nothing, text
 * fields that send what they hold (empty included), option fields limited to their listed values,
 * objects never sent as "[object Object]", and the errors that say so by field and item. The
 * property suite (test/properties/parameters.property.test.ts) feeds any JSON value into every
 * parameter; these are the cases named one by one.
 */
import type { IDataObject, INodeParameters, INodeProperties } from 'n8n-workflow';

import { DataIntegrationManagement } from '../../nodes/DataIntegrationManagement/DataIntegrationManagement.node.ts';
import { DataIntegrationManagementTrigger } from '../../nodes/DataIntegrationManagement/DataIntegrationManagementTrigger.node.ts';
import {
	AUTO_MAX_CONCURRENCY,
	INITIAL_WINDOW,
} from '../../nodes/DataIntegrationManagement/pacing/controller';
import { SEED } from '../emulator';
import { useEmulator } from '../helpers/emulator';
import { pollTrigger, runActionNode } from '../helpers/n8n';
import { rl, sent, startCountingProxy } from './support';

const { emulator, credentials } = useEmulator();
const ORDERS = SEED.integrations.ordersToSnowflake;

/** Runs the action node over `items`. */
const run = (parameters: INodeParameters, items: IDataObject[] = [{}]) =>
	runActionNode({ credentials: credentials(), parameters, items });

const actionProperties = new DataIntegrationManagement().description.properties;

/** The action node's field `name` as shown for `resource` → `operation`. */
function fieldOf(resource: string, operation: string, name: string): INodeProperties {
	const field = actionProperties.find(
		(property) =>
			property.name === name &&
			property.displayOptions?.show?.resource?.includes(resource) &&
			property.displayOptions?.show?.operation?.includes(operation),
	);
	if (!field) throw new Error(`no field ${name} on ${resource} ${operation}`);
	return field;
}

describe('no default performs a change', () => {
	it('Update Schemas in JSON mode defaults to empty Schemas, and refuses to run with it', async () => {
		const schemas = fieldOf('integration', 'updateSchemas', 'schemas');
		expect(schemas.default).toBe('');
		expect(schemas.placeholder).toContain('"public"');

		const result = await run({
			resource: 'integration',
			operation: 'updateSchemas',
			integrationId: ORDERS,
			updateMode: 'json',
		});

		expect(result.error?.message).toBe(
			'The field "Schemas" is not a valid schema update (item 0): it is empty',
		);
		expect(emulator().requests).toEqual([]);
	});

	it.each([
		['asset', 'create', 'additionalFields'],
		['asset', 'update', 'updateFields'],
		['connector', 'create', 'additionalFields'],
	])('%s %s: Connection defaults to empty', (resource, operation, collection) => {
		const connection = (fieldOf(resource, operation, collection).options as INodeProperties[]).find(
			(option) => option.name === 'connection',
		);
		expect(connection?.default).toBe('');
	});

	it('Asset → Update with Connection added and left empty sends no connection', async () => {
		const result = await run({
			resource: 'asset',
			operation: 'update',
			assetId: SEED.assets.ordersDb,
			updateFields: { connection: '', name: 'Orders DB' },
		});

		expect(result.error).toBeUndefined();
		expect(sent(emulator())[0].body).toEqual({ name: 'Orders DB' });
	});

	it('Asset → Update with only an empty Connection has nothing to change', async () => {
		const result = await run({
			resource: 'asset',
			operation: 'update',
			assetId: SEED.assets.ordersDb,
			updateFields: { connection: '' },
		});

		expect(result.error?.message).toMatch(/^Set at least one of Connection, Description, Name/);
		expect(emulator().requests).toEqual([]);
	});
});

describe('text fields send what they hold', () => {
	const updateTag = (updateFields: INodeParameters, items: IDataObject[] = [{}]) =>
		run({ resource: 'tag', operation: 'update', tagId: SEED.tags.pii, updateFields }, items);

	it('Tag → Update with Description added and empty sends description "" (it clears it)', async () => {
		const result = await updateTag({ description: '' });

		expect(result.error).toBeUndefined();
		expect(sent(emulator())[0].body).toEqual({ description: '' });
		expect(emulator().store.tags.get(SEED.tags.pii)?.description).toBe('');
	});

	it('a number from an expression is sent as its text: Description 42 becomes "42"', async () => {
		const result = await updateTag({ description: '={{ $json.n }}' }, [{ n: 42 }]);

		expect(result.error).toBeUndefined();
		expect(sent(emulator())[0].body).toEqual({ description: '42' });
	});

	it('true from an expression is sent as "true"', async () => {
		await updateTag({ name: '={{ $json.flag }}' }, [{ flag: true }]);

		expect(sent(emulator())[0].body).toEqual({ name: 'true' });
	});

	it('the field descriptions say so', () => {
		const fields = fieldOf('tag', 'update', 'updateFields').options as INodeProperties[];
		const description = fields.find((field) => field.name === 'description');
		expect(description?.description).toMatch(/To clear it, add the field and leave it empty/);
	});
});

describe('objects and lists are refused where text is expected', () => {
	it.each([
		[{ id: 'x' }, 'an object'],
		[['a', 'b'], 'a list'],
	])('Integration ID %j is refused by name, and nothing is sent', async (value, kind) => {
		const result = await run(
			{ resource: 'integration', operation: 'get', integrationId: '={{ $json.id }}' },
			[{ id: value }],
		);

		expect(result.error).toMatchObject({
			name: 'NodeOperationError',
			message: `The field "Integration ID" must be text, not ${kind} (item 0)`,
		});
		expect(emulator().requests).toEqual([]);
	});

	it('an Owner picked through an expression that gives an object is refused', async () => {
		const result = await run(
			{
				resource: 'tag',
				operation: 'create',
				name: 'T',
				owner: rl('id', '={{ $json.owner }}'),
			},
			[{ owner: { id: SEED.users.maya } }],
		);

		expect(result.error?.message).toBe('The field "Owner" must be text, not an object (item 0)');
		expect(emulator().requests).toEqual([]);
	});

	it('an object in a collection text field is refused, naming the later item', async () => {
		const result = await run(
			{
				resource: 'tag',
				operation: 'update',
				tagId: SEED.tags.pii,
				updateFields: { name: '={{ $json.name }}' },
			},
			[{ name: 'ok' }, { name: { first: 'P' } }],
		);

		expect(result.error?.message).toBe('The field "Name" must be text, not an object (item 1)');
		expect(JSON.stringify(emulator().requests)).not.toContain('[object Object]');
	});
});

describe('option fields take only their listed values', () => {
	it('Sort Direction "sideways" is refused with the allowed values, before any request', async () => {
		const result = await run({
			resource: 'auditLog',
			operation: 'getAll',
			returnAll: false,
			limit: 5,
			options: { sortDirection: '={{ "sideways" }}' },
		});

		expect(result.error).toMatchObject({
			name: 'NodeOperationError',
			message:
				'The field "Sort Direction" must be one of "desc" (Newest First), "asc" (Oldest First), not "sideways" (item 0)',
		});
		expect(emulator().requests).toEqual([]);
	});

	it.each([
		[
			'Output of Get Schemas',
			{ operation: 'getSchemas', options: { output: 'xml' } },
			/^The field "Output" must be one of "compact" \(Compact\), .*, "raw" \(Raw\), not "xml" \(item 0\)$/,
		],
		[
			'Output of Get Columns',
			{
				operation: 'getColumns',
				schema: rl('name', 'public'),
				table: rl('name', 'orders'),
				options: { output: 'xml' },
			},
			/^The field "Output" must be one of "columns" .*, "raw" \(Raw\), not "xml" \(item 0\)$/,
		],
		[
			'Update Mode',
			// noDataExpression: n8n does not evaluate an expression here, so the value is as stored.
			{ operation: 'updateSchemas', updateMode: 'yaml' },
			/^The field "Update Mode" must be one of "changes" \(List of Changes\), "json" \(JSON\), not "yaml"/,
		],
		[
			'Level of a change',
			{
				operation: 'updateSchemas',
				changes: { change: [{ level: 'planet', schema: 'public', enabled: 'enable' }] },
			},
			/^The field "Level \(change 1\)" must be one of "column" \(Column\), "schema" \(Schema\), "table" \(Table\), not "planet" \(item 0\)$/,
		],
		[
			'a tri-state flag',
			{
				operation: 'updateSchemas',
				changes: {
					change: [
						{ level: 'table', schema: 'public', table: 'orders', enabled: 'enable' },
						{ level: 'table', schema: 'public', table: 'customers', enabled: '={{ true }}' },
					],
				},
			},
			/^The field "Enabled \(change 2\)" must be one of "keep" \(Leave Unchanged\), "enable" \(Enable\), "disable" \(Disable\), not true \(item 0\)$/,
		],
		[
			'Concurrency Mode',
			{ operation: 'get', options: { concurrencyMode: 'turbo' } },
			/^The field "Concurrency Mode" must be one of "fixed" \(Fixed\), "auto" \(Auto\), not "turbo"/,
		],
	])('%s', async (_, parameters, message) => {
		const result = await run({ resource: 'integration', integrationId: ORDERS, ...parameters });

		expect(result.error?.name).toBe('NodeOperationError');
		expect(result.error?.message).toMatch(message);
		expect(emulator().requests).toEqual([]);
	});

	it('Return All "false" as text is read as false; anything else not true or false is refused', async () => {
		const asText = await run({
			resource: 'user',
			operation: 'getAll',
			returnAll: '={{ "false" }}',
			limit: 2,
		});
		expect(asText.items).toHaveLength(2);

		const other = await run({ resource: 'user', operation: 'getAll', returnAll: '={{ "yes" }}' });
		expect(other.error?.message).toBe(
			'The field "Return All" must be true or false, not "yes" (item 0)',
		);
	});

	it('numbers stay numbers: Concurrency given as 65 is refused with its bounds', async () => {
		const result = await run({
			resource: 'integration',
			operation: 'get',
			integrationId: ORDERS,
			options: { concurrency: AUTO_MAX_CONCURRENCY + 1 },
		});

		expect(result.error?.message).toBe(
			`The field "Concurrency" must be a whole number from 1 to ${AUTO_MAX_CONCURRENCY}, not ${AUTO_MAX_CONCURRENCY + 1} (item 0)`,
		);
	});
});

describe('the trigger checks its fields too', () => {
	const poll = (parameters: INodeParameters) =>
		pollTrigger({ credentials: credentials(), parameters });

	it('Start From "yesterday" is refused with the allowed values', async () => {
		await expect(poll({ startFrom: '={{ "yesterday" }}' })).rejects.toThrow(
			'The field "Start From" must be one of "now" (Now), "date" (A Date), not "yesterday"',
		);
		expect(emulator().requests).toEqual([]);
	});

	it('an object as an actor email is refused', async () => {
		await expect(
			poll({ filters: { actorEmails: { emails: ['={{ { a: 1 } }}'] } } }),
		).rejects.toThrow('The field "Actor Emails → User Names or IDs" must be text, not an object');
		expect(emulator().requests).toEqual([]);
	});

	it('an object that only looks like a date as Start Date is refused as no date', async () => {
		await expect(
			poll({ startFrom: 'date', startDate: '={{ { toISO: "2026-11-01T00:00:00Z" } }}' }),
		).rejects.toThrow('The field "Start Date" is not a valid date and time');
		expect(emulator().requests).toEqual([]);
	});

	it('Max Items per Poll 0 is refused with its bound', async () => {
		await expect(poll({ options: { maxItemsPerPoll: 0 } })).rejects.toThrow(
			'The field "Max Items per Poll" must be a whole number of at least 1, not 0',
		);
	});

	it('declares its option fields where the poll reads them', () => {
		const names = new DataIntegrationManagementTrigger().description.properties.map((p) => p.name);
		expect(names).toEqual(['startFrom', 'startDate', 'filters', 'options']);
	});
});

describe('reads get Options → Concurrency', () => {
	it.each([
		['integration', 'get'],
		['integration', 'getSchemas'],
		['integration', 'getColumns'],
		['user', 'getAll'],
		['auditLog', 'getAll'],
	])('%s %s offers Concurrency, Concurrency Mode and Max Concurrency', (resource, operation) => {
		const options = fieldOf(resource, operation, 'options').options as INodeProperties[];
		expect(options.map((option) => option.name)).toEqual(
			expect.arrayContaining(['concurrency', 'concurrencyMode', 'maxConcurrency']),
		);
	});

	it('Integration → Get over 6 items with Fixed 3 keeps 3 in flight, output in order', async () => {
		const proxy = await startCountingProxy(emulator(), () => 40);
		try {
			const result = await runActionNode({
				credentials: { ...credentials(), baseUrl: proxy.baseUrl },
				parameters: {
					resource: 'integration',
					operation: 'get',
					integrationId: ORDERS,
					options: { concurrencyMode: 'fixed', concurrency: 3 },
				},
				items: Array.from({ length: 6 }, () => ({})),
			});

			expect(result.error).toBeUndefined();
			expect(proxy.maxInFlight).toBe(3);
			expect(result.items.map((item) => item.pairedItem)).toEqual(
				[0, 1, 2, 3, 4, 5].map((item) => ({ item })),
			);
		} finally {
			await proxy.close();
		}
	});
});

describe('what the UI text states comes from the code', () => {
	it('Concurrency Mode "Auto" states the start and the bound the code uses', () => {
		const mode = (fieldOf('integration', 'get', 'options').options as INodeProperties[]).find(
			(option) => option.name === 'concurrencyMode',
		);
		const auto = (mode?.options as Array<{ value: string; description?: string }>).find(
			(option) => option.value === 'auto',
		);
		expect(auto?.description).toContain(`start with ${INITIAL_WINDOW} items at once`);
		expect(auto?.description).toContain(
			'runs with this credential at the same time share the pace',
		);
		expect(auto?.description).toContain(
			`Never more than Max Concurrency (${AUTO_MAX_CONCURRENCY} when it is not set).`,
		);
	});
});

describe('errors carry the service message and code', () => {
	it('404 through n8n-core 2.x: the service message and code', async () => {
		const result = await run({
			resource: 'integration',
			operation: 'get',
			integrationId: 'int_missing',
		});

		expect(result.error).toMatchObject({
			name: 'NodeApiError',
			httpCode: '404',
			message: expect.stringMatching(/int_missing.*\[\w+\]$/),
		});
	});

	it('403: the key lacks permission for the request (not "refused")', async () => {
		emulator().injectFault({ kind: 'status', status: 403, message: 'not allowed' });

		const result = await run({ resource: 'integration', operation: 'get', integrationId: ORDERS });

		expect(result.error).toMatchObject({
			name: 'NodeApiError',
			httpCode: '403',
			message: expect.stringMatching(/^not allowed \[\w+\]$/),
			description: expect.stringMatching(/lacks permission for this request/),
		});
		expect(result.error?.description).not.toMatch(/refused/);
	});
});
