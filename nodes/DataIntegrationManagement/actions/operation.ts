import {
	updateDisplayOptions,
	type IDataObject,
	type IExecuteFunctions,
	type INodeProperties,
	type INodePropertyOptions,
} from 'n8n-workflow';

import { HIDDEN_IN_TOOLS, optionsCollection } from '../shared/descriptions';
import { concurrencyFields } from './concurrencyOptions';
import type { Pacer } from '../pacing/pacer';
import type { Advice } from './toolAnswer';

/** What an `<operation>.operation.ts` module exports: its fields and what it does for one item. */
export interface Operation {
	/** The operation's own fields; its resource shows them only for this operation. */
	properties: INodeProperties[];
	/** Its Options collection's fields; resourceDescriptions adds the concurrency options. */
	optionFields?: INodeProperties[];
	/** Whether it creates, updates or deletes: refused under a credential without Allow Changes. */
	changesData: boolean;
	/** The parameter naming the record it changes (an id, a create's name): run in item order. */
	record?: string;
	/** A read's advice for an answer too large for the tool form, from what item `itemIndex` set. */
	narrowWith?(this: IExecuteFunctions, itemIndex: number): Advice;
	/** A write's read that gives again what its tool answer leaves out (./toolAnswer.ts). */
	readAgain?(answer: IDataObject): string;
	/** Runs it for input item `itemIndex`, paced by the run's `pacer`: one object per output item. */
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
	/** The `record` parameter's value, read once by the router to order items by it: send it as is. */
	record: unknown;
	/** A list's Limit (Infinity: Return All, or no list): the tool form says when it is reached. */
	limit: number;
}

/**
 * The fields of `resource`: its Operation field offering `options` (keys of `operations`, the
 * first the default), then each operation's fields, shown for it alone, and its Options.
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
