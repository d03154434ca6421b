/**
 * How often a run reads its credential, which n8n decrypts and resolves on each read: the node's
 * reads are as many for 50 items as for one (n8n's HTTP helper reads it for each request it signs).
 */
import { useEmulator } from '../helpers/emulator';
import { runActionNode } from '../helpers/n8n';

const { emulator, credentials } = useEmulator();

/** The reads of a run of `count` items beyond the helper's one per request. */
async function nodeReads(count: number): Promise<number> {
	const sentBefore = emulator().requests.length;
	const result = await runActionNode({
		credentials: credentials(),
		parameters: { resource: 'user', operation: 'getAll', limit: 1 },
		items: Array.from({ length: count }, () => ({})),
	});
	expect(result.error).toBeUndefined();
	expect(emulator().requests.length - sentBefore).toBe(count);
	return result.credentialReads - count;
}

it("a run reads it twice for the node (its pace's key, the transport's), however many its items", async () => {
	expect([await nodeReads(1), await nodeReads(50)]).toEqual([2, 2]);
});
