/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * Redis for n8n's queue mode: Debian's redis-server, installed when missing, run on loopback on
 * a free port with no persistence, so each run starts with an empty queue.
 */
import { runCommand, startService, waitFor, type Service } from './processes';

async function hasRedis(): Promise<boolean> {
	return (
		(await runCommand('sh', ['-c', 'command -v redis-server'], { allowFailure: true })).code === 0
	);
}

/** `apt-get install -y redis-server` (after an `apt-get update` if the package is unknown). */
export async function ensureRedisInstalled(): Promise<string> {
	if (await hasRedis()) return 'redis-server already installed';
	const sudo = process.getuid?.() === 0 ? [] : ['sudo', '-n'];
	const aptGet = async (...args: string[]) => {
		const [command, ...rest] = [...sudo, 'apt-get', ...args];
		return await runCommand(command, rest, {
			env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
			timeoutMs: 600_000,
			allowFailure: true,
		});
	};
	if ((await aptGet('install', '-y', 'redis-server')).code !== 0) {
		await aptGet('update');
		const { code, stderr } = await aptGet('install', '-y', 'redis-server');
		if (code !== 0)
			throw new Error(`apt-get install -y redis-server failed:\n${stderr.slice(-2000)}`);
	}
	return 'installed redis-server with apt-get';
}

export async function startRedis(port: number, logFile: string): Promise<Service> {
	const service = startService(
		'redis',
		'redis-server',
		['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
		{ logFile },
	);
	await waitFor(
		'Redis to accept connections',
		() => (/Ready to accept connections/.test(service.log()) ? true : undefined),
		{
			timeoutMs: 30_000,
			intervalMs: 200,
			services: [service],
		},
	);
	return service;
}
