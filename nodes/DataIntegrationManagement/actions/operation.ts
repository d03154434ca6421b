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
import type { Advice } from './toolAnswer';

/** What an `<operation>.operation.ts` module exports: its fields and what it does for one item. */
export interface Operation {
	/** The operation's own fields; its resource shows them only for this operation. */
	properties: INodeProperties[];
	/**
	 * The fields of its Options collection, but Concurrency, Concurrency Mode and Max Concurrency,
	 * which every operation has (resourceDescriptions adds them).
	 */
	optionFields?: INodeProperties[];
	/**
	 * Whether it creates, updates or deletes anything: the router refuses it, before any request,
	 * under a credential whose Allow Changes toggle is off.
	 */
	changesData: boolean;
	/**
	 * The parameter naming the record it changes: an id, or the name a create gives. Items naming
	 * the same record run in item order (./itemOrder.ts); reads have none and are never held.
	 */
	record?: string;
	/**
	 * A read's advice for an answer too large for the tool form (./toolAnswer.ts), from what is
	 * set for input item `itemIndex`.
	 */
	narrowWith?(this: IExecuteFunctions, itemIndex: number): Advice;
	/** A write's read that gives again what its tool answer leaves out (./toolAnswer.ts). */
	readAgain?(answer: IDataObject): string;
	/**
	 * Runs the operation for input item `itemIndex`, its requests paced by the run's `pacer`, with
	 * what the router read of the item (`item`); each returned object becomes one output item.
	 */
	execute(
		this: IExecuteFunctions,
		itemIndex: number,
		pacer: Pacer,
		item: ItemInput,
	): Promise<IDataObject | IDataObject[]>;
}

/** An operation's `execute`: an operation module defines it as `const execute: Execute = …`. */
export type Execute = Operation['execute'];

/** What the router read of an input item before running its operation. */
export interface ItemInput {
	/**
	 * The value of the operation's `record` parameter for the item, resolved once by the router to
	 * order the item: the operation sends this value and does not read the parameter again, so
	 * the order is decided on what is sent and no expression runs twice. Undefined for reads.
	 */
	record: unknown;
}

/**
 * The fields of `resource`: its Operation field, offering `options` (each the key of one of
 * `operations`; the first is the default), then the fields of every operation, each shown only
 * for its resource and operation, then its Options collection, with the concurrency options:
 * reads and writes alike may run several items' requests at once.
 */
export function resourceDescriptions<Key extends string>(
	resource: string,
	operations: Record<Key, Operation>,
	options: Array<INodePropertyOptions & { value: Key }>,
): INodeProperties[] {
	const shown = (operation?: string) => ({
		show: { resource: [resource], ...(operation && { operation: [operation] }) },
	});
	const [{ value: first }] = options;
	return [
		{
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			displayOptions: shown(),
			options,
			default: first,
		},
		...Object.entries<Operation>(operations).flatMap(([operation, definition]) =>
			updateDisplayOptions(shown(operation), [...definition.properties, optionsOf(definition)]),
		),
	];
}

/**
 * The Options collection of `operation`, its fields in the order of their names, as n8n's lint
 * orders a collection's. One holding only the concurrency options is hidden in the tool form: a
 * tool runs one item per call.
 */
export function optionsOf(operation: Operation): INodeProperties {
	const own = operation.optionFields ?? [];
	const collection = optionsCollection(
		[...own, ...concurrencyFields].sort((a, b) => a.displayName.localeCompare(b.displayName, 'en')),
	);
	return own.length ? collection : { ...collection, displayOptions: HIDDEN_IN_TOOLS };
}
