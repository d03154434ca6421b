import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { useEmulator } from '../helpers/emulator';
import { runActionNode } from '../helpers/n8n';
import { sent } from './support';

const { emulator, credentials } = useEmulator();

const run = (parameters: INodeParameters) =>
	runActionNode({
		credentials: credentials(),
		parameters: { resource: 'connector', operation: 'create', ...parameters },
	});

describe('connector create', () => {
	it('sends connectionType "source" and authMethod "direct" by default', async () => {
		const result = await run({ name: 'Orders replica', type: 'postgres' });

		expect(sent(emulator())).toEqual([
			{
				method: 'POST',
				path: '/connectors',
				query: {},
				body: {
					name: 'Orders replica',
					type: 'postgres',
					connectionType: 'source',
					authMethod: 'direct',
				},
			},
		]);
		expect(result.items).toEqual([
			{
				json: {
					id: expect.stringMatching(/^con_/),
					name: 'Orders replica',
					type: 'postgres',
					connectionType: 'source',
					authMethod: 'direct',
				},
				pairedItem: { item: 0 },
			},
		]);
		const stored = emulator().store.connectors.get(result.items[0].json.id as string);
		expect(stored).toMatchObject({ connectionType: 'source', authMethod: 'direct' });
	});

	it('sends the given connection type, auth method, description and connection, and returns them', async () => {
		const result = await run({
			name: 'Warehouse',
			type: 'snowflake',
			connectionType: 'destination',
			authMethod: 'ssh_tunnel',
			additionalFields: {
				description: 'Main warehouse',
				connection: { account: 'xy123', warehouse: 'WH' },
			},
		});

		expect(sent(emulator())[0].body).toEqual({
			name: 'Warehouse',
			type: 'snowflake',
			connectionType: 'destination',
			authMethod: 'ssh_tunnel',
			description: 'Main warehouse',
			connection: { account: 'xy123', warehouse: 'WH' },
		});
		expect(result.items[0].json).toEqual({
			id: expect.stringMatching(/^con_/),
			...(sent(emulator())[0].body as IDataObject),
		});
	});

	it('rejects a connection that is not JSON, naming the field and item, with no request', async () => {
		const result = await run({
			name: 'Bad',
			type: 'mysql',
			additionalFields: { connection: "{host: 'x'}" },
		});

		expect(result.error).toMatchObject({ name: 'NodeOperationError', context: { itemIndex: 0 } });
		expect(result.error?.message).toMatch(/^The field "Connection" is not valid JSON \(item 0\)/);
		expect(emulator().requests).toHaveLength(0);
		expect(emulator().store.connectors.size).toBe(0);
	});
});
