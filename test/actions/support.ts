/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * Shared tooling of the action-node tests:
 * - `sent`: what the emulator received, without headers, for exact assertions;
 * - `rl`: a resource-locator value as n8n stores it;
 * - `loadOptionsAt`: a `loadOptions` method called through n8n-core's LoadOptionsContext with
 *   the parameter path n8n's editor sends, so `&sibling` parameters resolve (the harness's
 *   `callNodeMethod` always uses `parameters.<method>`, which has no siblings);
 * - `startCountingProxy`: a pass-through HTTP proxy in front of the emulator that counts the
 *   requests in flight and can hold chosen requests back, to measure concurrency.
 */
import { once } from 'node:events';
import { createServer, request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { LoadOptionsContext } from 'n8n-core';
import {
	ICredentialsHelper,
	isExpression,
	NodeHelpers,
	Workflow,
	type ICredentialDataDecryptedObject,
	type IHttpRequestOptions,
	type INode,
	type INodeParameterResourceLocator,
	type INodeParameters,
	type INodePropertyOptions,
	type INodeType,
	type IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';

import { DataIntegrationManagementApi } from '../../credentials/DataIntegrationManagementApi.credentials';
import { DataIntegrationManagement } from '../../nodes/DataIntegrationManagement/DataIntegrationManagement.node';
import type { Emulator, RecordedRequest } from '../emulator';
import { ACTION_NODE_TYPE, type ApiCredentials } from '../helpers/n8n';

export type SentRequest = Pick<RecordedRequest, 'method' | 'path' | 'query' | 'body'>;

/** The requests the emulator received, in arrival order, without their headers. */
export function sent(emulator: Emulator): SentRequest[] {
	return emulator.requests.map(({ method, path, query, body }) => ({ method, path, query, body }));
}

/** A resource-locator parameter value, as n8n stores one. */
export function rl(mode: string, value: string): INodeParameterResourceLocator {
	return { __rl: true, mode, value };
}

// ----- loadOptions with a parameter path -----

const node: INodeType = new DataIntegrationManagement();
const credentialType = new DataIntegrationManagementApi();

/** n8n's credential store reduced to one credential, as in test/helpers/n8n.ts. */
class OneCredential extends ICredentialsHelper {
	constructor(private readonly credentials: ApiCredentials) {
		super();
	}
	getParentTypes() {
		return [];
	}
	isCredentialUsableByNode() {
		return true;
	}
	async getDecrypted() {
		return { ...this.credentials } as unknown as ICredentialDataDecryptedObject;
	}
	async getCredentials(): Promise<never> {
		throw new Error('not used by these nodes');
	}
	async updateCredentials() {}
	async updateCredentialsOauthTokenData() {}
	getCredentialsProperties() {
		return credentialType.properties;
	}
	async preAuthentication() {
		return undefined;
	}
	async runPreAuthentication() {
		return undefined;
	}
	/** Applies the credential's declarative `authenticate` block, resolving its expressions. */
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		_typeName: string,
		requestOptions: IHttpRequestOptions,
		workflow: Workflow,
		target: INode,
	): Promise<IHttpRequestOptions> {
		const authenticate = credentialType.authenticate;
		const resolve = (value: string) =>
			isExpression(value)
				? String(
						workflow.expression.getSimpleParameterValue(target, value, 'internal', { $credentials: credentials }, undefined, '') ??
							'',
					)
				: value;
		const options = requestOptions as unknown as Record<string, Record<string, string>>;
		for (const [section, entries] of Object.entries(authenticate.properties)) {
			options[section] = options[section] ?? {};
			for (const [key, value] of Object.entries(entries as Record<string, string>)) {
				options[section][resolve(key)] = resolve(value);
			}
		}
		return requestOptions;
	}
}

/**
 * Calls a `loadOptions` method through n8n-core's LoadOptionsContext for the parameter at `path`
 * (e.g. `parameters.changes.change[0].table`), as n8n's editor asks for it.
 */
export async function loadOptionsAt(options: {
	credentials: ApiCredentials;
	method: string;
	parameters: INodeParameters;
	path: string;
}): Promise<INodePropertyOptions[]> {
	const nodeTypes = {
		getByName: () => node,
		getByNameAndVersion: (_type: string, version?: number) => NodeHelpers.getVersionedNodeType(node, version),
		getKnownTypes: () => ({}),
	};
	const workflowNode: INode = {
		id: 'load-options-node',
		name: 'Data Integration Management',
		type: ACTION_NODE_TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters: options.parameters,
		credentials: { dataIntegrationManagementApi: { id: 'cred-1', name: 'Emulator' } },
	};
	const workflow = new Workflow({ nodes: [workflowNode], connections: {}, active: false, nodeTypes });
	const additionalData = {
		credentialsHelper: new OneCredential(options.credentials),
		currentNodeParameters: options.parameters,
		restApiUrl: 'http://127.0.0.1/rest',
		instanceBaseUrl: 'http://127.0.0.1/',
		webhookBaseUrl: 'http://127.0.0.1/webhook',
		webhookWaitingBaseUrl: 'http://127.0.0.1/webhook-waiting',
		webhookTestBaseUrl: 'http://127.0.0.1/webhook-test',
		formWaitingBaseUrl: 'http://127.0.0.1/form-waiting',
		variables: {},
	} as unknown as IWorkflowExecuteAdditionalData;
	const context = new LoadOptionsContext(workflow, workflowNode, additionalData, options.path);
	const method = node.methods?.loadOptions?.[options.method];
	if (!method) throw new Error(`No loadOptions method named ${options.method}`);
	return await method.call(context);
}

// ----- A proxy that counts requests in flight -----

export interface CountingProxy {
	/** Base URL to put in the credential instead of the emulator's. */
	baseUrl: string;
	/** The most requests that were in flight at once since the last `resetCount`. */
	maxInFlight: number;
	/** Paths in the order their answers were sent back. */
	completed: string[];
	resetCount(): void;
	close(): Promise<void>;
}

/**
 * Forwards every request to the emulator unchanged. `holdMs` may hold a request back before it
 * is forwarded (while it counts as in flight), so tests can make some items slower than others.
 */
export async function startCountingProxy(
	emulator: Emulator,
	holdMs: (request: { method: string; path: string; body: unknown }) => number = () => 0,
): Promise<CountingProxy> {
	const target = new URL(emulator.baseUrl);
	let inFlight = 0;
	const proxy: CountingProxy = {
		baseUrl: '',
		maxInFlight: 0,
		completed: [],
		resetCount() {
			proxy.maxInFlight = 0;
			proxy.completed.length = 0;
		},
		close: async () => {
			server.closeAllConnections();
			server.close();
			await once(server, 'close');
		},
	};
	const readBody = async (incoming: IncomingMessage) => {
		const chunks: Buffer[] = [];
		for await (const chunk of incoming) chunks.push(chunk as Buffer);
		return Buffer.concat(chunks);
	};
	const server = createServer(async (incoming, outgoing) => {
		inFlight++;
		proxy.maxInFlight = Math.max(proxy.maxInFlight, inFlight);
		const body = await readBody(incoming);
		const path = (incoming.url ?? '').replace(/^\/v1/, '').split('?')[0];
		let parsed: unknown;
		try {
			parsed = body.length ? JSON.parse(body.toString('utf8')) : undefined;
		} catch {
			parsed = undefined;
		}
		const hold = holdMs({ method: incoming.method ?? 'GET', path, body: parsed });
		if (hold > 0) await delay(hold);
		const forwarded = httpRequest(
			{
				host: target.hostname,
				port: target.port,
				method: incoming.method,
				path: incoming.url,
				headers: { ...incoming.headers, host: target.host },
			},
			(answer) => {
				outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
				answer.pipe(outgoing);
				answer.on('end', () => {
					inFlight--;
					proxy.completed.push(path);
				});
			},
		);
		forwarded.on('error', () => {
			inFlight--;
			outgoing.destroy();
		});
		forwarded.end(body);
	});
	server.listen(0, '127.0.0.1');
	await once(server, 'listening');
	proxy.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
	return proxy;
}
