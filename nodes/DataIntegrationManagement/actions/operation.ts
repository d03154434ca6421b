import {
	updateDisplayOptions,
	type IDataObject,
	type IExecuteFunctions,
	type INodeProperties,
	type INodePropertyOptions,
} from 'n8n-workflow';

import { HIDDEN_IN_TOOLS, optionsCollection } from '../shared/descriptions';
import { concurrencyFields } from './concurrencyOptions';
import type { Pacer } from '../transport/pacer';

/** What an `<operation>.operation.ts` module exports: its fields and what it does for one item. */
export interface Operation {
	/** The operation's own fields; its resource shows them only for this operation. */
	properties: INodeProperties[];
	/** Its Options collection's fields; operationDescriptions adds the concurrency options. */
	optionFields?: INodeProperties[];
	/** Whether it creates, updates or deletes: refused under a credential without Allow Changes. */
	changesData: boolean;
	/** The parameter naming the record it changes (an id, a create's name): run in item order. */
	record?: string;
	/** What narrows an answer (`items`) too large for the tool form, told to the model. */
	narrowWith?(items: IDataObject[]): string | undefined;
	/** Runs it for input item `itemIndex`, paced by the run's `pacer`: one object per output item. */
	execute(
		this: IExecuteFunctions,
		itemIndex: number,
		pacer: Pacer,
		item: ItemInput,
	): Promise<IDataObject | IDataObject[]>;
}

/** What the router read of an input item before running its operation. */
export interface ItemInput {
	/** The `record` parameter's value, read once by the router to order items by it: send it as is. */
	record: unknown;
}

/** The Operation field of resource `R`: its values and default are keys of its `Operations`. */
export type OperationSelector<R extends string, Operations> = INodeProperties & {
	displayOptions: { show: { resource: [R] } };
	options: Array<INodePropertyOptions & { value: keyof Operations }>;
	default: keyof Operations;
};

/** The fields of each operation of `resource`, shown for it alone, then its Options collection. */
export function operationDescriptions<Key extends string>(
	resource: string,
	operations: Record<Key, Operation>,
): INodeProperties[] {
	return Object.entries<Operation>(operations).flatMap(([operation, definition]) =>
		updateDisplayOptions({ show: { resource: [resource], operation: [operation] } }, [
			...definition.properties,
			optionsOf(definition),
		]),
	);
}

/**
 * The Options collection of `operation`, by name as n8n's lint wants; hidden in the tool form when
 * it holds only the concurrency options (a tool runs one item per call).
 */
export function optionsOf(operation: Operation): INodeProperties {
	const own = operation.optionFields ?? [];
	const collection = optionsCollection(
		[...own, ...concurrencyFields].sort((a, b) => a.displayName.localeCompare(b.displayName, 'en')),
	);
	return own.length ? collection : { ...collection, displayOptions: HIDDEN_IN_TOOLS };
}
