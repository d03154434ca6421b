import {
	NodeApiError,
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
} from 'n8n-workflow';

import { credentialAllowsChanges } from '../client/credential';
import { configurationError } from '../shared/checks';
import { declaredError, withItemsSent } from '../shared/failures';
import {
	monotonicClock,
	plainPacer,
	type Clock,
	type Concurrency,
	type Pacer,
} from '../pacing/pacer';
import { RunPace } from '../pacing/shared-pace';
import { Waiters } from './fixedConcurrency';
import { concurrencyFor } from './concurrencyOptions';
import { ItemOrder, recordKey } from './itemOrder';
import { inField, originOf, readListLimit, readText, runsAsTool } from './readers';
import { returnAllField } from '../shared/descriptions';
import { fitToolAnswer, toolAdvice, writeAnswer } from './toolAnswer';
import type { NodeMap, Resource } from './node.type';
import type { ItemInput, Operation } from './operation';
import * as asset from './asset';
import * as auditLog from './auditLog';
import * as connector from './connector';
import * as integration from './integration';
import * as tag from './tag';
import * as user from './user';

/** Every operation, by resource and operation key: what the router dispatches on. */
export const operationsByResource: { [R in Resource]: Record<NodeMap[R], Operation> } = {
	asset: asset.operations,
	auditLog: auditLog.operations,
	connector: connector.operations,
	integration: integration.operations,
	tag: tag.operations,
	user: user.operations,
};

/** The operation the node is set to, or undefined when the pair is not one of the node's. */
function operationFor(resource: string, operation: string): Operation | undefined {
	if (!Object.hasOwn(operationsByResource, resource)) return undefined;
	const operations: Record<string, Operation> = operationsByResource[resource as Resource];
	return Object.hasOwn(operations, operation) ? operations[operation] : undefined;
}

/**
 * The node's one per-item loop. Each input item runs its operation (`itemRunner`); output keeps
 * input order whatever the concurrency. With "On Error: Continue" a failed item becomes an
 * `{ error }` item and the other items go on.
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as string;
	const operationName = this.getNodeParameter('operation', 0) as string;
	const operation = operationFor(resource, operationName);
	if (!operation) {
		const message = `The operation "${operationName}" of resource "${resource}" is not supported`;
		const fix =
			'Pick the Resource and the Operation again in the node: the workflow may come from another version of this package.';
		throw configurationError({ node: this.getNode() }, message, fix);
	}

	const readOnly = operation.changesData && !(await credentialAllowsChanges.call(this));
	const results: INodeExecutionData[][] = new Array(items.length);
	const records = new RecordReads(this, operation.record);
	const asTool = runsAsTool.call(this);
	const concurrency = await concurrencyFor(this);
	// Under Auto, the concurrency paces the requests too: it is told each answer, 429 and 503.
	const pacer: Pacer =
		concurrency instanceof RunPace ? concurrency : { ...plainPacer, max: concurrency.max };
	const runItem = itemRunner(this, operation, { readOnly, asTool, pacer, results, records });
	// A shared pace gets back every slot this run held, however it ended.
	const outcome = await runEachItem(items.length, concurrency, runItem, (itemIndex) =>
		records.keyOf(itemIndex),
	).finally(() => concurrency.leave?.());
	// The failure of the lowest item index is reported: the one running one item at a time would.
	if (outcome.failures.length) {
		const first = outcome.failures.reduce((a, b) => (b.itemIndex < a.itemIndex ? b : a));
		// Later items sent may have taken effect only if they change data.
		throw operation.changesData
			? withItemsSent(first.error, first.itemIndex, outcome.sent)
			: first.error;
	}
	return [results.flat()];
}

/**
 * What runs one item: its operation, given what the router read of the item, each object it
 * returns an output item paired to it; in the tool form, within the size a model is given, and a
 * write saying it was made (./toolAnswer.ts). A failure names its item; with "On Error: Continue" it
 * becomes an `{ error }` item paired to its input instead, on the error output if the node has one.
 */
function itemRunner(
	context: IExecuteFunctions,
	operation: Operation,
	run: {
		readOnly: boolean;
		asTool: boolean;
		pacer: Pacer;
		results: INodeExecutionData[][];
		records: RecordReads;
	},
): (itemIndex: number) => Promise<void> {
	const { readOnly, asTool, pacer, results, records } = run;
	return async (itemIndex) => {
		try {
			if (readOnly) throw readOnlyError(context, itemIndex, asTool);
			const { record } = records.inputOf(itemIndex);
			const limit = operation.properties.includes(returnAllField)
				? readListLimit.call(context, itemIndex)
				: Infinity;
			const output = await operation.execute.call(context, itemIndex, pacer, { record, limit });
			const all = Array.isArray(output) ? output : [output];
			const given = !asTool
				? all
				: operation.changesData
					? all.map((answer) => writeAnswer(answer, operation.readAgain?.(answer)))
					: fitToolAnswer(all, operation.narrowWith?.call(context, itemIndex), {
							listLimit: limit,
						});
			results[itemIndex] = given.map((json) => ({ json, pairedItem: { item: itemIndex } }));
		} catch (caught) {
			const read = inField.call(context, itemIndex, operation.properties, caught);
			const error = declaredError(context.getNode(), read, itemIndex);
			const advice = asTool ? toolAdvice(error) : undefined;
			if (advice) error.description = `${error.description ?? ''}\n\n${advice}`.trim();
			if (!context.continueOnFail()) throw error;
			// With `error` set, n8n sends the item to the error output, its json then `{ error }` alone.
			const toErrorOutput = context.getNode().onError === 'continueErrorOutput';
			const failed = { json: errorJson(error), pairedItem: { item: itemIndex } };
			results[itemIndex] = [toErrorOutput ? { ...failed, error } : failed];
		}
	};
}

/** While an item waits for a slot, the router reads later items' records this long (ms) at a time. */
export const READ_AHEAD_SLICE_MS = 2;

/** Whether `slot` came before `tick`. */
const firstOf = async (slot: Promise<void>, tick: Promise<void>): Promise<boolean> =>
	await Promise.race([slot.then(() => true), tick.then(() => false)]);

/**
 * The router's loop, apart from n8n so a simulation can run it as it is. Items start in input
 * order, as many in flight as the concurrency allows, except that an item waits while an earlier
 * item changing the same record (`recordOf`, see ./itemOrder.ts) is in flight: later items on
 * other records go past it. After a failure no new item starts; items already in flight finish.
 * Every failure is returned, with the items that were sent (in input order). While no slot is
 * free, later items are admitted (their records read, n8n resolving their expressions), so that
 * work is done in time the run would spend waiting, not when their slots come.
 */
export async function runEachItem(
	count: number,
	concurrency: Concurrency,
	runItem: (itemIndex: number) => Promise<void>,
	recordOf: (itemIndex: number) => string | undefined = () => undefined,
	clock: Clock = monotonicClock,
): Promise<{ failures: Array<{ itemIndex: number; error: unknown }>; sent: number[] }> {
	const failures: Array<{ itemIndex: number; error: unknown }> = [];
	const sent: number[] = [];
	const running: Array<Promise<void>> = [];
	const order = new ItemOrder();
	const ended = new Waiters();
	let admitted = 0;
	const admit = () => order.admit(admitted, recordOf(admitted++));
	/** Admits later items, a slice at a time, until `slot` comes. */
	const readAhead = async (slot: Promise<void>) => {
		while (admitted < count && !(await firstOf(slot, clock.sleep(0)))) {
			const until = clock.now() + READ_AHEAD_SLICE_MS;
			do admit();
			while (admitted < count && clock.now() < until);
		}
	};
	for (let started = 0; started < count; started++) {
		while (!order.hasReady && admitted < count) admit();
		// Every item not started waits for one in flight on its record.
		while (!order.hasReady && !failures.length) await ended.wait();
		if (failures.length) break;
		// With no slot free, the start waits for an item in flight to end: time to read ahead.
		const full = concurrency.full;
		// The items that could start now, this one included.
		const slot = concurrency.start(count - started - order.waiting);
		if (full) await readAhead(slot);
		await slot;
		if (failures.length) {
			concurrency.finish();
			break;
		}
		const itemIndex = order.next()!;
		sent.push(itemIndex);
		running.push(
			(async () => {
				try {
					await runItem(itemIndex);
				} catch (error) {
					failures.push({ itemIndex, error });
				} finally {
					concurrency.finish();
					order.done(itemIndex);
					ended.wakeAll();
				}
			})(),
		);
	}
	await Promise.all(running);
	return { failures, sent: sent.sort((a, b) => a - b) };
}

/**
 * Each item's value of its operation's `record` parameter, read once: when the loop admits the
 * item, to order it, and handed to the operation when the item runs (its `ItemInput`). A value
 * that cannot be read names no record, and the item fails with that read's error when it runs,
 * before any request, as it would alone. Nothing is kept once the item has its value.
 */
class RecordReads {
	private readonly reads = new Map<number, { value: unknown } | { error: unknown }>();

	constructor(
		private readonly context: IExecuteFunctions,
		private readonly record: string | undefined,
	) {}

	/** The record item `itemIndex` changes (./itemOrder.ts): none for reads. */
	keyOf(itemIndex: number): string | undefined {
		if (!this.record) return undefined;
		try {
			const value = readText.call(this.context, itemIndex, this.record);
			this.reads.set(itemIndex, { value });
			return recordKey(value);
		} catch (error) {
			this.reads.set(itemIndex, { error });
			return undefined;
		}
	}

	/** What the operation of item `itemIndex` is given; the error of a read that failed. */
	inputOf(itemIndex: number): Pick<ItemInput, 'record'> {
		const read = this.reads.get(itemIndex);
		this.reads.delete(itemIndex);
		if (read && 'error' in read) throw read.error;
		return { record: read?.value };
	}
}

/**
 * The refusal of a change under a read-only credential: to a person, naming the toggle and the
 * item; to a model (the tool form), that no retry helps and only the user can allow changes.
 */
function readOnlyError(
	context: IExecuteFunctions,
	itemIndex: number,
	asTool: boolean,
): NodeOperationError {
	const [message, description] = asTool
		? [
				'This tool cannot change data: its credential has Allow Changes off, so nothing was sent. Do not retry this or any other change with it; tell the user, who can turn on Allow Changes in the credential.',
				'Reading still works with this credential. Only the user can allow changes.',
			]
		: [
				"This operation changes data, and the credential's Allow Changes is off: nothing was sent",
				'Allow Changes is off in the credential, so this node may only read. Turn on Allow Changes in the credential, or use a credential that allows changes.',
			];
	return configurationError(originOf(context, itemIndex), message, description);
}

function errorJson(error: unknown): IDataObject {
	const json: IDataObject = { error: (error as Error).message };
	if (error instanceof NodeApiError) {
		if (error.httpCode) json.httpCode = error.httpCode;
		const code = (error.errorResponse as IDataObject | undefined)?.code;
		if (code) json.code = code;
	}
	const description = (error as NodeApiError).description;
	if (description) json.description = description;
	return json;
}
