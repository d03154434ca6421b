import { NodeHelpers, type INode, type INodeParameters, type INodeProperties } from 'n8n-workflow';

import { DataIntegrationManagement } from '../../nodes/DataIntegrationManagement/DataIntegrationManagement.node';
import { SEED } from '../emulator';
import { useEmulator } from '../helpers/emulator';
import { TOOL_ANSWER_CHARACTERS } from '../../nodes/DataIntegrationManagement/actions/toolAnswer';
import { runActionNode, TOOL_NODE_TYPE, toolNode } from '../helpers/n8n';

const { emulator, credentials } = useEmulator();

const node = new DataIntegrationManagement();

/**
 * The names of the fields the editor shows for `parameters`, in the node or in its tool form,
 * with collections' options listed as `collection.option`.
 */
function shownFields(parameters: INodeParameters, asTool: boolean): string[] {
	const description = asTool ? toolNode.description : node.description;
	const instance: INode = {
		id: 'n',
		name: 'n',
		type: asTool ? TOOL_NODE_TYPE : 'x.dataIntegrationManagement',
		typeVersion: 1,
		position: [0, 0],
		parameters,
	};
	const shown = (property: INodeProperties, values: INodeParameters) =>
		NodeHelpers.displayParameter(values, property, instance, description, parameters);
	return description.properties
		.filter((property) => shown(property, parameters))
		.flatMap((property) => [
			property.name,
			...((property.type === 'collection' ? property.options : []) as INodeProperties[])
				.filter((option) => shown(option, {}))
				.map((option) => `${property.name}.${option.name}`),
		]);
}

describe('the tool form (AI agents, MCP Server Trigger)', () => {
	it('hides Options → Concurrency and Concurrency Mode, which mean nothing to a model', () => {
		const createTag = { resource: 'tag', operation: 'create' };
		expect(shownFields(createTag, false)).toEqual(
			expect.arrayContaining(['options', 'options.concurrency', 'options.concurrencyMode']),
		);
		expect(shownFields(createTag, true).filter((name) => name.startsWith('options'))).toEqual([]);

		const updateSchemas = { resource: 'integration', operation: 'updateSchemas' };
		expect(shownFields(updateSchemas, true).filter((name) => name.startsWith('options'))).toEqual(
			[],
		);
	});

	it('tells, on Update Schemas in List of Changes, to choose JSON, which one $fromAI() can fill', () => {
		const changes = { resource: 'integration', operation: 'updateSchemas', updateMode: 'changes' };
		expect(shownFields(changes, true)).toContain('toolNotice');
		expect(shownFields(changes, false)).not.toContain('toolNotice');
		expect(shownFields({ ...changes, updateMode: 'json' }, true)).not.toContain('toolNotice');
		expect(shownFields({ ...changes, updateMode: 'json' }, true)).toContain('schemas');
	});

	it('gives what the node gives when Output is not set (Get Schemas, Audit Log → Get Many)', async () => {
		for (const parameters of [
			{
				resource: 'integration',
				operation: 'getSchemas',
				integrationId: SEED.integrations.ordersToSnowflake,
			},
			{ resource: 'auditLog', operation: 'getAll', limit: 2 },
		]) {
			const inNode = await runActionNode({ credentials: credentials(), parameters });
			const asTool = await runActionNode({ credentials: credentials(), parameters, asTool: true });
			expect(asTool.items.map(({ json }) => json)).toEqual(inNode.items.map(({ json }) => json));
			expect(inNode.items.length).toBeGreaterThan(1);
		}
	});

	it("gives the actor's email as actorEmail in Audit Log → Get Many's Compact", async () => {
		const parameters = { resource: 'auditLog', operation: 'getAll', limit: 2 };
		const full = await runActionNode({ credentials: credentials(), parameters });
		const compact = await runActionNode({
			credentials: credentials(),
			parameters: { ...parameters, options: { output: 'compact' } },
			asTool: true,
		});
		expect(compact.items.map(({ json }) => json)).toEqual(
			full.items.map(({ json }) => ({
				id: json.id,
				timestamp: json.timestamp,
				event: json.event,
				actorEmail: (json.actor as { email: string }).email,
			})),
		);
	});
});

describe('the tool form with Output set', () => {
	it('Get Schemas gives the compact map (only enabled and hashed) with Compact, the whole map with Raw', async () => {
		const parameters = {
			resource: 'integration',
			operation: 'getSchemas',
			integrationId: SEED.integrations.ordersToSnowflake,
		};
		const compact = await runActionNode({
			credentials: credentials(),
			parameters: { ...parameters, options: { output: 'compact' } },
			asTool: true,
		});
		const stored = emulator().store.schemas.get(SEED.integrations.ordersToSnowflake)!;
		const customers = stored[SEED.schema].tables[SEED.table];
		expect(compact.items[0].json).toEqual({
			schemas: expect.objectContaining({
				[SEED.schema]: expect.objectContaining({
					enabled: stored[SEED.schema].enabled,
					tables: expect.objectContaining({
						[SEED.table]: {
							enabled: customers.enabled,
							columns: Object.fromEntries(
								Object.entries(customers.columns).map(([name, { enabled, hashed }]) => [
									name,
									{ enabled, hashed },
								]),
							),
						},
					}),
				}),
			}),
		});

		const raw = await runActionNode({
			credentials: credentials(),
			parameters: { ...parameters, options: { output: 'raw' } },
			asTool: true,
		});
		expect(raw.items[0].json).toEqual({ schemas: stored });
	});

	it('Audit Log → Get Many gives each entry whole with Raw', async () => {
		const parameters = { resource: 'auditLog', operation: 'getAll', limit: 2 };
		const inNode = await runActionNode({ credentials: credentials(), parameters });
		const rawAsTool = await runActionNode({
			credentials: credentials(),
			parameters: { ...parameters, options: { output: 'raw' } },
			asTool: true,
		});
		expect(rawAsTool.items).toEqual(inNode.items);
		expect(inNode.items[0].json).toHaveProperty('context');
	});
});

describe('a tool answer larger than a model is given', () => {
	it('is cut within the limit, saying what was left out and which fields narrow it (Audit Log → Get Many, Return All)', async () => {
		const parameters = { resource: 'auditLog', operation: 'getAll', returnAll: true };
		const inNode = await runActionNode({ credentials: credentials(), parameters });
		const asTool = await runActionNode({ credentials: credentials(), parameters, asTool: true });
		const answer = asTool.items.map(({ json }) => json);
		const given = answer.length - 1;

		expect(JSON.stringify(inNode.items.map(({ json }) => json)).length).toBeGreaterThan(
			TOOL_ANSWER_CHARACTERS,
		);
		expect(JSON.stringify(answer).length).toBeLessThanOrEqual(TOOL_ANSWER_CHARACTERS);
		expect(answer.slice(0, given)).toEqual(inNode.items.slice(0, given).map(({ json }) => json));
		expect(answer[given]).toMatchObject({
			truncated: true,
			itemsGiven: given,
			itemsLeftOut: inNode.items.length - given,
			narrowWith:
				'lower Limit (with Return All off), or set Filters → Since and Until to a shorter span',
		});
		expect(
			asTool.items.every(({ pairedItem }) => (pairedItem as { item: number }).item === 0),
		).toBe(true);
	});
});
