import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { HIDDEN_IN_TOOLS } from '../shared/descriptions';
import { AUTO_START, FixedConcurrency, type Concurrency } from '../transport/pacer';
import { autoConcurrency } from '../transport/shared-pace';
import { readParameter } from './readers';
import { hasChange } from './versions';

/** Options → Concurrency and Concurrency Mode, which every operation has, and how they are read. */

/** The most items Options → Concurrency may keep in flight (its documented bounds are 1 to this). */
export const MAX_CONCURRENCY = 64;

/** How many items are sent at once when Concurrency is not set, under Concurrency Mode "Fixed". */
const FIXED_CONCURRENCY = 1;

const concurrencyField: INodeProperties = {
	displayName: 'Concurrency',
	name: 'concurrency',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: MAX_CONCURRENCY },
	default: FIXED_CONCURRENCY,
	displayOptions: HIDDEN_IN_TOOLS,
	description: `How many items to send at once, from 1 to ${MAX_CONCURRENCY}. Under Concurrency Mode "Auto", the most it sends at once (no cap when not set). Output items keep the order and the input item they come from, errors stay the same, and items that change the same record are sent one after another, in item order.`,
};

/** Concurrency Mode, whose default is what the node runs when the option is not set. */
function concurrencyModeField(defaultMode: 'fixed' | 'auto'): INodeProperties {
	return {
		displayName: 'Concurrency Mode',
		name: 'concurrencyMode',
		type: 'options',
		options: [
			{
				name: 'Fixed',
				value: 'fixed',
				description: `Send as many items at once as Concurrency says (${FIXED_CONCURRENCY} when it is not set)`,
			},
			{
				name: 'Auto',
				value: 'auto',
				description: `Find the pace the service allows: start with ${AUTO_START} items at once (fewer if Concurrency is lower), send more while the service keeps up, fewer when it asks to slow down; never more than Concurrency when it is set`,
			},
		],
		default: defaultMode,
		displayOptions: HIDDEN_IN_TOOLS,
		description:
			'Whether to send a fixed number of items at once, or to find the rate the service allows',
	};
}

/** Concurrency Mode with each default: a version shows what it runs when the option is not set. */
const concurrencyModeFields = {
	fixed: concurrencyModeField('fixed'),
	auto: concurrencyModeField('auto'),
};

/** What a node runs when Concurrency Mode is not set. */
const modeWhenUnset = (node: { typeVersion: number }) =>
	hasChange(node, 'autoConcurrencyByDefault') ? 'auto' : 'fixed';

/** Options → Concurrency and Concurrency Mode as a node of `version` shows them (its default mode). */
export function concurrencyFieldsFor(version: number): INodeProperties[] {
	return [concurrencyField, concurrencyModeFields[modeWhenUnset({ typeVersion: version })]];
}

/**
 * Options → Concurrency Mode and Concurrency, checked like every parameter (an expression or an
 * AI agent may give anything). Unset, Concurrency is 1 under Fixed; under Auto nothing but the
 * pace bounds what is in flight, as n8n's HTTP Request node sends every item at once.
 */
export async function concurrencyFor(context: IExecuteFunctions): Promise<Concurrency> {
	const modeField = concurrencyModeFields[modeWhenUnset(context.getNode())];
	const mode = readParameter.call(context, 0, modeField, 'options.concurrencyMode');
	// Whether the option was added (whatever its value, which is checked below), not what it says.
	const { options } = context.getNode().parameters;
	const unset = !(typeof options === 'object' && options !== null && 'concurrency' in options);
	if (mode === 'auto' && unset) return await autoConcurrency(context, Infinity);
	const limit = readParameter.call(context, 0, concurrencyField, 'options.concurrency') as number;
	return mode === 'auto' ? await autoConcurrency(context, limit) : new FixedConcurrency(limit);
}
