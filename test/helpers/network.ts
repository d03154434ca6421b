/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * What a company network puts between n8n and the service, for the tests and the e2e run:
 * - `makeCertificate`: a self-signed certificate for 127.0.0.1 and localhost, made by `openssl`;
 * - `startHttpsFront`: the service over HTTPS with that certificate (a TLS front forwarding
 *   every request to the emulator's plain HTTP address, as a company's reverse proxy does);
 * - `startForwardProxy`: a forward proxy as HTTP_PROXY / HTTPS_PROXY name one: plain requests in
 *   absolute form are forwarded, CONNECT opens a tunnel; it records what it saw of each;
 * - `startRecorder`: another origin, where a redirect points: it records every request it gets.
 */
import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import {
	createServer,
	request as httpRequest,
	type IncomingHttpHeaders,
	type IncomingMessage,
	type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { connect, type AddressInfo, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Certificate {
	key: string;
	cert: string;
}

/** A self-signed certificate (its own authority) valid for 127.0.0.1 and localhost for a day. */
export function makeCertificate(): Certificate {
	const dir = mkdtempSync(join(tmpdir(), 'dim-certificate-'));
	try {
		execFileSync(
			'openssl',
			[
				'req',
				'-x509',
				'-newkey',
				'rsa:2048',
				'-nodes',
				'-days',
				'1',
				'-subj',
				'/CN=Data Integration Management test',
				'-addext',
				'subjectAltName=IP:127.0.0.1,DNS:localhost',
				'-keyout',
				join(dir, 'key.pem'),
				'-out',
				join(dir, 'cert.pem'),
			],
			{ stdio: 'pipe' },
		);
		return {
			key: readFileSync(join(dir, 'key.pem'), 'utf8'),
			cert: readFileSync(join(dir, 'cert.pem'), 'utf8'),
		};
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

export interface RunningServer {
	/** The server's origin, e.g. https://127.0.0.1:43121. */
	origin: string;
	close(): Promise<void>;
}

/** Listens on loopback; closing ends every connection, tunnels and keep-alive ones included. */
async function listen(server: Server, scheme: string): Promise<RunningServer> {
	const sockets = new Set<Socket>();
	server.on('connection', (socket: Socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});
	server.listen(0, '127.0.0.1');
	await once(server, 'listening');
	return {
		origin: `${scheme}://127.0.0.1:${(server.address() as AddressInfo).port}`,
		close: async () => {
			for (const socket of sockets) socket.destroy();
			server.close();
			await once(server, 'close');
		},
	};
}

export interface HttpsFront extends RunningServer {
	/** "METHOD /path?query" of every request that came through, in arrival order. */
	requests: string[];
}

/** Serves `target` (an http:// origin) over HTTPS with `certificate`. */
export async function startHttpsFront(
	target: string,
	certificate: Certificate,
): Promise<HttpsFront> {
	const { hostname, port } = new URL(target);
	const requests: string[] = [];
	const server = createHttpsServer(certificate, (incoming, outgoing) => {
		requests.push(`${incoming.method} ${incoming.url}`);
		forward(incoming, outgoing, { host: hostname, port, path: incoming.url });
	});
	return { ...(await listen(server, 'https')), requests };
}

/** Sends `incoming` on to `target` over plain HTTP and its answer back, headers as they came. */
function forward(
	incoming: IncomingMessage,
	outgoing: ServerResponse,
	target: { host: string; port: string | number; path?: string },
): void {
	const forwarded = httpRequest(
		{ ...target, method: incoming.method, headers: incoming.headers },
		(answer) => {
			outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
			answer.pipe(outgoing);
		},
	);
	forwarded.on('error', () => outgoing.destroy());
	incoming.pipe(forwarded);
}

/** What the forward proxy saw of one request: a tunnel's target, or a plain request whole. */
export type ProxiedRequest =
	| { kind: 'CONNECT'; target: string; headers: IncomingHttpHeaders }
	| { kind: 'plain'; method: string; url: string; headers: IncomingHttpHeaders };

export interface ForwardProxy extends RunningServer {
	seen: ProxiedRequest[];
}

/** A forward proxy: absolute-form requests forwarded as they come, CONNECT tunnelled. */
export async function startForwardProxy(): Promise<ForwardProxy> {
	const seen: ProxiedRequest[] = [];
	const server = createServer((incoming, outgoing) => {
		const url = new URL(incoming.url ?? '');
		seen.push({
			kind: 'plain',
			method: incoming.method ?? '',
			url: url.href,
			headers: incoming.headers,
		});
		forward(incoming, outgoing, {
			host: url.hostname,
			port: url.port,
			path: `${url.pathname}${url.search}`,
		});
	});
	server.on('connect', (incoming, client, head) => {
		const target = incoming.url ?? '';
		seen.push({ kind: 'CONNECT', target, headers: incoming.headers });
		const [host, port] = [
			target.slice(0, target.lastIndexOf(':')),
			target.slice(target.lastIndexOf(':') + 1),
		];
		const upstream = connect(Number(port), host.replace(/^\[|\]$/g, ''), () => {
			client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
			upstream.write(head);
			upstream.pipe(client);
			client.pipe(upstream);
		});
		upstream.on('error', () => client.destroy());
		client.on('close', () => upstream.destroy());
		client.on('error', () => upstream.destroy());
	});
	return { ...(await listen(server, 'http')), seen };
}

/** What reached the recorder: the request line, its headers and its body. */
export interface RecordedArrival {
	method: string;
	url: string;
	headers: IncomingHttpHeaders;
	body: string;
}

export interface Recorder extends RunningServer {
	arrivals: RecordedArrival[];
}

/** What the recorder answers every request with. */
export interface RecorderAnswer {
	status: number;
	contentType: string;
	body: string;
}

/** An envelope every endpoint's answer check takes, so a request followed there passes for success. */
const API_SUCCESS: RecorderAnswer = {
	status: 200,
	contentType: 'application/json',
	body: JSON.stringify({ code: 'SUCCESS', data: { id: 'elsewhere', items: [] } }),
};

/**
 * Another origin, as a redirect names one: it records every request and answers `answer`, by
 * default as the API would (a web server's own 404 page is another answer a test gives it).
 */
export async function startRecorder(answer = API_SUCCESS): Promise<Recorder> {
	const arrivals: RecordedArrival[] = [];
	const server = createServer((incoming, outgoing) => {
		const chunks: Buffer[] = [];
		incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
		incoming.on('end', () => {
			const { method = '', url = '', headers } = incoming;
			arrivals.push({ method, url, headers, body: Buffer.concat(chunks).toString('utf8') });
			outgoing.writeHead(answer.status, { 'content-type': answer.contentType });
			outgoing.end(answer.body);
		});
	});
	return { ...(await listen(server, 'http')), arrivals };
}
