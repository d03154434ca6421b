import {
	NodeApiError,
	NodeOperationError,
	sleep,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
} from 'n8n-workflow';

import type { NodeMap, Resource } from './node.type';
import type { Operation } from './operation';
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

/** How many items may be in flight: Options → Concurrency for concurrent operations, else one. */
function concurrencyOf(context: IExecuteFunctions, operation: Operation): number {
	if (!operation.concurrent) return 1;
	return Math.max(
		1,
		Math.floor(Number(context.getNodeParameter('options.concurrency', 0, 1)) || 1),
	);
}

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
	const operation = operationFor(resource, operationName);
	if (!operation) {
		throw new NodeOperationError(
			this.getNode(),
			`The operation "${operationName}" of resource "${resource}" is not supported`,
		);
	}

	const concurrency = concurrencyOf(this, operation);
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
