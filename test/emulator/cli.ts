/* eslint-disable @n8n/community-nodes/no-restricted-globals, no-console -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * Runs a seeded emulator until interrupted: `npm run emulator`.
 * Environment: EMULATOR_PORT (4010), EMULATOR_HOST (127.0.0.1), EMULATOR_API_KEY (DEFAULT_API_KEY),
 * EMULATOR_LATENCY_MS (0).
 */
import { DEFAULT_API_KEY, startEmulator } from './index';

function wholeNumberFromEnv(name: string, fallback: number): number {
	const text = process.env[name];
	if (text === undefined || text === '') return fallback;
	if (!/^\d+$/.test(text)) throw new Error(`${name} must be a whole number, got '${text}'`);
	return Number(text);
}

async function main() {
	const emulator = await startEmulator({
		port: wholeNumberFromEnv('EMULATOR_PORT', 4010),
		host: process.env.EMULATOR_HOST || '127.0.0.1',
		apiKey: process.env.EMULATOR_API_KEY || DEFAULT_API_KEY,
		latencyMs: wholeNumberFromEnv('EMULATOR_LATENCY_MS', 0),
	});
	const controlUrl = emulator.baseUrl.replace(/\/v1$/, '/__emulator');
	console.log(`Data Integration Management emulator listening`);
	console.log(`  base URL: ${emulator.baseUrl}`);
	console.log(`  API key:  ${emulator.apiKey}`);
	console.log(
		`  control:  ${controlUrl} (reset, audit-logs, requests, faults, answers, latency, rate-limit, traffic)`,
	);

	const shutDown = async (signal: string) => {
		console.log(`${signal} received, shutting down`);
		await emulator.close();
	};
	process.once('SIGINT', (signal) => void shutDown(signal));
	process.once('SIGTERM', (signal) => void shutDown(signal));
}

main().catch((error) => {
	console.error(error instanceof Error ? error.message : error);
	process.exitCode = 1;
});
