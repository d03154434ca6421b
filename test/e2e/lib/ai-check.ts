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
} from './ai-examples';
import { driveTools, OTHER_TABLES } from './mcp-tools';
import { waitFor } from './processes';
import { FINAL_ANSWER_PREFIX, type ScriptedToolCall } from './scripted-openai';
import type { Check } from './steps';

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

/** What the scripted model asks the agent's tools: Get Schemas, narrowed to one table. */
export const AGENT_TOOL_CALL: ScriptedToolCall = {
	name: 'Get_schemas',
	arguments: {
		integrationId: SEED.integrations.ordersToSnowflake,
		schema: SEED.schema,
		table: SEED.table,
	},
};

/** Runs the agent example: the scripted model calls Get schemas and quotes its result. */
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
	const getSchemas = first.tools!.find(({ function: { name } }) => name === AGENT_TOOL_CALL.name)!;
	const parameters = Object.keys(getSchemas.function.parameters?.properties ?? {});
	assert.deepEqual(parameters.sort(), Object.keys(AGENT_TOOL_CALL.arguments).sort());
	check(
		`the model (scripted, POST /v1/chat/completions, ${context.openAi.requests.length} requests) was offered the tools ${offered.join(', ')}, ${AGENT_TOOL_CALL.name} with the parameters ${parameters.join(', ')}`,
	);

	const requests = (await context.emulator.requests()).map(requestLine);
	assert.deepEqual(requests, [`GET /integrations/${SEED.integrations.ordersToSnowflake}/schemas`]);
	const agentRuns = run.data.resultData.runData['AI Agent'];
	const output = String(agentRuns?.[agentRuns.length - 1]?.data?.main[0]?.[0]?.json.output ?? '');
	assert.ok(output.startsWith(FINAL_ANSWER_PREFIX), output);
	// One table's columns, the hashed one among them, and no other table.
	assert.match(output, new RegExp(`"${SEED.hashedColumn}"`));
	assert.doesNotMatch(output, OTHER_TABLES);
	assert.ok(!JSON.stringify(context.openAi.requests).includes(context.apiKey));
	assert.ok(!JSON.stringify(run).includes(context.apiKey));
	check(
		`the agent called ${AGENT_TOOL_CALL.name} narrowed to ${SEED.schema}.${SEED.table} (the service received ${requests.join(', ')}) and answered with that table's columns only: "${output.slice(0, 80)}…"; the API key reached neither the model nor the run`,
	);
}
