/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test tooling: runs under Node in this repo only and is never part of the published package */
/** Loopback ports for the services a run starts. */
import { createServer, type AddressInfo } from 'node:net';

/** Ports this process handed out already (a service may start listening on one seconds later). */
const handedOut = new Set<number>();

/**
 * A TCP port on the loopback interface that nothing listens on right now. With E2E_PORTS (e.g.
 * `20000-24999`, which `npm run test:e2e:all` gives each run side by side), one from that range
 * and never the same twice: two runs cannot pick the same port before either listens on it.
 */
export async function freePort(): Promise<number> {
	const range = /^(\d+)-(\d+)$/.exec(process.env.E2E_PORTS ?? '');
	if (!range) return await listenOnAnyPort();
	const [first, last] = [Number(range[1]), Number(range[2])];
	for (let tries = 0; tries < 1000; tries++) {
		const port = first + Math.floor(Math.random() * (last - first + 1));
		if (handedOut.has(port) || (await isPortInUse(port))) continue;
		handedOut.add(port);
		return port;
	}
	throw new Error(`no free port left in E2E_PORTS=${process.env.E2E_PORTS}`);
}

/** The port the system gives a listener on port 0. */
async function listenOnAnyPort(): Promise<number> {
	const server = createServer();
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, '127.0.0.1', resolve);
	});
	const { port } = server.address() as AddressInfo;
	await new Promise((resolve) => server.close(resolve));
	return port;
}

/** Whether something accepts connections on 127.0.0.1:port. */
export async function isPortInUse(port: number): Promise<boolean> {
	const server = createServer();
	return await new Promise((resolve) => {
		server.once('error', () => resolve(true));
		server.listen(port, '127.0.0.1', () => server.close(() => resolve(false)));
	});
}
