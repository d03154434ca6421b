/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling: runs under Node in this repo only and is never part of the published package */
/** Loopback ports for the services a run starts. */
import { createServer, type AddressInfo } from 'node:net';

/** A TCP port on the loopback interface that nothing listens on right now. */
export async function freePort(): Promise<number> {
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
