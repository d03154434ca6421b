import {
	NodeApiError,
	NodeOperationError,
	sleep,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
} from 'n8n-workflow';

import type { Operation } from './operation';
import { operationsByResource } from './resources';

/**
 * The node's one per-item loop. Each input item runs its operation; each object an operation
 * returns becomes an output item paired to that input. Output keeps input order whatever the
 * concurrency. A failure names its item; with "On Error: Continue" it becomes an `{ error }`
 * item paired to its input and the other items go on.
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as string;
	const operationName = this.getNodeParameter('operation', 0) as string;
	const operation: Operation | undefined = operationsByResource[resource]?.[operationName];
	if (!operation) {
		throw new NodeOperationError(
			this.getNode(),
			`The operation "${operationName}" of resource "${resource}" is not supported`,
		);
	}

	const concurrency = operation.concurrent
		? Math.max(1, Math.floor(Number(this.getNodeParameter('options.concurrency', 0, 1)) || 1))
		: 1;
	const results: INodeExecutionData[][] = new Array(items.length);
	const failures: Array<{ itemIndex: number; error: unknown }> = [];
	let next = 0;

	const runItem = async (itemIndex: number) => {
		try {
			const output = await operation.execute.call(this, itemIndex);
			results[itemIndex] = (Array.isArray(output) ? output : [output]).map((json) => ({
				json,
				pairedItem: { item: itemIndex },
			}));
		} catch (error) {
			if (!this.continueOnFail()) throw withItemIndex(this, error, itemIndex);
			results[itemIndex] = [{ json: errorJson(error), pairedItem: { item: itemIndex } }];
		}
	};

	// Up to `concurrency` items in flight; after a failure no new item starts. Items already in
	// flight finish, and the failure of the lowest item index is reported: the one that running
	// one item at a time would have reported.
	const waitForTurn = concurrency > 1 ? startGate(STARTS_PER_TICK) : undefined;
	const worker = async () => {
		while (failures.length === 0 && next < items.length) {
			if (waitForTurn) {
				await waitForTurn();
				if (failures.length !== 0 || next >= items.length) break;
			}
			const itemIndex = next++;
			try {
				await runItem(itemIndex);
			} catch (error) {
				failures.push({ itemIndex, error });
			}
		}
	};
	await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
	if (failures.length)
		throw failures.reduce((first, other) => (other.itemIndex < first.itemIndex ? other : first))
			.error;

	return [results.flat()];
}

/**
 * With concurrency, how many items may start per tick of the timers. Items whose answers arrive
 * in one turn of the event loop would otherwise all start their next items in that turn, and n8n
 * sends those requests together: the items in flight fall into lockstep, the loop busy with all
 * their answers at once, then idle while all of them wait on the API (measured by `npm run
 * bench`: concurrency 32 took a third longer that way).
 */
const STARTS_PER_TICK = 2;

/** A turnstile letting `perTick` callers through per tick of the timers. */
function startGate(perTick: number): () => Promise<void> {
	let started = 0;
	let tick: Promise<void> | undefined;
	return async () => {
		while (started >= perTick) {
			tick ??= sleep(0).then(() => {
				started = 0;
				tick = undefined;
			});
			await tick;
		}
		started++;
	};
}

function withItemIndex(context: IExecuteFunctions, error: unknown, itemIndex: number): Error {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		error.context.itemIndex = itemIndex;
		return error;
	}
	return new NodeOperationError(context.getNode(), error as Error, { itemIndex });
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
