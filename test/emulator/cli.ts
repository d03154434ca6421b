/* eslint-disable @n8n/community-nodes/no-restricted-globals, no-console -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * Runs a seeded emulator until the process the user started stops (npm or tsx, however: a signal,
 * or ended), or this one is interrupted: `npm run emulator`. GET answers on each address it prints;
 * it prints the IDs to try too, and the commands that give the trigger an entry and reset the
 * emulator (indexes.ts). A port in use ends it with how to choose another.
 * Environment: EMULATOR_PORT (4010), EMULATOR_HOST (127.0.0.1), EMULATOR_API_KEY (DEFAULT_API_KEY),
 * EMULATOR_LATENCY_MS (0); latency that varies (latency.ts): uniform up to EMULATOR_LATENCY_MAX_MS,
 * one answer in EMULATOR_LATENCY_TAIL_ONE_IN (drawn at random) EMULATOR_LATENCY_TAIL_MS instead.
 * A service of finite capacity (capacity.ts), when EMULATOR_WORKERS is set: EMULATOR_WORKERS
 * requests acted on at once, each EMULATOR_SERVICE_MS (required with it); EMULATOR_QUEUE more wait
 * (unset: any number); beyond, 503 with Retry-After: EMULATOR_RETRY_AFTER_SECONDS (unset: none);
 * one request in EMULATOR_SERVICE_TAIL_ONE_IN acted on for EMULATOR_SERVICE_TAIL_MS instead.
 */
import { whenStopRequested } from '../e2e/lib/processes';
import {
	DEFAULT_API_KEY,
	startEmulator,
	type CapacitySpec,
	type Emulator,
	type LatencySpec,
} from './index';
import { controlCommands, idsToTry, workspace } from './indexes';

function wholeNumberFromEnv(name: string, fallback: number): number;
function wholeNumberFromEnv(name: string): number | undefined;
function wholeNumberFromEnv(name: string, fallback?: number): number | undefined {
	const text = process.env[name];
	if (text === undefined || text === '') return fallback;
	if (!/^\d+$/.test(text)) throw new Error(`${name} must be a whole number, got '${text}'`);
	return Number(text);
}

/** `<prefix>_TAIL_MS` and `<prefix>_TAIL_ONE_IN` (the models check that they go together). */
const tailFromEnv = (prefix: string) => ({
	tailMs: wholeNumberFromEnv(`${prefix}_TAIL_MS`),
	tailOneIn: wholeNumberFromEnv(`${prefix}_TAIL_ONE_IN`),
});

/** The latency the environment asks for, fixed unless a range or a tail is set. */
function latencyFromEnv(): LatencySpec {
	return {
		ms: wholeNumberFromEnv('EMULATOR_LATENCY_MS', 0),
		maxMs: wholeNumberFromEnv('EMULATOR_LATENCY_MAX_MS'),
		...tailFromEnv('EMULATOR_LATENCY'),
	};
}

/** The capacity model the environment asks for, if any. */
function capacityFromEnv(): CapacitySpec | undefined {
	const workers = wholeNumberFromEnv('EMULATOR_WORKERS');
	const serviceMs = wholeNumberFromEnv('EMULATOR_SERVICE_MS');
	const queue = wholeNumberFromEnv('EMULATOR_QUEUE');
	const retryAfterSeconds = wholeNumberFromEnv('EMULATOR_RETRY_AFTER_SECONDS');
	const tail = tailFromEnv('EMULATOR_SERVICE');
	if (workers === undefined) {
		if (
			[serviceMs, queue, retryAfterSeconds, tail.tailMs, tail.tailOneIn].some(
				(value) => value !== undefined,
			)
		)
			throw new Error(
				'EMULATOR_SERVICE_MS, _QUEUE, _RETRY_AFTER_SECONDS and _SERVICE_TAIL_* need EMULATOR_WORKERS',
			);
		return undefined;
	}
	if (serviceMs === undefined) throw new Error('EMULATOR_WORKERS needs EMULATOR_SERVICE_MS');
	return { workers, serviceMs, queue, retryAfterSeconds, ...tail };
}

/** Why the emulator did not start: for a port in use, how to choose another. */
function startFailure(error: unknown, { port, host }: { port: number; host: string }): string {
	if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE')
		return (
			`Port ${port} on ${host} is in use (by another emulator still running?). ` +
			`Choose another port: EMULATOR_PORT=${port + 1} npm run emulator`
		);
	return error instanceof Error ? error.message : String(error);
}

async function main() {
	const options = {
		port: wholeNumberFromEnv('EMULATOR_PORT', 4010),
		host: process.env.EMULATOR_HOST || '127.0.0.1',
		apiKey: process.env.EMULATOR_API_KEY || DEFAULT_API_KEY,
		latency: latencyFromEnv(),
		capacity: capacityFromEnv(),
	};
	let emulator: Emulator;
	try {
		emulator = await startEmulator(options);
	} catch (error) {
		console.error(startFailure(error, options));
		process.exitCode = 1;
		return;
	}
	const controlUrl = emulator.baseUrl.replace(/\/v1$/, '/__emulator');
	console.log(`Data Integration Management emulator listening`);
	console.log(`  base URL: ${emulator.baseUrl} (GET lists the IDs to try and the operations)`);
	console.log(`  API key:  ${emulator.apiKey}`);
	console.log(`  latency:  ${JSON.stringify(emulator.latency.current)}`);
	const capacity = emulator.capacity.current;
	if (capacity) console.log(`  capacity: ${JSON.stringify(capacity)}`);
	console.log(
		`  control:  ${controlUrl} (GET lists the test controls: reset, audit entries, faults, …)`,
	);
	console.log(`  IDs to try (GET on the base URL lists them all, with each integration's tables):`);
	for (const line of idsToTry(workspace(emulator.store))) console.log(`    ${line}`);
	console.log(controlCommands(controlUrl).join('\n'));

	whenStopRequested((_reason, why) => {
		console.log(`${why}: shutting down`);
		void emulator.close().finally(() => process.exit(0));
	});
}

main().catch((error) => {
	console.error(error instanceof Error ? error.message : error);
	process.exitCode = 1;
});
