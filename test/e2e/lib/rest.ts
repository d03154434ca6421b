/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * n8n's HTTP APIs, as far as the run needs them:
 * - the editor's REST API (cookie session) to create the owner account, read the node and
 *   credential types the editor lists, and create an API key;
 * - the public API (/api/v1, X-N8N-API-KEY) to publish workflows (n8n 2.x; 1.x activates them
 *   instead) and read executions. The public API cannot run a workflow: runs start from the CLI
 *   (`n8n execute`), a webhook, or a trigger.
 */
import { setTimeout as delay } from 'node:timers/promises';

import type { RunData } from './n8n';

export interface Owner {
	email: string;
	firstName: string;
	lastName: string;
	password: string;
}

/**
 * The owner account of the instances `npm run dev` and `npm run screenshots` start. They listen on
 * loopback only and live until stopped, so a fixed, printed password is fine.
 */
export const DEV_OWNER: Owner = {
	email: 'dev@example.com',
	firstName: 'Dev',
	lastName: 'User',
	password: 'Dev-Passw0rd',
};

/** The part of a node type's description the run reads. */
export interface NodeTypeDescription {
	name: string;
	/** The node versions n8n has of this type. */
	version: number | number[];
	properties: Array<{
		name: string;
		options?: Array<{ value?: unknown }>;
		displayOptions?: { show?: Record<string, unknown[]> };
	}>;
}

/**
 * fetch, sent again while n8n answers 503 "Database is not ready!": n8n pings its database every
 * 2 s and, when a ping takes over 5 s (SQLite on a busy machine), refuses every request until the
 * next one answers. Seen once in CI, on a 1.x restart beside the other release's run.
 */
export async function n8nFetch(url: string | URL, init?: RequestInit): Promise<Response> {
	const until = Date.now() + 60_000;
	for (;;) {
		const response = await fetch(url, init);
		const notReady =
			response.status === 503 && (await response.clone().text()).includes('Database is not ready');
		if (!notReady || Date.now() > until) return response;
		await delay(1000);
	}
}

async function failOnError(response: Response, what: string): Promise<Response> {
	if (response.ok) return response;
	const body = (await response.text()).slice(0, 500);
	throw new Error(`${what} answered ${response.status}: ${body}`);
}

/** The editor's REST API, signed in as the owner. */
export class EditorSession {
	private cookie = '';

	constructor(readonly baseUrl: string) {}

	/**
	 * A fresh n8n has no account until someone sets up the owner; this does it as the setup
	 * screen would, and keeps the session it returns.
	 */
	async setupOwner(owner: Owner): Promise<void> {
		const response = await n8nFetch(`${this.baseUrl}/rest/owner/setup`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify(owner),
		});
		await failOnError(response, 'POST /rest/owner/setup');
		const authCookie = response.headers
			.getSetCookie()
			.find((cookie) => cookie.startsWith('n8n-auth='));
		if (!authCookie) throw new Error('POST /rest/owner/setup set no n8n-auth cookie');
		this.cookie = authCookie.split(';')[0];
	}

	private async get<T>(path: string): Promise<T> {
		const response = await n8nFetch(`${this.baseUrl}${path}`, { headers: { cookie: this.cookie } });
		return (await (await failOnError(response, `GET ${path}`)).json()) as T;
	}

	/** The node types the editor offers (the same list its node panel shows). */
	async nodeTypes(): Promise<NodeTypeDescription[]> {
		return await this.get<NodeTypeDescription[]>('/types/nodes.json');
	}

	/**
	 * Saves a new workflow as the editor does once a file was imported ("Import from File", then
	 * Save): the file's nodes, connections and settings, under a new id.
	 */
	async createWorkflow(workflow: {
		name: string;
		nodes: unknown[];
		connections: unknown;
		settings?: unknown;
	}): Promise<{ id: string; nodes: unknown[] }> {
		const { name, nodes, connections, settings } = workflow;
		const response = await n8nFetch(`${this.baseUrl}/rest/workflows`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', cookie: this.cookie },
			body: JSON.stringify({ name, nodes, connections, settings, active: false }),
		});
		const { data } = (await (await failOnError(response, 'POST /rest/workflows')).json()) as {
			data: { id: string; nodes: unknown[] };
		};
		return data;
	}

	/** A credential's Test, as the editor's credential dialog runs it, with the data given. */
	async testCredential(credential: {
		id: string;
		name: string;
		type: string;
		data: Record<string, unknown>;
	}): Promise<{ status: string; message: string }> {
		const response = await n8nFetch(`${this.baseUrl}/rest/credentials/test`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', cookie: this.cookie },
			body: JSON.stringify({ credentials: credential }),
		});
		const { data } = (await (
			await failOnError(response, 'POST /rest/credentials/test')
		).json()) as { data: { status: string; message: string } };
		return data;
	}

	async credentialTypeNames(): Promise<string[]> {
		return (await this.get<Array<{ name: string }>>('/types/credentials.json')).map(
			({ name }) => name,
		);
	}

	/** Creates an API key for the public API, as Settings → n8n API does. */
	async createApiKey(label: string, scopes: string[]): Promise<string> {
		const response = await n8nFetch(`${this.baseUrl}/rest/api-keys`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', cookie: this.cookie },
			body: JSON.stringify({ label, scopes, expiresAt: null }),
		});
		const { data } = (await (await failOnError(response, 'POST /rest/api-keys')).json()) as {
			data: { rawApiKey: string };
		};
		return data.rawApiKey;
	}
}

/** Scopes the run's API key needs. */
export const API_KEY_SCOPES = [
	'workflow:read',
	'workflow:list',
	'workflow:update',
	'workflow:activate',
	'workflow:deactivate',
	'execution:read',
	'execution:list',
];

export interface Execution {
	id: string;
	mode: string;
	status: string;
	workflowId: string;
	startedAt: string;
	data?: { resultData: { runData: RunData; error?: { message: string } } };
}

export interface WorkflowNode {
	id: string;
	name: string;
	type: string;
	typeVersion: number;
	position: number[];
	parameters: Record<string, unknown>;
	credentials?: Record<string, unknown>;
}

export interface Workflow {
	id: string;
	name: string;
	active: boolean;
	nodes: WorkflowNode[];
	connections: Record<string, unknown>;
	staticData?: Record<string, Record<string, unknown>> | null;
	/** 2.x: the version saved last, and the one published (null while unpublished). */
	versionId?: string;
	activeVersionId?: string | null;
	activeVersion?: { versionId: string; name?: string; nodes: WorkflowNode[] } | null;
}

/** What `PUT /api/v1/workflows/{id}` takes (n8n refuses fields it does not know). */
export interface WorkflowUpdate {
	name: string;
	nodes: WorkflowNode[];
	connections: Record<string, unknown>;
	settings: Record<string, unknown>;
}

/** n8n's public API with an API key. */
export class PublicApi {
	constructor(
		readonly baseUrl: string,
		private readonly apiKey: string,
		/** n8n's major version: 2.x publishes a workflow's current version, 1.x activates it. */
		readonly n8nMajor: number,
	) {}

	private async request<T>(method: string, path: string, body?: unknown): Promise<T> {
		const response = await n8nFetch(`${this.baseUrl}/api/v1${path}`, {
			method,
			headers: {
				'x-n8n-api-key': this.apiKey,
				...(body !== undefined && { 'content-type': 'application/json' }),
			},
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		return (await (await failOnError(response, `${method} /api/v1${path}`)).json()) as T;
	}

	/** The path that takes the workflow live or back: publish/unpublish, activate/deactivate on 1.x. */
	publishPath(workflowId: string, live = true): string {
		const action = this.n8nMajor >= 2 ? ['publish', 'unpublish'] : ['activate', 'deactivate'];
		return `/workflows/${workflowId}/${action[live ? 0 : 1]}`;
	}

	/** Its triggers and webhooks go live (on 2.x: those of its current version, now published). */
	async publish(workflowId: string): Promise<Workflow> {
		return await this.request('POST', this.publishPath(workflowId), this.publishBody());
	}

	async unpublish(workflowId: string): Promise<Workflow> {
		return await this.request('POST', this.publishPath(workflowId, false), this.publishBody());
	}

	/** 2.x takes optional publish settings; 1.x's activate and deactivate take no body. */
	private publishBody(): object | undefined {
		return this.n8nMajor >= 2 ? {} : undefined;
	}

	async workflow(workflowId: string): Promise<Workflow> {
		return await this.request('GET', `/workflows/${workflowId}`);
	}

	/**
	 * Saves a new version of the workflow. A published workflow is published again with it: by
	 * 1.x at once, by 2.41 when it answers with the active version following (see the callers).
	 */
	async update(workflowId: string, workflow: WorkflowUpdate): Promise<Workflow> {
		return await this.request('PUT', `/workflows/${workflowId}`, workflow);
	}

	/**
	 * The workflow's executions, newest first, with their run data. n8n leaves out those still
	 * running unless `status` is 'running'.
	 */
	async executions(workflowId: string, status?: 'running'): Promise<Execution[]> {
		const query = new URLSearchParams({ workflowId, includeData: 'true', limit: '250' });
		if (status) query.set('status', status);
		return (await this.request<{ data: Execution[] }>('GET', `/executions?${query}`)).data;
	}
}
