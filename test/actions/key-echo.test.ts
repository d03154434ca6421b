/**
 * The API key never appears in an error, even when the service's own error message repeats it
 * ("Invalid API key abc…", a common answer), or half of it: it reaches n8n's logs, the execution, and a model as
 * the tool's error text. Run through n8n-core against the emulator's chosen answers.
 */
import { MAX_SERVICE_TEXT } from '../../nodes/DataIntegrationManagement/transport/failures';
import { useEmulator } from '../helpers/emulator';
import { runActionNode } from '../helpers/n8n';

const { emulator, credentials } = useEmulator();

const listUsers = { resource: 'user', operation: 'getAll', returnAll: true };

describe('a service error that repeats the API key', () => {
	it.each([
		['the node', false, false],
		['the node, On Error: Continue', false, true],
		['the tool form, On Error: Continue', true, true],
	])('in %s, shows the message with the key replaced', async (_label, asTool, continueOnFail) => {
		const key = emulator().apiKey;
		emulator().answerWith({
			status: 401,
			body: { code: `BAD_KEY_${key}`, message: `Invalid API key ${key}, or expired` },
		});

		const result = await runActionNode({
			credentials: credentials(),
			parameters: listUsers,
			asTool,
			continueOnFail,
		});

		const shown = JSON.stringify([result.error ?? null, result.items]);
		expect(shown).not.toContain(key);
		expect(shown).toContain('Invalid API key [API key], or expired');
	});

	it('in a message of 3 MB, keeps its first words, the key replaced, and no more', async () => {
		const key = emulator().apiKey;
		const message = `Invalid API key ${key}: ${'%41'.repeat(1_000_000)}`;
		emulator().answerWith({ status: 401, body: { message } });

		const result = await runActionNode({ credentials: credentials(), parameters: listUsers });

		const shown = String(result.error?.message);
		expect(shown).toMatch(/^Invalid API key \[API key\]: (%41)+/);
		expect(shown).toHaveLength(MAX_SERVICE_TEXT + 1);
		expect(shown.endsWith('…')).toBe(true);
		expect(JSON.stringify(result.error)).not.toContain(key);
	});

	it('in the node, shows the message with the half of the key it repeats replaced', async () => {
		const half = emulator().apiKey.slice(0, Math.ceil(emulator().apiKey.length / 2));
		emulator().answerWith({ status: 401, body: { message: `Key ${half}… was revoked` } });

		const result = await runActionNode({ credentials: credentials(), parameters: listUsers });

		expect(String(result.error?.message)).not.toContain(half);
		expect(String(result.error?.message)).toContain('Key [API key]… was revoked');
	});
});
