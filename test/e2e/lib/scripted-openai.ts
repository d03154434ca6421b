/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * A scripted stand-in for OpenAI's Chat Completions API (POST /v1/chat/completions), enough for
 * n8n's OpenAI Chat Model (typeVersion 1.2, which calls Chat Completions) under n8n's AI Agent.
 * It plays one fixed conversation: it asks for its tool calls one at a time, each once the tool
 * before has answered; once every one has, it answers with a final message that quotes their
 * results in order. So the agent's output shows whether the tools ran and what they returned,
 * without any model.
 * Every request is recorded, for checks of the tools the agent offered.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ScriptedToolCall {
	/** The tool's name as n8n offers it (the tool node's name, made a valid tool name). */
	name: string;
	arguments: Record<string, unknown>;
}

/** The prefix of the final answer; the tools' results follow it verbatim, one a line. */
export const FINAL_ANSWER_PREFIX = 'The tool answered: ';

export interface ChatMessage {
	role: string;
	content?: unknown;
	tool_calls?: unknown[];
}

export interface ChatCompletionRequest {
	model: string;
	messages: ChatMessage[];
	stream?: boolean;
	tools?: Array<{
		type: string;
		function: { name: string; description?: string; parameters?: Record<string, unknown> };
	}>;
}

export class ScriptedOpenAi {
	readonly requests: ChatCompletionRequest[] = [];

	private constructor(
		private readonly server: Server,
		/** What n8n's OpenAI credential takes as Base URL. */
		readonly baseUrl: string,
		private readonly toolCalls: ScriptedToolCall[],
	) {}

	static async start(toolCalls: ScriptedToolCall[]): Promise<ScriptedOpenAi> {
		const server = createServer();
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		const { port } = server.address() as AddressInfo;
		const instance = new ScriptedOpenAi(server, `http://127.0.0.1:${port}/v1`, toolCalls);
		server.on('request', (request: IncomingMessage, response: ServerResponse) => {
			void instance.handle(request, response);
		});
		return instance;
	}

	async stop(): Promise<void> {
		this.server.closeAllConnections();
		await new Promise<void>((resolve) => this.server.close(() => resolve()));
	}

	private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
		const chunks: Buffer[] = [];
		for await (const chunk of request) chunks.push(chunk as Buffer);
		if (request.method !== 'POST' || !request.url?.endsWith('/chat/completions')) {
			response.writeHead(404, { 'content-type': 'application/json' });
			response.end(
				JSON.stringify({ error: { message: `no route ${request.method} ${request.url}` } }),
			);
			return;
		}
		const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatCompletionRequest;
		this.requests.push(body);
		const message = this.nextMessage(body.messages);
		if (body.stream) this.stream(response, body.model, message);
		else this.answer(response, body.model, message);
	}

	/** The scripted turn: the next tool call, or, after the last one's result, quote them all. */
	private nextMessage(messages: ChatMessage[]): ChatMessage {
		const results = toolResults(messages);
		const next = this.toolCalls[results.length];
		if (!next) return { role: 'assistant', content: `${FINAL_ANSWER_PREFIX}${results.join('\n')}` };
		return {
			role: 'assistant',
			content: null,
			tool_calls: [
				{
					id: `call_${this.requests.length}`,
					type: 'function',
					function: { name: next.name, arguments: JSON.stringify(next.arguments) },
				},
			],
		};
	}

	private answer(response: ServerResponse, model: string, message: ChatMessage): void {
		response.writeHead(200, { 'content-type': 'application/json' });
		response.end(
			JSON.stringify({
				id: `chatcmpl-${this.requests.length}`,
				object: 'chat.completion',
				created: Math.floor(Date.now() / 1000),
				model,
				choices: [{ index: 0, message, finish_reason: finishReason(message), logprobs: null }],
				usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
			}),
		);
	}

	/** The same turn as server-sent chunks, for a client that asked to stream. */
	private stream(response: ServerResponse, model: string, message: ChatMessage): void {
		response.writeHead(200, { 'content-type': 'text/event-stream' });
		const chunk = (delta: object, finish: string | null) =>
			`data: ${JSON.stringify({
				id: `chatcmpl-${this.requests.length}`,
				object: 'chat.completion.chunk',
				created: Math.floor(Date.now() / 1000),
				model,
				choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
			})}\n\n`;
		const toolCalls = (message.tool_calls ?? []).map((call, index) => ({
			index,
			...(call as object),
		}));
		response.write(
			chunk(
				{
					role: 'assistant',
					content: message.content ?? null,
					...(toolCalls.length && { tool_calls: toolCalls }),
				},
				null,
			),
		);
		response.write(chunk({}, finishReason(message)));
		response.end('data: [DONE]\n\n');
	}
}

function finishReason(message: ChatMessage): string {
	return message.tool_calls?.length ? 'tool_calls' : 'stop';
}

/** The results of the tools the conversation has called, in order, as text. */
export function toolResults(messages: ChatMessage[]): string[] {
	return messages.filter(({ role }) => role === 'tool').map(({ content }) => textOf(content));
}

/** A message's content as text: a string, or the text parts of a content array. */
function textOf(content: unknown): string {
	if (typeof content === 'string') return content;
	if (Array.isArray(content)) {
		return content.map((part) => (part as { text?: string }).text ?? '').join('');
	}
	return JSON.stringify(content);
}
