/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test tooling: reads the seed from the environment and prints it; runs under Node in this repo only */
/**
 * The property suite's harness. Each property runs many generated cases per n8n execution: one
 * input item per case, the node's parameters reading the item through expressions, "On Error:
 * Continue" so that every case gets its own output item. After every execution the checks that
 * hold for any input run: prototypes unchanged, the API key nowhere in the output, and a refusal
 * (a case that sent no request) an error naming its field.
 *
 * Seeded: FC_SEED=<n> replays a run; the seed and the number of cases are printed at the end.
 */
import fc from 'fast-check';
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import type { ChosenAnswer, Emulator, RecordedRequest } from '../emulator';
import { runActionNode, type ApiCredentials, type RunActionResult } from '../helpers/n8n';

const RUN_SEED = process.env.FC_SEED ? Number(process.env.FC_SEED) : Date.now() % 2 ** 31;

let totalCases = 0;

/**
 * fast-check settings: the one seed, no shrinking (a batch is one n8n execution; the failing
 * case is named in the assertion), and a report with the seed and the assertion only, since a
 * whole batch of generated items would bury it.
 */
export function propertyParameters<T>(numRuns: number): fc.Parameters<T> {
	return {
		seed: RUN_SEED,
		numRuns,
		endOnFailure: true,
		reporter: (details) => {
			if (!details.failed) return;
			const cause = details.errorInstance instanceof Error ? details.errorInstance.message : '';
			throw new Error(
				`Property failed after ${details.numRuns} runs (seed ${details.seed}, replay with FC_SEED=${details.seed}):\n${cause}`,
			);
		},
	};
}

/**
 * Sets up a file of properties: a time limit that fits a few hundred cases on a busy machine, and
 * the seed and the number of cases printed once all its properties are done.
 */
export function propertySuite(suite: string): void {
	jest.setTimeout(120_000);
	afterAll(() => {
		process.stdout.write(
			`property suite ${suite}: seed ${RUN_SEED} (replay with FC_SEED=${RUN_SEED}), ${totalCases} generated cases\n`,
		);
	});
}

/** Counts generated cases for the suite's closing line (runBatch counts its own). */
export function countCases(count: number): void {
	totalCases += count;
}

// ----- Invariants -----

/** Every own property of Object.prototype and of Object, value and accessors, as found. */
function ownProperties(): Map<string, PropertyDescriptor> {
	const properties = new Map<string, PropertyDescriptor>();
	for (const [name, target] of [
		['Object.prototype', Object.prototype],
		['Object', Object],
	] as const) {
		for (const key of Reflect.ownKeys(target)) {
			properties.set(`${name}.${String(key)}`, Object.getOwnPropertyDescriptor(target, key)!);
		}
	}
	return properties;
}

const PROPERTIES_AT_START = ownProperties();

/** No property added, removed or replaced (compared by identity, not by type). */
export function expectGlobalsUnchanged(): void {
	const now = ownProperties();
	const changed = [...new Set([...PROPERTIES_AT_START.keys(), ...now.keys()])].filter((key) => {
		const [before, after] = [PROPERTIES_AT_START.get(key), now.get(key)];
		return (
			before?.value !== after?.value || before?.get !== after?.get || before?.set !== after?.set
		);
	});
	expect(changed).toEqual([]);
}

/** The key appears in no output item: not in data, not in an error, message or description. */
export function expectNoApiKey(result: RunActionResult, apiKey: string): void {
	expect(JSON.stringify(result.items)).not.toContain(apiKey);
	expect(JSON.stringify(result.error ?? null)).not.toContain(apiKey);
}

// ----- Batches -----

/** What the test expects of one case: refused by the node, or the requests it sends. */
export type Expectation =
	| { refused: true; labels: string[] }
	| { refused?: false; requests: Array<Pick<RecordedRequest, 'method' | 'path'>> };

export interface Batch {
	emulator: Emulator;
	credentials: ApiCredentials;
	parameters: INodeParameters;
	/** One input item per case. */
	items: IDataObject[];
	expectations: Expectation[];
	/** The chosen answer each case's request gets, by case index. */
	answers?: ChosenAnswer[];
}

export interface BatchResult {
	/** The output items of each case, by input index. */
	outputs: INodeExecutionData[][];
	/** The requests each case sent, by input index. */
	requests: RecordedRequest[][];
}

/** Fails the property with the case's input and output, which a batch's diff would bury. */
export function failCase(
	batch: Pick<Batch, 'items'>,
	outputs: INodeExecutionData[][],
	index: number,
	what: string,
): never {
	const output = outputs[index]?.map((item) => item.json);
	throw new Error(
		`case ${index}: ${what}\n  input: ${JSON.stringify(batch.items[index])}\n  output: ${JSON.stringify(output)?.slice(0, 2000)}`,
	);
}

export function errorOf(outputs: INodeExecutionData[]): IDataObject | undefined {
	const json = outputs[0]?.json;
	return json && typeof json.error === 'string' ? json : undefined;
}

function mentions(message: string, label: string): boolean {
	return message.toLowerCase().includes(label.toLowerCase());
}

/**
 * The parameters with Concurrency Mode Fixed unless they set it (Concurrency unset is 1): items
 * run one at a time, so requests arrive in item order and each case's requests can be told apart
 * (at higher concurrency, an item naming the record of an earlier one waits, and later items go
 * first).
 */
export function oneAtATime(parameters: INodeParameters): INodeParameters {
	const options = (parameters.options ?? {}) as IDataObject;
	return { ...parameters, options: { concurrencyMode: 'fixed', ...options } };
}

/**
 * Runs the batch in one execution, one item at a time (`oneAtATime`), and checks what holds for
 * any input.
 */
export async function runBatch(batch: Batch): Promise<BatchResult> {
	const { emulator } = batch;
	emulator.reset();
	for (const answer of batch.answers ?? []) emulator.answerWith(answer);
	countCases(batch.items.length);
	const result = await runActionNode({
		credentials: batch.credentials,
		parameters: oneAtATime(batch.parameters),
		items: batch.items,
		continueOnFail: true,
	});
	expectGlobalsUnchanged();
	expectNoApiKey(result, emulator.apiKey);
	expect(result.error).toBeUndefined();

	const outputs: INodeExecutionData[][] = batch.items.map(() => []);
	for (const item of result.items) {
		const paired = item.pairedItem as { item: number };
		outputs[paired.item].push(item);
	}

	const requests: RecordedRequest[][] = [];
	let next = 0;
	batch.expectations.forEach((expectation, index) => {
		const count = expectation.refused ? 0 : expectation.requests.length;
		requests.push(emulator.requests.slice(next, next + count));
		next += count;
		const fail = (what: string) => failCase(batch, outputs, index, what);
		if (expectation.refused) {
			const error = errorOf(outputs[index]);
			if (error === undefined || error.httpCode !== undefined)
				fail(`expected a refusal naming ${expectation.labels.join(' or ')}, before any request`);
			const message = String(error!.error);
			if (!expectation.labels.some((label) => mentions(message, label)))
				fail(`the refusal does not name ${expectation.labels.join(' or ')}`);
			if (!message.includes(`item ${index}`)) fail('the refusal does not name the item');
			return;
		}
		const sent = requests[index].map(({ method, path }) => `${method} ${path}`);
		const expected = expectation.requests.map(({ method, path }) => `${method} ${path}`);
		if (JSON.stringify(sent) !== JSON.stringify(expected))
			fail(`expected the requests ${JSON.stringify(expected)}, got ${JSON.stringify(sent)}`);
	});
	// Nothing beyond what the cases account for: a refused case sent nothing.
	expect(emulator.requests.length).toBe(next);
	return { outputs, requests };
}

/**
 * Runs case `index` again, alone (with its chosen answer) and without "Continue", to see the
 * thrown error itself: a NodeOperationError or NodeApiError naming one of `labels` and the item.
 */
export async function expectThrownError(
	batch: Batch,
	index: number,
	labels: string[],
): Promise<void> {
	const { emulator } = batch;
	emulator.reset();
	const answer = batch.answers?.[index];
	if (answer) emulator.answerWith(answer);
	const result = await runActionNode({
		credentials: batch.credentials,
		parameters: batch.parameters,
		items: [batch.items[index]],
	});
	expectGlobalsUnchanged();
	expectNoApiKey(result, emulator.apiKey);
	const expectation = batch.expectations[index];
	expect(emulator.requests).toHaveLength(expectation.refused ? 0 : expectation.requests.length);
	expect(['NodeOperationError', 'NodeApiError']).toContain(result.error?.name);
	const message = result.error!.message;
	if (!labels.some((label) => mentions(message, label)))
		throw new Error(`case ${index}: the error "${message}" names none of ${labels.join(', ')}`);
	expect(result.error).toMatchObject({ context: { itemIndex: 0 } });
}

/** The first refused case of the batch, thrown: see expectThrownError. */
export async function expectRefusalError(batch: Batch): Promise<void> {
	const index = batch.expectations.findIndex((expectation) => expectation.refused);
	const expectation = batch.expectations[index];
	if (expectation?.refused) await expectThrownError(batch, index, expectation.labels);
}
