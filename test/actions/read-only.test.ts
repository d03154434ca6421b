import { operationsByResource } from '../../nodes/DataIntegrationManagement/actions/router';
import { useEmulator } from '../helpers/emulator';
import { callNodeMethod, runActionNode } from '../helpers/n8n';
import { problemsOf } from './error-walk';
import { sent } from './support';
import { WORKING_PARAMETERS, workingParametersOf } from './working-parameters';

const { emulator, credentials } = useEmulator();
const readOnly = () => ({ ...credentials(), allowChanges: false });

const operations = Object.entries(operationsByResource).flatMap(([resource, byKey]) =>
	Object.entries(byKey).map(([operation, { changesData }]) => ({
		resource,
		operation,
		changesData,
	})),
);
const writes = operations.filter(({ changesData }) => changesData);
const reads = operations.filter(({ changesData }) => !changesData);
const parametersOf = ({ resource, operation }: { resource: string; operation: string }) =>
	workingParametersOf(resource, operation);

describe('a read-only credential (Allow Changes off)', () => {
	it('has a call for every operation, and declares exactly the seven that create, update or delete', () => {
		expect(operations.map(({ resource, operation }) => `${resource}.${operation}`).sort()).toEqual(
			Object.keys(WORKING_PARAMETERS).sort(),
		);
		expect(writes.map(({ resource, operation }) => `${resource}.${operation}`).sort()).toEqual([
			'asset.create',
			'asset.update',
			'connector.create',
			'integration.updateSchemas',
			'tag.create',
			'tag.deleteRelation',
			'tag.update',
		]);
	});

	it.each(writes)('refuses $resource $operation before any request', async (call) => {
		const result = await runActionNode({
			credentials: readOnly(),
			parameters: parametersOf(call),
			items: [{}, {}],
		});

		expect(sent(emulator())).toEqual([]);
		expect(result.error?.message).toBe(
			"This operation changes data, and the credential's Allow Changes is off: nothing was sent (item 0)",
		);
		expect(result.error?.description).toMatch(/Turn on Allow Changes in the credential/);
		expect(problemsOf(result.error!.message, result.error?.description ?? undefined)).toEqual([]);
		expect(JSON.stringify(result.error)).not.toContain(emulator().apiKey);
	});

	it.each([false, 'false', 'no', null])(
		'refuses a change when Allow Changes holds %p (e.g. from an expression)',
		async (allowChanges) => {
			const result = await runActionNode({
				credentials: { ...credentials(), allowChanges: allowChanges as boolean },
				parameters: parametersOf(writes[0]),
			});

			expect(sent(emulator())).toEqual([]);
			expect(result.error?.message).toMatch(/Allow Changes is off/);
		},
	);

	it.each(writes)('runs $resource $operation while Allow Changes is on or unset', async (call) => {
		for (const allowChanges of [true, undefined]) {
			emulator().reset();
			const result = await runActionNode({
				credentials: { ...credentials(), allowChanges },
				parameters: parametersOf(call),
			});
			expect(result.error).toBeUndefined();
			expect(sent(emulator()).length).toBeGreaterThan(0);
		}
	});

	it.each(reads)('runs $resource $operation as before', async (call) => {
		const result = await runActionNode({ credentials: readOnly(), parameters: parametersOf(call) });

		expect(result.error).toBeUndefined();
		expect(result.items.length).toBeGreaterThan(0);
		expect(sent(emulator()).every(({ method }) => method === 'GET')).toBe(true);
		expect(sent(emulator()).length).toBeGreaterThan(0);
	});

	it('under On Error: Continue, gives each item its refusal, paired to it', async () => {
		const result = await runActionNode({
			credentials: readOnly(),
			parameters: parametersOf(writes[0]),
			items: [{}, {}],
			continueOnFail: true,
		});

		expect(sent(emulator())).toEqual([]);
		expect(result.items.map(({ json, pairedItem }) => ({ error: json.error, pairedItem }))).toEqual(
			[
				{
					error: expect.stringMatching(/Allow Changes is off.*\(item 0\)$/),
					pairedItem: { item: 0 },
				},
				{
					error: expect.stringMatching(/Allow Changes is off.*\(item 1\)$/),
					pairedItem: { item: 1 },
				},
			],
		);
	});

	it.each(writes)(
		'in the tool form, $resource $operation tells the model not to retry and to ask the user; nothing is sent',
		async (call) => {
			const result = await runActionNode({
				credentials: readOnly(),
				parameters: parametersOf(call),
				asTool: true,
			});

			expect(sent(emulator())).toEqual([]);
			expect(result.error).toMatchObject({
				name: 'NodeOperationError',
				message:
					'This tool cannot change data: its credential has Allow Changes off, so nothing was sent. Do not retry this or any other change with it; tell the user, who can turn on Allow Changes in the credential.',
				description: 'Reading still works with this credential. Only the user can allow changes.',
				failure: { cause: 'configuration-invalid' },
			});
			// No item number: the model gave no items, it called the tool.
			expect(result.error?.message).not.toMatch(/\bitem\b/);
			expect(problemsOf(result.error!.message, result.error?.description ?? undefined)).toEqual([]);
		},
	);

	it('in the tool form, a read on the same credential still works', async () => {
		const result = await runActionNode({
			credentials: readOnly(),
			parameters: parametersOf(reads[0]),
			asTool: true,
		});

		expect(result.error).toBeUndefined();
		expect(sent(emulator()).length).toBeGreaterThan(0);
	});

	it('still fills the pickers', async () => {
		const users = await callNodeMethod<{ results: unknown[] }>({
			credentials: readOnly(),
			method: 'searchUsers',
			parameters: { resource: 'tag', operation: 'create' },
		});

		expect(users.results.length).toBeGreaterThan(0);
	});
});
