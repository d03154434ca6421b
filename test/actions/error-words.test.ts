/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test tooling: prints how many errors the walk checked; runs under Node in this repo only */
/**
 * Every error the nodes can raise, in the words a user reads. Each operation runs through
 * n8n-core against the emulator with bad input in each of its fields, and with each fault and
 * answer of the service that ends in an error; the trigger polls with bad values in each of its
 * fields and against the same faults. Operations, fields and faults are walked, not listed by
 * hand, so a new one is covered. No message or description may name a source file or an HTTP
 * status (it stays in the error's httpCode), nor a redirect's query. Each error thrown declares
 * why it failed (its `failure`, which n8n's scheduler acts on), as the decision's table says for
 * each fault. Each test checks the errors it raised, so the tests run alone and in any order.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { DataIntegrationManagementTrigger } from '../../nodes/DataIntegrationManagement/DataIntegrationManagementTrigger.node';
import { useEmulator } from '../helpers/emulator';
import { pollTrigger, runActionNode } from '../helpers/n8n';
import {
	AUDIT_LOG_VARIANTS,
	BAD_VALUES,
	faultsOf,
	leaves,
	OPERATIONS,
	operationFields,
	operationsOf,
	problemsOf,
	TRIGGER_AUDIT_LOG_VARIANTS,
	useAuditLogVariant,
	withValue,
} from './error-walk';
import { WORKING_PARAMETERS } from './working-parameters';

const { emulator, credentials } = useEmulator();
const FAULTS = faultsOf(emulator);

interface Collected {
	where: string;
	message: string;
	description?: string;
}

let checked = 0;

/** Checks an error's words: no source file, no HTTP status. */
function collect(where: string, error: { message?: unknown; error?: unknown } & IDataObject): void {
	const words: Collected = {
		where,
		message: String(error.message ?? error.error),
		description: typeof error.description === 'string' ? error.description : undefined,
	};
	checked++;
	expect({ ...words, problems: problemsOf(words.message, words.description) }).toEqual({
		...words,
		problems: [],
	});
}

/** The cause the error declares for n8n (`failure.cause`), if any. */
const causeOf = (error: unknown) => (error as { failure?: { cause?: string } }).failure?.cause;

/**
 * Runs the action node with "On Error: Continue" and collects each item's error, or the node's
 * when a setting of the whole node (such as Concurrency) failed before any item ran.
 */
async function runCollecting(where: string, parameters: INodeParameters, items?: IDataObject[]) {
	const result = await runActionNode({
		credentials: credentials(),
		parameters,
		items,
		continueOnFail: true,
	});
	const errors = result.error
		? [{ ...result.error, error: result.error.message } as unknown as IDataObject]
		: result.items.map((item) => item.json).filter((json) => typeof json.error === 'string');
	for (const error of errors) collect(where, error);
	return errors;
}

/** Polls the trigger once and collects its error, if it throws one. */
async function pollCollecting(where: string, parameters: INodeParameters, mode?: 'manual') {
	try {
		await pollTrigger({ credentials: credentials(), parameters, mode });
		return undefined;
	} catch (error) {
		const thrown = error as Error & { description?: string; httpCode?: string };
		collect(where, { message: thrown.message, description: thrown.description });
		return thrown;
	}
}

describe('every error the nodes raise, in words a user reads', () => {
	it('has valid parameters for every operation, and only for those', () => {
		expect(Object.keys(WORKING_PARAMETERS).sort()).toEqual(OPERATIONS.map(({ key }) => key).sort());
	});

	it.each(OPERATIONS)('$key: bad input in each field', async ({ resource, operation, key }) => {
		const properties = operationFields(resource, operation);
		const base = { resource, operation, ...WORKING_PARAMETERS[key] };
		let errors = 0;
		for (const leaf of leaves(properties)) {
			emulator().reset();
			const parameters = withValue(base, leaf, '={{ $json.v }}');
			errors += (
				await runCollecting(
					`${key} ${leaf.path.join('.')}`,
					parameters,
					BAD_VALUES.map((v) => ({ v })),
				)
			).length;
		}
		expect(errors).toBeGreaterThan(0);
	});

	// Under Fixed, as Auto waits out a run of 429s that Fixed reports; without "Continue", to
	// see the error thrown, and the failure it declares.
	it.each(OPERATIONS)(
		'$key: each fault of the service, under Concurrency Mode Fixed',
		async ({ resource, operation, key }) => {
			for (const fault of FAULTS) {
				emulator().reset();
				fault.arm();
				const { error } = await runActionNode({
					credentials: credentials(),
					parameters: {
						resource,
						operation,
						...WORKING_PARAMETERS[key],
						options: { concurrencyMode: 'fixed' },
					},
				});
				// A read fails under every fault; a write the service acknowledged does not.
				const fails = !operationsOf[resource][operation].changesData || fault.failsWrites;
				expect({ fault: fault.name, failed: error !== undefined }).toEqual({
					fault: fault.name,
					failed: fails,
				});
				if (!error) continue;
				collect(`${key} under ${fault.name}`, error as unknown as IDataObject);
				expect({ fault: fault.name, cause: causeOf(error) }).toEqual({
					fault: fault.name,
					cause: fault.cause,
				});
				if (fault.status !== undefined)
					expect((error as { httpCode?: string }).httpCode).toBe(String(fault.status));
				expect(problemsOf(error.message, error.description ?? undefined, fault.status)).toEqual([]);
				// A redirect's Location is shown without its query, which may carry secrets.
				expect(`${error.message} ${error.description}`).not.toContain('token=walk');
				// A read changes nothing, so its error says nothing of changes or effects.
				if (!operationsOf[resource][operation].changesData)
					expect({ fault: fault.name, words: error.description }).not.toEqual({
						fault: fault.name,
						words: expect.stringMatching(/\b(changed?|effects?)\b/i),
					});
			}
		},
	);

	it.each(OPERATIONS)(
		'$key: a refused value declares that someone must change it',
		async ({ resource, operation, key }) => {
			const [leaf] = leaves(operationFields(resource, operation));
			const { error } = await runActionNode({
				credentials: credentials(),
				parameters: withValue({ resource, operation, ...WORKING_PARAMETERS[key] }, leaf, {
					a: 1,
				}),
			});
			expect(error?.name).toBe('NodeOperationError');
			expect(causeOf(error)).toBe('configuration-invalid');
		},
	);

	it.each(Object.entries(AUDIT_LOG_VARIANTS))(
		'Audit Log → Get Many against a service with its %s',
		async (name, variant) => {
			useAuditLogVariant(emulator(), variant);
			const errors = await runCollecting(`auditLog.getAll, ${name}`, {
				resource: 'auditLog',
				operation: 'getAll',
				returnAll: true,
				filters: { timeRange: { since: '2026-09-01T00:00:00Z' } },
			});
			expect(errors).toHaveLength(1);
		},
	);

	it('the trigger: bad values in each field', async () => {
		const { properties } = new DataIntegrationManagementTrigger().description;
		let errors = 0;
		for (const leaf of leaves(properties)) {
			for (const value of BAD_VALUES) {
				emulator().reset();
				const parameters = withValue(
					{ startFrom: 'date', startDate: '2026-09-01T00:00:00Z' },
					leaf,
					value,
				);
				if (
					await pollCollecting(
						`trigger ${leaf.path.join('.')} = ${JSON.stringify(value)}`,
						parameters,
					)
				)
					errors++;
			}
		}
		expect(errors).toBeGreaterThan(0);
	});

	it('the trigger: each fault of the service, and each audit-log service that ends in an error', async () => {
		const parameters = { startFrom: 'date', startDate: '2026-09-01T00:00:00Z', filters: {} };
		for (const fault of FAULTS) {
			emulator().reset();
			fault.arm();
			const error = await pollCollecting(`trigger under ${fault.name}`, parameters);
			expect({ fault: fault.name, failed: error !== undefined, cause: causeOf(error) }).toEqual({
				fault: fault.name,
				failed: true,
				cause: fault.cause,
			});
			if (fault.status !== undefined) expect(error?.httpCode).toBe(String(fault.status));
			expect(`${error?.message} ${error?.description}`).not.toContain('token=walk');
		}
		for (const [name, [variant, cause]] of Object.entries(TRIGGER_AUDIT_LOG_VARIANTS)) {
			useAuditLogVariant(emulator(), variant);
			const error = await pollCollecting(`trigger, ${name}`, parameters);
			expect({ name, cause: causeOf(error) }).toEqual({ name, cause });
		}
	});

	it('the trigger\'s "Fetch Test Event": an empty log, and no entry matching', async () => {
		emulator().reset({ seed: false });
		expect(
			await pollCollecting('trigger, manual, empty log', { startFrom: 'now' }, 'manual'),
		).toBeDefined();
		emulator().reset();
		const noMatch = { startFrom: 'now', filters: { events: { texts: ['nothing logs this'] } } };
		expect(await pollCollecting('trigger, manual, no match', noMatch, 'manual')).toBeDefined();
	});

	afterAll(() => {
		process.stdout.write(`error words: ${checked} errors checked\n`);
	});
});
