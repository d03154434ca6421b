import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { HIDDEN_IN_TOOLS } from '../shared/descriptions';
import { AUTO_MAX_CONCURRENCY, INITIAL_WINDOW } from '../pacing/controller';
import type { Concurrency } from '../pacing/pacer';
import { FixedConcurrency } from './fixedConcurrency';
import { credentialPace } from '../client/credential';
import { readParameter, runsAsTool } from './readers';

/**
 * Options → Concurrency Mode, Concurrency (Fixed) and Max Concurrency (Auto), which every
 * operation has, and how they are read: a number the user set is what runs.
 */

/** How many items are sent at once when Concurrency is not set, under Concurrency Mode "Fixed". */
const FIXED_CONCURRENCY = 1;

const concurrencyField: INodeProperties = {
	displayName: 'Concurrency',
	name: 'concurrency',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: AUTO_MAX_CONCURRENCY },
	default: FIXED_CONCURRENCY,
	displayOptions: HIDDEN_IN_TOOLS,
	description: `How many items to send at once, from 1 to ${AUTO_MAX_CONCURRENCY}: what runs under Concurrency Mode "Fixed", and when Concurrency Mode is not added. Output items keep the order and the input item they come from, errors stay the same, and items that change the same record are sent one after another, in item order.`,
};

/** Auto's cap: a number field as Concurrency is, with the default Auto runs when it is not set. */
const maxConcurrencyField: INodeProperties = {
	...concurrencyField,
	displayName: 'Max Concurrency',
	name: 'maxConcurrency',
	default: AUTO_MAX_CONCURRENCY,
	description: `Under Concurrency Mode "Auto": the most items to send at once, from 1 to ${AUTO_MAX_CONCURRENCY}, however well the service keeps up. Output items keep their order and the input item they come from.`,
};

/** Concurrency Mode: Auto when not set. */
const concurrencyModeField: INodeProperties = {
	displayName: 'Concurrency Mode',
	name: 'concurrencyMode',
	type: 'options',
	options: [
		{
			name: 'Fixed',
			value: 'fixed',
			description: `Send as many items at once as Concurrency says (${FIXED_CONCURRENCY} when it is not set). Without Concurrency Mode, Concurrency added alone runs this.`,
		},
		{
			name: 'Auto',
			value: 'auto',
			description: `Find the pace the service allows: start with ${INITIAL_WINDOW} items at once, send more while the service answers quickly, fewer when it answers 429 or 503 or queues requests; runs with this credential at the same time share the pace, and a later run keeps the pace a 429 set. Never more than Max Concurrency (${AUTO_MAX_CONCURRENCY} when it is not set).`,
		},
	],
	default: 'auto',
	displayOptions: HIDDEN_IN_TOOLS,
	description:
		'Whether to send a fixed number of items at once, or to find the rate the service allows',
};

/** Options → Concurrency Mode and the two fields it reads. */
export const concurrencyFields = [concurrencyField, concurrencyModeField, maxConcurrencyField];

/**
 * Options → Concurrency Mode and the field it reads: Concurrency under Fixed (1 when not set),
 * Max Concurrency under Auto (AUTO_MAX_CONCURRENCY when not set). Without a mode, Concurrency
 * added alone runs Fixed, else Auto. Each field is checked, whichever the mode reads.
 */
export async function concurrencyFor(context: IExecuteFunctions): Promise<Concurrency> {
	const concurrencySet = context.getNodeParameter('options.concurrency', 0, null) !== null;
	const modeField = { ...concurrencyModeField, default: concurrencySet ? 'fixed' : 'auto' };
	const mode = readParameter.call(context, 0, modeField, 'options.concurrencyMode');
	const fixed = readParameter.call(context, 0, concurrencyField, 'options.concurrency') as number;
	const max = readParameter.call(context, 0, maxConcurrencyField, 'options.maxConcurrency');
	// No more than the items: a run of one item is one at a time, whatever the field says.
	const items = Math.max(1, context.getInputData().length);
	if (mode !== 'auto') return new FixedConcurrency(Math.min(fixed, items));
	// A tool's call says nothing of what follows it: it goes before runs' items.
	const pace = await credentialPace.call(context);
	return pace.join(Math.min(max as number, items), undefined, runsAsTool.call(context));
}
