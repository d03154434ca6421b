import { startEmulator, type Emulator } from '../emulator';
import type { ApiCredentials } from './n8n';

/**
 * One seeded emulator per test file, reset before each test. `credentials()` is what a user
 * would type into the credential: the emulator's base URL and key.
 */
export function useEmulator(): { emulator: () => Emulator; credentials: () => ApiCredentials } {
	let emulator: Emulator | undefined;
	beforeAll(async () => {
		emulator = await startEmulator();
	});
	beforeEach(() => emulator!.reset());
	afterAll(async () => await emulator?.close());
	return {
		emulator: () => emulator!,
		credentials: () => ({ apiKey: emulator!.apiKey, baseUrl: emulator!.baseUrl }),
	};
}
