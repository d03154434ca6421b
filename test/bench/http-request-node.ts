/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * n8n's own HTTP Request node (V3, registered as n8n-nodes-base.httpRequest version 4.2), run
 * through this repo's n8n-core the same way test/helpers/n8n.ts runs our action node: one node in
 * a workflow executed by `WorkflowExecute`. n8n-nodes-base is not a dependency of this repo; it
 * is loaded from the n8n that test/e2e/install-n8n.sh installs into a cache folder, which the
 * benchmark runs first, as the end-to-end suite does (instant once installed).
 *
 * The key travels as a plain header parameter (Authentication: None, Send Headers), so no
 * credential store is involved.
 */
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

import { installN8n } from '../e2e/lib/n8n';
import { executeNode } from '../helpers/n8n';

export const HTTP_REQUEST_NODE_TYPE = 'n8n-nodes-base.httpRequest';
export const HTTP_REQUEST_NODE_VERSION = 4.2;
/**
 * The HTTP Request node class, from the n8n that test/e2e/install-n8n.sh installs (first
 * installing it, 5 to 7 minutes, where it is missing). That n8n runs on Linux x64 only, the one
 * platform its Node binary package exists for; elsewhere the reason comes back instead.
 */
export async function loadHttpRequestNode(): Promise<
	{ node: INodeType; from: string } | { reason: string }
> {
	if (os.platform() !== 'linux' || os.arch() !== 'x64') {
		return {
			reason: `test/e2e/install-n8n.sh installs n8n on Linux x64 only, not ${os.platform()} ${os.arch()}`,
		};
	}
	const { folder } = await installN8n();
	const requireFromN8n = createRequire(path.join(folder, 'package.json'));
	const file = requireFromN8n.resolve('n8n-nodes-base/dist/nodes/HttpRequest/HttpRequest.node.js');
	const { HttpRequest } = requireFromN8n(file) as { HttpRequest: new () => INodeType };
	return { node: new HttpRequest(), from: file };
}

export interface HttpRequestRun {
	items: INodeExecutionData[];
	error?: ExecutionError;
}

/**
 * Sends one JSON body per input item with n8n's HTTP Request node (default options: every item's
 * request is started at once), POST unless `method` says otherwise. `url` and `bodyParameters`
 * may hold expressions over `$json`.
 */
export async function runHttpRequestNode(options: {
	nodeType: INodeType;
	method?: 'POST' | 'PUT';
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
			method: options.method ?? 'POST',
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
