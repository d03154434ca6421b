/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * The MCP example driven by the official MCP TypeScript SDK client (./ai-check.ts runs it over
 * each transport): the tools it lists and their input schemas, a call of every operation, and
 * tool errors.
 */
import assert from 'node:assert/strict';

// The SDK publishes its modules through a wildcard "exports" map, which tsc and tsx follow and
// the lint's import resolver does not.
/* eslint-disable import-x/no-unresolved */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
/* eslint-enable import-x/no-unresolved */

import { SEED } from '../../emulator/seed';
import {
	requestLine,
	resultText,
	toolName,
	toolNodes,
	type AiContext,
	type ToolNode,
	type ToolResult,
	type WorkflowFile,
} from './ai-examples';
import type { Check } from './steps';

/** Each `$fromAI(key, description, type)` in a node's parameters. */
function fromAiArguments(
	node: ToolNode,
): Array<{ key: string; description: string; type: string }> {
	const calls = JSON.stringify(node.parameters).matchAll(
		/\$fromAI\('([^']+)', `([^`]*)`, '([^']+)'\)/g,
	);
	return [...calls].map(([, key, description, type]) => ({
		key,
		// The description went through JSON.stringify with the rest of the parameters.
		description: JSON.parse(`"${description}"`) as string,
		type,
	}));
}

/** JSON Schema types n8n gives each `$fromAI` type in a tool's input schema. */
const SCHEMA_TYPES: Record<string, string> = { string: 'string', number: 'number' };

const NEW_ASSET = 'Agent bucket';

/**
 * Names of other tables of the orders integration (a hashed column of public.payments, a table of
 * billing), quoted as every Output mode writes a name: in a narrowed answer, neither.
 */
export const OTHER_TABLES = /"(card_last4|invoices)"/;

/**
 * What each tool of the MCP example is called with, what its result must hold, and the request
 * the service must have received for it.
 */
const CALLS: Record<
	string,
	{ args: Record<string, unknown>; result: RegExp; request: string; without?: RegExp }
> = {
	Get_integration: {
		args: { integrationId: SEED.integrations.ordersToSnowflake },
		result: /Orders Postgres to Snowflake/,
		request: `GET /integrations/${SEED.integrations.ordersToSnowflake}`,
	},
	// Narrowed to one table: its columns, and nothing of the integration's other tables.
	Get_schemas: {
		args: {
			integrationId: SEED.integrations.ordersToSnowflake,
			schema: SEED.schema,
			table: SEED.table,
			column: '',
		},
		result: new RegExp(`"${SEED.hashedColumn}"`),
		without: OTHER_TABLES,
		request: `GET /integrations/${SEED.integrations.ordersToSnowflake}/schemas`,
	},
	Get_columns: {
		args: {
			integrationId: SEED.integrations.ordersToSnowflake,
			schema: SEED.schema,
			table: SEED.table,
		},
		result: new RegExp(SEED.primaryKeyColumn),
		request: `GET /integrations/${SEED.integrations.ordersToSnowflake}/schemas/${SEED.schema}/tables/${SEED.table}/columns`,
	},
	Update_schemas: {
		args: {
			integrationId: SEED.integrations.ordersToSnowflake,
			schemas: {
				[SEED.schema]: { tables: { [SEED.table]: { columns: { full_name: { hashed: true } } } } },
			},
		},
		// The write said to be made, and the column changed with its flags after the change.
		result:
			/"changeMade":\s*true.*"column":\s*"full_name",(?=[^}]*"hashed":\s*true)(?=[^}]*"enabled":\s*true)/s,
		request: `PATCH /integrations/${SEED.integrations.ordersToSnowflake}/schemas`,
	},
	Create_tag: {
		args: {
			name: 'Reviewed by an agent',
			ownerId: SEED.users.maya,
			description: 'Checked by the e2e suite',
		},
		result: /"changeMade":\s*true,\s*"id":\s*"tag_/,
		request: 'POST /tags',
	},
	Update_tag: {
		args: { tagId: SEED.tags.finance, description: 'Revenue and billing data (reviewed)' },
		result: /\(reviewed\)/,
		request: `PUT /tags/${SEED.tags.finance}`,
	},
	Delete_tag_relation: {
		args: {
			tagId: SEED.tags.pii,
			resourceId: SEED.piiRelation.resourceId,
			resourceType: SEED.piiRelation.resourceType,
		},
		result: /./,
		request: `DELETE /tags/${SEED.tags.pii}/relation`,
	},
	Create_asset: {
		args: { name: NEW_ASSET, type: 's3' },
		result: new RegExp(NEW_ASSET),
		request: 'POST /assets',
	},
	Update_asset: {
		args: { assetId: SEED.assets.ordersDb, name: 'Orders database (primary)' },
		// The service answers an update with the asset's id only.
		result: new RegExp(`"id":\\s*"${SEED.assets.ordersDb}"`),
		request: `PATCH /assets/${SEED.assets.ordersDb}`,
	},
	Create_connector: {
		args: {
			name: 'Agent replica',
			type: 'postgres',
			connectionType: 'source',
			authMethod: 'direct',
		},
		result: /Agent replica/,
		request: 'POST /connectors',
	},
	Get_audit_log: {
		args: { limit: 3, until: '' },
		result: /"timestamp"/,
		request: 'GET /audit-logs',
	},
	// A part of the name, any case: Priya, and no other user.
	Get_users: {
		args: { search: 'RAMAN' },
		result: new RegExp(SEED.users.priya),
		without: new RegExp(`usr_(?!${SEED.users.priya.slice('usr_'.length)})`),
		request: 'GET /users',
	},
};

/** tools/list: one tool per tool node, each input schema holding its `$fromAI()` keys. */
async function checkToolList(
	client: Client,
	workflow: WorkflowFile,
	label: string,
	received: unknown[],
	check: Check,
): Promise<ToolNode[]> {
	const { tools } = await client.listTools();
	received.push(tools);
	const nodes = toolNodes(workflow);
	assert.deepEqual(
		tools.map(({ name }) => name).sort(),
		nodes.map(({ name }) => toolName(name)).sort(),
	);
	for (const node of nodes) {
		const tool = tools.find(({ name }) => name === toolName(node.name))!;
		const properties = (tool.inputSchema.properties ?? {}) as Record<
			string,
			{ type?: string; description?: string }
		>;
		const expected = fromAiArguments(node);
		assert.deepEqual(Object.keys(properties).sort(), expected.map(({ key }) => key).sort());
		for (const { key, description, type } of expected) {
			assert.equal(properties[key].description, description, `${tool.name}.${key}`);
			// A json value is any JSON: some n8n versions give it no type, others "object".
			const types = type === 'json' ? [undefined, 'object'] : [SCHEMA_TYPES[type]];
			assert.ok(
				types.includes(properties[key].type),
				`${tool.name}.${key}: type ${properties[key].type}, expected ${types.join(' or ')}`,
			);
		}
		assert.deepEqual([...(tool.inputSchema.required ?? [])].sort(), Object.keys(properties).sort());
		assert.equal(tool.description, node.parameters.toolDescription);
	}
	check(
		`${label}: tools/list → ${tools.length} tools (${tools.map(({ name }) => name).join(', ')}), each input schema holding its $fromAI() keys with their descriptions and types, all required`,
	);
	return nodes;
}

/** tools/call of every tool: its result, and the request the service received for it. */
async function callEveryTool(
	context: AiContext,
	client: Client,
	nodes: ToolNode[],
	label: string,
	received: unknown[],
	check: Check,
): Promise<void> {
	await context.emulator.reset();
	for (const node of nodes) {
		const name = toolName(node.name);
		const call = CALLS[name];
		assert.ok(call, `no call planned for the tool ${name}`);
		const result = (await client.callTool({ name, arguments: call.args })) as ToolResult;
		received.push(result);
		const text = resultText(result);
		assert.ok(!result.isError, `${name} failed: ${text}`);
		assert.match(text, call.result, `${name}'s result: ${text.slice(0, 300)}`);
		if (call.without) assert.doesNotMatch(text, call.without, `${name}'s result holds too much`);
	}
	// Each call's request, and no other (the audit-log reader may read a page more to check
	// the order, so requests are compared as a set).
	const requests = new Set((await context.emulator.requests()).map(requestLine));
	assert.deepEqual(
		[...requests].sort(),
		nodes.map(({ name }) => CALLS[toolName(name)].request).sort(),
	);
	check(
		`${label}: tools/call of each of the ${nodes.length} tools succeeded with the expected result (Update schemas and Create tag said to be made, "changeMade": true, the first with the column it changed; Get users found Priya alone by a part of her name); the service received each call's request and no other`,
	);
}

/** An unknown id and a refused value come back as tool errors with the node's messages. */
async function callWithErrors(
	context: AiContext,
	client: Client,
	label: string,
	received: unknown[],
	check: Check,
): Promise<void> {
	await context.emulator.clearRequests();
	const missing = (await client.callTool({
		name: 'Get_integration',
		arguments: { integrationId: 'int_000000000000' },
	})) as ToolResult;
	received.push(missing);
	assert.equal(missing.isError, true, resultText(missing));
	assert.match(resultText(missing), /\[NOT_FOUND\]/);
	const refused = (await client.callTool({
		name: 'Update_schemas',
		arguments: {
			integrationId: SEED.integrations.ordersToSnowflake,
			schemas: { public: { owner: 'x' } },
		},
	})) as ToolResult;
	received.push(refused);
	assert.equal(refused.isError, true, resultText(refused));
	assert.match(resultText(refused), /The field "Schemas" is not a valid schema update/);
	assert.deepEqual((await context.emulator.requests()).map(requestLine), [
		'GET /integrations/int_000000000000',
	]);
	check(
		`${label}: an unknown integration ID and a refused Schemas value come back as tool errors (isError) with the node's messages; the refused one sent no request`,
	);
}

/** Lists and calls every tool through one transport; returns everything the client received. */
export async function driveTools(
	context: AiContext,
	workflow: WorkflowFile,
	label: string,
	transport: Transport,
	check: Check,
): Promise<string> {
	const client = new Client({
		name: 'n8n-nodes-data-integration-management-e2e',
		version: '1.0.0',
	});
	await client.connect(transport);
	const received: unknown[] = [];
	try {
		const nodes = await checkToolList(client, workflow, label, received, check);
		await callEveryTool(context, client, nodes, label, received, check);
		await callWithErrors(context, client, label, received, check);
	} finally {
		await client.close();
	}
	const everything = JSON.stringify(received);
	assert.ok(!everything.includes(context.apiKey), `${label}: the API key reached the client`);
	return everything;
}
