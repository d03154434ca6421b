/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * Shared tooling of the action-node tests:
 * - `sent`: what the emulator received, without headers, for exact assertions;
 * - `rl`: a resource-locator value as n8n stores it;
 * - `startCountingProxy`: a pass-through HTTP proxy in front of the emulator that counts the
 *   requests in flight and can hold chosen requests back, to measure concurrency;
 * - `namedAssets`, `createAssetsVia`: Asset → Create of named items through that proxy.
 */
import { once } from 'node:events';
import { createServer, request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import type { IDataObject, INodeParameterResourceLocator, INodeParameters } from 'n8n-workflow';

import type { SchemasConfig } from '../../nodes/DataIntegrationManagement/client/types';
import type { Emulator, RecordedRequest } from '../emulator';
import { runActionNode, type ApiCredentials } from '../helpers/n8n';

export type SentRequest = Pick<RecordedRequest, 'method' | 'path' | 'query' | 'body'>;

/** The requests the emulator received, in arrival order, without their headers. */
export function sent(emulator: Emulator): SentRequest[] {
	return emulator.requests.map(({ method, path, query, body }) => ({ method, path, query, body }));
}

/** A resource-locator parameter value, as n8n stores one. */
export function rl(mode: string, value: string): INodeParameterResourceLocator {
	return { __rl: true, mode, value };
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

async function readBody(incoming: IncomingMessage): Promise<Buffer> {
	const chunks: Buffer[] = [];
	for await (const chunk of incoming) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks);
}

/** The body as JSON, or undefined when it is empty or not JSON. */
function parsedOrUndefined(body: Buffer): unknown {
	try {
		return body.length ? JSON.parse(body.toString('utf8')) : undefined;
	} catch {
		return undefined;
	}
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
	const server = createServer(async (incoming, outgoing) => {
		inFlight++;
		proxy.maxInFlight = Math.max(proxy.maxInFlight, inFlight);
		const body = await readBody(incoming);
		const path = (incoming.url ?? '').replace(/^\/v1/, '').split('?')[0];
		const hold = holdMs({ method: incoming.method ?? 'GET', path, body: parsedOrUndefined(body) });
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

/** `count` items named asset-0, asset-1, ... */
export const namedAssets = (count: number) =>
	Array.from({ length: count }, (_, i) => ({ name: `asset-${i}` }));

/** Asset → Create of `items` (named by `$json.name`) through `proxy`, with these Options. */
export const createAssetsVia = (
	proxy: CountingProxy,
	credentials: ApiCredentials,
	items: IDataObject[],
	options?: INodeParameters,
	continueOnFail = false,
) =>
	runActionNode({
		credentials: { ...credentials, baseUrl: proxy.baseUrl },
		continueOnFail,
		parameters: {
			resource: 'asset',
			operation: 'create',
			name: '={{ $json.name }}',
			type: 'file',
			...(options ? { options } : {}),
		},
		items,
	});

/** A source schema of `schemas` × `tables` × `columns`, named s0…, t0…, c0…. */
export function largeSchemas(schemas: number, tables: number, columns: number): SchemasConfig {
	const names = (prefix: string, count: number) =>
		Array.from({ length: count }, (_, n) => `${prefix}${n}`);
	const column = { nameInDestination: 'c', enabled: true, hashed: false, isPrimaryKey: false };
	const table = {
		nameInDestination: 't',
		enabled: true,
		syncMode: 'full_refresh',
		columns: Object.fromEntries(
			names('c', columns).map((name) => [name, { ...column, nameInDestination: name }]),
		),
	};
	return Object.fromEntries(
		names('s', schemas).map((schema) => [
			schema,
			{
				nameInDestination: schema,
				enabled: true,
				tables: Object.fromEntries(
					names('t', tables).map((name) => [name, { ...table, nameInDestination: name }]),
				),
			},
		]),
	) as SchemasConfig;
}
