/**
 * Every answer the node's response checks accept renders, in every operation and output mode. Answers are drawn around the one the emulator gives each operation (keys left
 * out, maps emptied, values of any JSON type, hostile names added: `aroundAnswer`) and kept when
 * the endpoint's own check (`ANSWER_CHECKS`, `answerProblem`) accepts them, so a looser check
 * widens what is drawn. Each is the emulator's chosen answer to the operation's request. Output
 * modes are read from the node's description, so a new mode is covered as it comes.
 * Every item succeeds, or fails with a NodeApiError or NodeOperationError whose failure is not a
 * defect of the node's own code (a TypeError is one).
 */
import fc from 'fast-check';
import type { ExecutionError, IDataObject, INodeParameters, INodeProperties } from 'n8n-workflow';

import { DataIntegrationManagement } from '../../nodes/DataIntegrationManagement/DataIntegrationManagement.node';
import {
	ANSWER_CHECKS,
	answerProblem,
	type Endpoint,
} from '../../nodes/DataIntegrationManagement/client/endpoint';
import { useEmulator } from '../helpers/emulator';
import { atScale } from '../helpers/scale';
import { runActionNode } from '../helpers/n8n';
import { OPERATIONS } from '../actions/error-walk';
import { workingParametersOf } from '../actions/working-parameters';
import { acceptedAnswer } from './arbitraries';
import {
	countCases,
	expectGlobalsUnchanged,
	expectNoApiKey,
	oneAtATime,
	propertyParameters,
	propertySuite,
} from './harness';

const { emulator, credentials } = useEmulator();
propertySuite('accepted answers');

/** Runs per operation, and answers per run (one item each, run in every output mode). */
const RUNS = atScale(1, 3);
const CASES = 5;

const { properties } = new DataIntegrationManagement().description;

/** One way to run an operation: when it has Options → Output, one of its values. */
interface Mode {
	output?: { collection: string; value: string };
}

/** The operation's fields, collections' fields included. */
function fieldsOf(
	resource: string,
	operation: string,
): Array<{ collection?: string; field: INodeProperties }> {
	return properties
		.filter(
			(property) =>
				property.displayOptions?.show?.resource?.includes(resource) &&
				property.displayOptions?.show?.operation?.includes(operation),
		)
		.flatMap((property) =>
			property.type === 'collection'
				? (property.options as INodeProperties[]).map((field) => ({
						collection: property.name,
						field,
					}))
				: [{ field: property }],
		);
}

/** Every value of the operation's Output field (one mode without it). */
function modesOf(resource: string, operation: string): Mode[] {
	const output = fieldsOf(resource, operation).find(({ field }) => field.name === 'output');
	if (!output) return [{}];
	return (output.field.options as Array<{ value: string }>).map(({ value }) => ({
		output: { collection: output.collection!, value },
	}));
}

/** The endpoint of a request, as ANSWER_CHECKS names it: the template its path fits. */
function endpointOf(method: string, path: string): Endpoint {
	const found = (Object.keys(ANSWER_CHECKS) as Endpoint[]).find((endpoint) => {
		const [endpointMethod, template] = endpoint.split(' ');
		const pattern = new RegExp(`^${template.replace(/\{\w+\}/g, '[^/]+')}$`);
		return endpointMethod === method && pattern.test(path);
	});
	if (!found) throw new Error(`no endpoint in ANSWER_CHECKS for ${method} ${path}`);
	return found;
}

/** The operation's request with its working parameters, and the emulator's answer to it. */
async function requestAndAnswer(parameters: INodeParameters) {
	emulator().reset();
	const { error } = await runActionNode({ credentials: credentials(), parameters });
	expect(error).toBeUndefined();
	const { method, path, query, body } = emulator().requests[0];
	emulator().reset();
	const search = new URLSearchParams(query as Record<string, string>).toString();
	const response = await fetch(`${emulator().baseUrl}${path}${search ? `?${search}` : ''}`, {
		method,
		headers: { 'x-api-key': emulator().apiKey, 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const answer = (await response.json()) as unknown;
	emulator().reset();
	return { method, path, endpoint: endpointOf(method, path), answer };
}

/** The cause an error declares for n8n (`failure.cause`), if any. */
const causeOf = (error: unknown) => (error as { failure?: { cause?: string } }).failure?.cause;

/** Where a case ran, for the failure message. */
const whereOf = (operation: string, mode: Mode) =>
	`${operation}${mode.output ? `, output ${mode.output.value}` : ''}`;

/** The parameters of `operation` in `mode`, one item at a time. */
function parametersIn(parameters: INodeParameters, mode: Mode): INodeParameters {
	if (!mode.output) return oneAtATime(parameters);
	const { collection, value } = mode.output;
	const options = { ...((parameters[collection] as IDataObject | undefined) ?? {}), output: value };
	return oneAtATime({ ...parameters, [collection]: options });
}

/** Whether n8n may take `error` as declared: a node error whose cause is not the node's defect. */
function isDeclared(error: ExecutionError): boolean {
	const cause = causeOf(error);
	return (
		['NodeApiError', 'NodeOperationError'].includes(error.name) &&
		cause !== undefined &&
		cause !== 'node-defect'
	);
}

/** One operation in one mode, and the rule its endpoint's answers follow. */
interface Run {
	parameters: INodeParameters;
	mode: Mode;
	where: string;
	accepts: (body: unknown) => boolean;
	/** The request the answers are chosen for. */
	request: { method: string; path: string };
}

/** The error one answer alone ends in, if any: the operation run once, without "Continue". */
async function errorOfAnswer(run: Run, body: unknown): Promise<ExecutionError | undefined> {
	emulator().reset({ seed: false });
	emulator().answerWith({ ...run.request, body });
	const result = await runActionNode({
		credentials: credentials(),
		parameters: run.parameters,
	});
	return result.error;
}

/** `value` with one key or element left out, each way, the outermost first. */
function withOnePartLeftOut(value: unknown): unknown[] {
	if (typeof value !== 'object' || value === null) return [];
	const entries = Object.entries(value);
	const rebuild = (kept: Array<[string, unknown]>) =>
		Array.isArray(value) ? kept.map(([, v]) => v) : Object.fromEntries(kept);
	const leftOut = entries.map((_entry, index) => rebuild(entries.filter((_e, i) => i !== index)));
	const inside = entries.flatMap(([key, child], index) =>
		withOnePartLeftOut(child).map((smaller) =>
			rebuild(entries.map((entry, i): [string, unknown] => (i === index ? [key, smaller] : entry))),
		),
	);
	return [...leftOut, ...inside];
}

/**
 * The answer made as small as it goes while still accepted and still failing undeclared: a key
 * or element left out at a time (fast-check's own shrinking would run every mode again each
 * step). At most `budget` runs.
 */
async function smallestFailing(run: Run, body: unknown, budget = 400): Promise<unknown> {
	let smallest = body;
	for (let tried = 0, found = true; found && tried < budget; ) {
		found = false;
		for (const candidate of withOnePartLeftOut(smallest)) {
			if (tried++ >= budget) break;
			if (!run.accepts(candidate)) continue;
			const error = await errorOfAnswer(run, candidate);
			if (error && !isDeclared(error)) {
				[smallest, found] = [candidate, true];
				break;
			}
		}
	}
	return smallest;
}

/** The failure of the property: where, the answer (made smaller when it failed alone), the error. */
async function undeclaredFailure(run: Run, bodies: unknown[], error: ExecutionError) {
	const shown = bodies.length === 1 ? [await smallestFailing(run, bodies[0])] : bodies;
	const answers = shown.map((body) => JSON.stringify(body).slice(0, 1500)).join(', then ');
	return new Error(
		`${run.where}: the answer ${answers}\n  failed with ${error.name} (cause ${causeOf(error)}): ${error.message}`,
	);
}

/**
 * Runs the answers as the items of one execution, one item at a time, each request taking the
 * next answer. An item that fails ends the execution with its error, which must be declared; the
 * answers no request took then run again as the items of a new execution. (An item may send more
 * than one request, as a read of several pages does: it takes as many answers.)
 */
async function runAnswers(run: Run, bodies: unknown[]): Promise<void> {
	for (let left = bodies; left.length; ) {
		emulator().reset({ seed: false });
		for (const body of left) emulator().answerWith({ ...run.request, body });
		countCases(left.length);
		const result = await runActionNode({
			credentials: credentials(),
			parameters: run.parameters,
			items: left.map(() => ({})),
		});
		expectGlobalsUnchanged();
		expectNoApiKey(result, emulator().apiKey);
		const { error } = result;
		if (!error) return;
		const taken = Math.min(emulator().requests.length, left.length);
		if (!isDeclared(error)) {
			const item = (error as { context?: { itemIndex?: number } }).context?.itemIndex ?? 0;
			// One request an item: the failed item's own answer; else every answer taken so far.
			throw await undeclaredFailure(
				run,
				taken === item + 1 ? [left[item]] : left.slice(0, taken),
				error,
			);
		}
		left = left.slice(Math.max(taken, 1));
	}
}

describe.each(OPERATIONS.map((operation) => [operation.key, operation] as const))(
	'%s',
	(key, { resource, operation }) => {
		const modes = modesOf(resource, operation);

		test(`every accepted answer renders in each of its ${modes.length} output modes (${RUNS} runs of ${CASES} answers)`, async () => {
			const working = workingParametersOf(resource, operation);
			const { method, path, endpoint, answer } = await requestAndAnswer(working);
			const accepts = (body: unknown) => answerProblem(body, ANSWER_CHECKS[endpoint]) === undefined;
			expect(accepts(answer)).toBe(true);
			await fc.assert(
				fc.asyncProperty(
					fc.array(acceptedAnswer(answer, accepts), { minLength: CASES, maxLength: CASES }),
					async (bodies) => {
						for (const mode of modes) {
							const parameters = parametersIn(working, mode);
							const where = whereOf(key, mode);
							await runAnswers(
								{ parameters, mode, where, accepts, request: { method, path } },
								bodies,
							);
						}
					},
				),
				propertyParameters(RUNS),
			);
		});
	},
);

test('the modes are read from the description: each Output value', () => {
	const modes = (key: string) => {
		const [resource, operation] = key.split('.');
		return modesOf(resource, operation).map(({ output }) => output?.value);
	};
	expect(modes('integration.getSchemas')).toEqual([
		'compact',
		'columns',
		'schemas',
		'tables',
		'raw',
	]);
	expect(modes('auditLog.getAll')).toEqual(['compact', 'raw']);
	expect(modes('tag.create')).toEqual([undefined]);
});
