/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * The node as an AI tool in a real n8n, through the two examples that use it so:
 * - examples/mcp-server.json, n8n's MCP Server Trigger with one tool per operation, published
 *   and driven by the official MCP TypeScript SDK client over Streamable HTTP and over SSE: the
 *   tools it lists and their input schemas (the `$fromAI()` values), a call of every operation,
 *   a bad id and a refused input coming back as tool errors with the node's message;
 * - examples/ai-agent.json, n8n's AI Agent with n8n's OpenAI Chat Model pointed, through its
 *   credential's Base URL, at a scripted OpenAI-compatible server: the agent calls a read, a user
 *   search and a write (Create tag), and answers with their results.
 * Nowhere does the service's API key appear in what a client or the model receives.
 */
import assert from 'node:assert/strict';

// The SDK publishes its modules through a wildcard "exports" map, which tsc and tsx follow and
// the lint's import resolver does not.
/* eslint-disable import-x/no-unresolved */
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
/* eslint-enable import-x/no-unresolved */

import { SEED } from '../../emulator/seed';
import {
	AGENT_EXAMPLE,
	MCP_EXAMPLE,
	readExample,
	requestLine,
	toolName,
	toolNodes,
	type AiContext,
	type WorkflowFile,
} from './ai-examples';
import { driveTools, OTHER_TABLES } from './mcp-tools';
import { waitFor } from './processes';
import { n8nFetch } from './rest';
import { FINAL_ANSWER_PREFIX, toolResults, type ScriptedToolCall } from './scripted-openai';
import type { Check } from './steps';

/** The MCP endpoint of the example's trigger, once published (2.x registers it within 15 s). */
export async function mcpUrl(context: Pick<AiContext, 'api' | 'main'>, path: string): Promise<URL> {
	const url = new URL(`${context.api.baseUrl}/mcp/${path}`);
	const status = await waitFor(
		`the MCP endpoint ${url.pathname} to be registered`,
		async () => {
			const response = await n8nFetch(url, {
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

/**
 * What the scripted model asks the agent's tools, one after the other: Get Schemas narrowed to
 * one table, Get Users searching for Maya, then Create Tag owned by her (the one write).
 */
export const AGENT_TOOL_CALLS: ScriptedToolCall[] = [
	{
		name: 'Get_schemas',
		arguments: {
			integrationId: SEED.integrations.ordersToSnowflake,
			schema: SEED.schema,
			table: SEED.table,
			column: '',
		},
	},
	{ name: 'Get_users', arguments: { search: 'MAYA' } },
	{
		name: 'Create_tag',
		arguments: { name: 'Reviewed by the agent', ownerId: SEED.users.maya, description: 'e2e' },
	},
];

/** The tools offered to the model with their parameters; each scripted call's match its arguments. */
function offeredTools(context: AiContext, workflow: WorkflowFile): string[] {
	const [first] = context.openAi.requests;
	assert.ok(first, 'the model was never asked');
	const offered = (first.tools ?? []).map(({ function: { name } }) => name).sort();
	assert.deepEqual(
		offered,
		toolNodes(workflow)
			.map(({ name }) => toolName(name))
			.sort(),
	);
	for (const call of AGENT_TOOL_CALLS) {
		const tool = first.tools!.find(({ function: { name } }) => name === call.name)!;
		const parameters = Object.keys(tool.function.parameters?.properties ?? {});
		assert.deepEqual(parameters.sort(), Object.keys(call.arguments).sort(), call.name);
	}
	return offered;
}

/**
 * Runs the agent example: the scripted model calls Get schemas, Get users and Create tag, and
 * quotes their results; what the model received says the user was found and the tag created.
 */
export async function checkAgent(context: AiContext, check: Check): Promise<void> {
	const workflow = readExample(AGENT_EXAMPLE);
	await context.emulator.reset();
	const run = await context.n8n.execute(workflow.id);
	assert.equal(run.status, 'success', run.data.resultData.error?.message);
	check(`n8n execute --id=${workflow.id} → status ${run.status}`);
	const offered = offeredTools(context, workflow);
	check(
		`the model (scripted, POST /v1/chat/completions, ${context.openAi.requests.length} requests) was offered the tools ${offered.join(', ')}, each it calls with the parameters it gives`,
	);

	const requests = (await context.emulator.requests()).map(requestLine);
	assert.deepEqual(requests, [
		`GET /integrations/${SEED.integrations.ordersToSnowflake}/schemas`,
		'GET /users',
		'POST /tags',
	]);
	const last = context.openAi.requests[context.openAi.requests.length - 1];
	const [schemas, users, tag] = toolResults(last.messages);
	// One table's columns, the hashed one among them, and no other table.
	assert.match(schemas, new RegExp(`"${SEED.hashedColumn}"`));
	assert.doesNotMatch(schemas, OTHER_TABLES);
	// Maya, found by a part of her email, any case, and no other user.
	assert.match(users, new RegExp(`"${SEED.users.maya}"`));
	assert.equal(users.match(/"usr_/g)?.length, 1, users);
	// The write, said to be made, with the new tag's id.
	assert.match(tag, /"changeMade":\s*true/);
	assert.match(tag, /"id":\s*"tag_/);
	const agentRuns = run.data.resultData.runData['AI Agent'];
	const output = String(agentRuns?.[agentRuns.length - 1]?.data?.main[0]?.[0]?.json.output ?? '');
	assert.equal(output, `${FINAL_ANSWER_PREFIX}${[schemas, users, tag].join('\n')}`);
	assert.ok(!JSON.stringify(context.openAi.requests).includes(context.apiKey));
	assert.ok(!JSON.stringify(run).includes(context.apiKey));
	check(
		`the agent called ${AGENT_TOOL_CALLS.map(({ name }) => name).join(', ')} (the service received ${requests.join(', ')}); the model received ${SEED.schema}.${SEED.table}'s columns only, Maya alone for the search "MAYA", and "changeMade": true with the tag's id; the API key reached neither the model nor the run`,
	);
}
