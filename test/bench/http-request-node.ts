/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * n8n's own HTTP Request node (V3, registered as n8n-nodes-base.httpRequest version 4.2), run
 * through this repo's n8n-core the same way test/helpers/n8n.ts runs our action node: one node in
 * a workflow executed by `WorkflowExecute`. n8n-nodes-base is not a dependency of this repo; it
 * is loaded from the n8n that test/e2e/install-n8n.sh installs into a cache folder.
 *
 * The key travels as a plain header parameter (Authentication: None, Send Headers), so no
 * credential store is involved.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import {
	NodeHelpers,
	type ExecutionError,
	type IDataObject,
	type INode,
	type INodeExecutionData,
	type INodeType,
	type INodeTypes,
	type WorkflowExecuteMode,
} from 'n8n-workflow';

import { executeNode } from '../helpers/n8n';

export const HTTP_REQUEST_NODE_TYPE = 'n8n-nodes-base.httpRequest';
export const HTTP_REQUEST_NODE_VERSION = 4.2;
const N8N_VERSION = process.env.N8N_VERSION || '2.40.7';

/** The folder test/e2e/install-n8n.sh installs into (same rules as the script). */
export function n8nCacheDir(): string {
	const cacheHome = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
	return (
		process.env.N8N_CACHE_DIR ||
		path.join(cacheHome, 'n8n-nodes-data-integration-management', `n8n-${N8N_VERSION}`)
	);
}

/** The HTTP Request node class, or the reason it cannot be loaded. */
export function loadHttpRequestNode(): { node: INodeType; from: string } | { reason: string } {
	const dir = n8nCacheDir();
	if (!existsSync(path.join(dir, '.installed'))) {
		return { reason: `n8n ${N8N_VERSION} is not installed in ${dir}; run test/e2e/install-n8n.sh` };
	}
	try {
		const requireFromN8n = createRequire(path.join(dir, 'package.json'));
		const file = requireFromN8n.resolve(
			'n8n-nodes-base/dist/nodes/HttpRequest/HttpRequest.node.js',
		);
		const { HttpRequest } = requireFromN8n(file) as { HttpRequest: new () => INodeType };
		return { node: new HttpRequest(), from: file };
	} catch (error) {
		return {
			reason: `loading n8n-nodes-base's HTTP Request node failed: ${(error as Error).message}`,
		};
	}
}

export interface HttpRequestRun {
	items: INodeExecutionData[];
	error?: ExecutionError;
}

/**
 * POSTs one JSON body per input item with n8n's HTTP Request node (default options: every
 * item's request is started at once). `bodyParameters` may hold expressions over `$json`.
 */
export async function runHttpRequestNode(options: {
	nodeType: INodeType;
	url: string;
	headers: Record<string, string>;
	bodyParameters: Array<{ name: string; value: string }>;
	items: IDataObject[];
	mode?: WorkflowExecuteMode;
	/** Node settings such as Retry On Fail: `retryOnFail`, `maxTries`, `waitBetweenTries`. */
	settings?: Pick<INode, 'retryOnFail' | 'maxTries' | 'waitBetweenTries'>;
}): Promise<HttpRequestRun> {
	const mode = options.mode ?? 'trigger';
	const nodeTypes: INodeTypes = {
		getByName: () => options.nodeType,
		getByNameAndVersion: (_type, version) =>
			NodeHelpers.getVersionedNodeType(options.nodeType, version),
		getKnownTypes: () => ({}),
	};
	const node: INode = {
		id: 'http-request-node',
		name: 'HTTP Request',
		type: HTTP_REQUEST_NODE_TYPE,
		typeVersion: HTTP_REQUEST_NODE_VERSION,
		position: [0, 0],
		parameters: {
			method: 'POST',
			url: options.url,
			authentication: 'none',
			sendHeaders: true,
			headerParameters: {
				parameters: Object.entries(options.headers).map(([name, value]) => ({ name, value })),
			},
			sendBody: true,
			contentType: 'json',
			specifyBody: 'keypair',
			bodyParameters: { parameters: options.bodyParameters },
			options: {},
		},
		...options.settings,
	};
	const { items, error } = await executeNode({ node, nodeTypes, items: options.items, mode });
	return { items, error };
}
