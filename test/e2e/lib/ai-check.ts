/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * The node as an AI tool in a real n8n, through the two examples that use it so:
 * - examples/mcp-server.json, n8n's MCP Server Trigger with one tool per operation, published
 *   and driven by the official MCP TypeScript SDK client over Streamable HTTP and over SSE: the
 *   tools it lists and their input schemas (the `$fromAI()` values), a call of every operation,
 *   a bad id and a refused input coming back as tool errors with the node's message;
 * - examples/ai-agent.json, n8n's AI Agent with n8n's OpenAI Chat Model pointed, through its
 *   credential's Base URL, at a scripted OpenAI-compatible server: the agent calls the tool and
 *   answers with its result.
 * Nowhere does the service's API key appear in what a client or the model receives.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

// The SDK publishes its modules through a wildcard "exports" map, which tsc and tsx follow and
// the lint's import resolver does not.
/* eslint-disable import-x/no-unresolved */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
/* eslint-enable import-x/no-unresolved */

import { SEED } from '../../emulator/seed';
import type { RecordedRequest } from '../../emulator/types';
import type { EmulatorControl } from './emulator';
import type { N8n } from './n8n';
import { waitFor, type Service } from './processes';
import type { PublicApi } from './rest';
import { FINAL_ANSWER_PREFIX, ScriptedOpenAi } from './scripted-openai';
import type { Check } from './steps';
import { WORKFLOWS_DIR } from './workflows';

export const MCP_EXAMPLE = 'mcp-server.json';
export const AGENT_EXAMPLE = 'ai-agent.json';

/** The credentials the AI examples name besides the service's, as placeholders to replace. */
export const AI_PLACEHOLDER_CREDENTIALS = {
	openAi: { id: 'openAiCredential', name: 'OpenAi account', type: 'openAiApi' },
	mcpBearer: { id: 'mcpBearerCredential', name: 'Bearer Auth account', type: 'httpBearerAuth' },
} as const;

export interface ToolNode {
	name: string;
	type: string;
	parameters: { resource: string; operation: string } & Record<string, unknown>;
}

export interface WorkflowFile {
	id: string;
	nodes: ToolNode[];
}

export function readExample(file: string): WorkflowFile {
	return JSON.parse(readFileSync(join(WORKFLOWS_DIR, file), 'utf8')) as WorkflowFile;
}

/** n8n's tool name for a node: each run of characters other than [a-zA-Z0-9_-] made one "_". */
export function toolName(nodeName: string): string {
	return nodeName.replace(/[^a-zA-Z0-9_-]+/g, '_');
}

/** The tool nodes of the node's type in a workflow. */
export function toolNodes(workflow: WorkflowFile): ToolNode[] {
	return workflow.nodes.filter((node) => node.type.endsWith('.dataIntegrationManagementTool'));
}

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
 * What each tool of the MCP example is called with, what its result must hold, and the request
 * the service must have received for it.
 */
const CALLS: Record<string, { args: Record<string, unknown>; result: RegExp; request: string }> = {
	Get_integration: {
		args: { integrationId: SEED.integrations.ordersToSnowflake },
		result: /Orders Postgres to Snowflake/,
		request: `GET /integrations/${SEED.integrations.ordersToSnowflake}`,
	},
	Get_schemas: {
		args: { integrationId: SEED.integrations.ordersToSnowflake },
		result: new RegExp(`"${SEED.hashedColumn}"`),
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
		result: /full_name/,
		request: `PATCH /integrations/${SEED.integrations.ordersToSnowflake}/schemas`,
	},
	Create_tag: {
		args: {
			name: 'Reviewed by an agent',
			ownerId: SEED.users.maya,
			description: 'Checked by the e2e suite',
		},
		result: /"id":\s*"tag_/,
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
		args: { limit: 3 },
		result: /"timestamp"/,
		request: 'GET /audit-logs',
	},
	Get_users: {
		args: {},
		result: new RegExp(SEED.users.priya),
		request: 'GET /users',
	},
};

/** A tool's result as the client got it. */
export interface ToolResult {
	isError?: boolean;
	content: Array<{ type: string; text?: string }>;
}

export function resultText(result: ToolResult): string {
	return result.content.map(({ text }) => text ?? '').join('\n');
}

function requestLine({ method, path }: RecordedRequest): string {
	return `${method} ${path}`;
}

export interface AiContext {
	n8n: N8n;
	api: PublicApi;
	main: Service;
	emulator: EmulatorControl;
	/** The service's API key: it must never reach a client or the model. */
	apiKey: string;
	/** The token the MCP Server Trigger's Bearer Auth credential holds. */
	mcpToken: string;
	openAi: ScriptedOpenAi;
}

/** The credentials file the AI examples need besides the service's: the model's and the trigger's. */
export function writeAiCredentialFile(
	file: string,
	settings: { openAiBaseUrl: string; mcpToken: string },
): void {
	const { openAi, mcpBearer } = AI_PLACEHOLDER_CREDENTIALS;
	const credentials = [
		{ ...openAi, data: { apiKey: 'sk-scripted', url: settings.openAiBaseUrl } },
		{ ...mcpBearer, data: { token: settings.mcpToken } },
	];
	writeFileSync(file, JSON.stringify(credentials, null, 2));
}

/** The MCP endpoint of the example's trigger, once published (2.x registers it within 15 s). */
export async function mcpUrl(context: Pick<AiContext, 'api' | 'main'>, path: string): Promise<URL> {
	const url = new URL(`${context.api.baseUrl}/mcp/${path}`);
	const status = await waitFor(
		`the MCP endpoint ${url.pathname} to be registered`,
		async () => {
			const response = await fetch(url, {
				method: 'POST',
				headers: {
					'content-type': 'application/json',
					accept: 'application/json, text/event-stream',
				},
				body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
			});
			await response.body?.cancel();
			return response.status === 404 ? undefined : response.status;
		},
		{ timeoutMs: 60_000, services: [context.main] },
	);
	assert.ok(status === 401 || status === 403, `without a token the endpoint answered ${status}`);
	return url;
}

/** Lists and calls every tool through one transport; returns everything the client received. */
async function driveTools(
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
			assert.deepEqual(
				[...(tool.inputSchema.required ?? [])].sort(),
				Object.keys(properties).sort(),
			);
			assert.equal(tool.description, node.parameters.toolDescription);
		}
		check(
			`${label}: tools/list → ${tools.length} tools (${tools.map(({ name }) => name).join(', ')}), each input schema holding its $fromAI() keys with their descriptions and types, all required`,
		);

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
		}
		// Each call's request, and no other (the audit-log reader may read a page more to check
		// the order, so requests are compared as a set).
		const requests = new Set((await context.emulator.requests()).map(requestLine));
		assert.deepEqual(
			[...requests].sort(),
			nodes.map(({ name }) => CALLS[toolName(name)].request).sort(),
		);
		check(
			`${label}: tools/call of each of the ${nodes.length} tools succeeded with the expected result; the service received each call's request and no other`,
		);

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
	} finally {
		await client.close();
	}
	const everything = JSON.stringify(received);
	assert.ok(!everything.includes(context.apiKey), `${label}: the API key reached the client`);
	return everything;
}

/** Publishes the MCP example and drives it over Streamable HTTP, then over SSE. */
export async function checkMcpServer(context: AiContext, check: Check): Promise<void> {
	const workflow = readExample(MCP_EXAMPLE);
	const trigger = workflow.nodes.find(({ type }) => type.endsWith('.mcpTrigger')) as unknown as {
		parameters: { path: string };
	};
	await context.api.publish(workflow.id);
	try {
		const url = await mcpUrl(context, trigger.parameters.path);
		check(`published ${workflow.id}; ${url.pathname} refuses a request without the bearer token`);
		const requestInit = { headers: { authorization: `Bearer ${context.mcpToken}` } };
		await driveTools(
			context,
			workflow,
			'Streamable HTTP',
			new StreamableHTTPClientTransport(url, { requestInit }),
			check,
		);
		await driveTools(context, workflow, 'SSE', new SSEClientTransport(url, { requestInit }), check);
		check('the API key of the credential appears in nothing either transport received');
	} finally {
		await context.api.unpublish(workflow.id);
	}
}

/** Runs the agent example: the scripted model calls Get integration and quotes its result. */
export async function checkAgent(context: AiContext, check: Check): Promise<void> {
	const workflow = readExample(AGENT_EXAMPLE);
	await context.emulator.reset();
	const run = await context.n8n.execute(workflow.id);
	assert.equal(run.status, 'success', run.data.resultData.error?.message);
	check(`n8n execute --id=${workflow.id} → status ${run.status}`);

	const [first] = context.openAi.requests;
	assert.ok(first, 'the model was never asked');
	const offered = (first.tools ?? []).map(({ function: { name } }) => name).sort();
	assert.deepEqual(
		offered,
		toolNodes(workflow)
			.map(({ name }) => toolName(name))
			.sort(),
	);
	const getIntegration = first.tools!.find(({ function: { name } }) => name === 'Get_integration')!;
	assert.deepEqual(Object.keys(getIntegration.function.parameters?.properties ?? {}), [
		'integrationId',
	]);
	check(
		`the model (scripted, POST /v1/chat/completions, ${context.openAi.requests.length} requests) was offered the tools ${offered.join(', ')}, Get_integration with the parameter integrationId`,
	);

	const requests = (await context.emulator.requests()).map(requestLine);
	assert.deepEqual(requests, [`GET /integrations/${SEED.integrations.ordersToSnowflake}`]);
	const agentRuns = run.data.resultData.runData['AI Agent'];
	const output = String(agentRuns?.[agentRuns.length - 1]?.data?.main[0]?.[0]?.json.output ?? '');
	assert.ok(output.startsWith(FINAL_ANSWER_PREFIX), output);
	assert.match(output, /Orders Postgres to Snowflake/);
	assert.ok(!JSON.stringify(context.openAi.requests).includes(context.apiKey));
	assert.ok(!JSON.stringify(run).includes(context.apiKey));
	check(
		`the agent called Get_integration (the service received ${requests.join(', ')}) and answered with its result: "${output.slice(0, 80)}…"; the API key reached neither the model nor the run`,
	);
}
