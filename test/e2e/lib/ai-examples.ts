/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * The two AI examples (examples/mcp-server.json, examples/ai-agent.json) as the AI checks read
 * them: their tool nodes and the tool names n8n gives them, the credentials they name, and what
 * the checks share.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type { RecordedRequest } from '../../emulator/types';
import type { EmulatorControl } from './emulator';
import type { N8n } from './n8n';
import type { Service } from './processes';
import type { PublicApi } from './rest';
import type { ScriptedOpenAi } from './scripted-openai';
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

/** A tool's result as the client got it. */
export interface ToolResult {
	isError?: boolean;
	content: Array<{ type: string; text?: string }>;
}

export function resultText(result: ToolResult): string {
	return result.content.map(({ text }) => text ?? '').join('\n');
}

/** A request as "METHOD /path". */
export function requestLine({ method, path }: RecordedRequest): string {
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
