import { processPaces } from '../../nodes/DataIntegrationManagement/pacing/shared-pace';
import { startEmulator, type Emulator, type RecordedRequest } from '../emulator';
import type { ApiCredentials } from './n8n';

/**
 * One seeded emulator per test file, reset before each test. `credentials()` is what a user
 * would type into the credential: the emulator's base URL and key.
 *
 * Before each test the process's paces are forgotten too: every request of the nodes (the
 * trigger's, Fixed's, Auto's) goes through the pace of its base URL and key, which keeps what
 * earlier requests taught it (a window lowered by a 429, a round trip measured while a test moved
 * Date.now on), so a test would otherwise start from what the tests before it left.
 */
export function useEmulator(): { emulator: () => Emulator; credentials: () => ApiCredentials } {
	let emulator: Emulator | undefined;
	beforeAll(async () => {
		emulator = await startEmulator();
	});
	beforeEach(() => {
		emulator!.reset();
		processPaces.clear();
	});
	afterAll(async () => await emulator?.close());
	return {
		emulator: () => emulator!,
		credentials: () => ({ apiKey: emulator!.apiKey, baseUrl: emulator!.baseUrl }),
	};
}

/**
 * Calls `listener` with each request as it arrives, before it is answered (the emulator appends
 * it to its request log then); returns what unhooks it.
 */
export function onRequestArrival(
	emulator: Emulator,
	listener: (request: RecordedRequest, arrived: number) => void,
): () => void {
	const requests = emulator.requests;
	const push = requests.push;
	const hadOwnPush = Object.hasOwn(requests, 'push');
	requests.push = (...items: RecordedRequest[]) => {
		const length = push.apply(requests, items);
		for (const item of items) listener(item, requests.length);
		return length;
	};
	// Unhooked, the log is a plain array again (an own `push` would show in deep comparisons).
	return () => {
		if (hadOwnPush) requests.push = push;
		else delete (requests as { push?: unknown }).push;
	};
}
