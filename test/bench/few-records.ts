/**
 * Section 7 of the benchmark: a batch where many items change a few records (Tag → Update, each
 * item writing one of the seed's four tags in turn). Items on one record go one after another,
 * so this is as fast as four items in flight allow: the node at its defaults (Auto) against one
 * at a time and against n8n's HTTP Request node, which sends every item at once in no order.
 */
import type { INodeParameters, INodeType } from 'n8n-workflow';

import { SEED } from '../emulator/seed';
import { runActionNode } from '../helpers/n8n';
import { runHttpRequestNode } from './http-request-node';
import { API_KEY, ITEMS, RUNS, type BenchContext } from './settings';
import { check, median, progress, runsInSeconds, seconds, table, timed, times } from './tools';
import type { Verdict } from './tools';

const TAGS = Object.values(SEED.tags);

/** Item `i` writes description `item i` to tag `i mod 4`. */
const items = () =>
	Array.from({ length: ITEMS }, (_, index) => ({
		tagId: TAGS[index % TAGS.length],
		description: `item ${index}`,
	}));

type Variant = 'one at a time' | 'Fixed 8' | 'Auto (options unset)' | 'HTTP Request node';

async function updateWithNode(context: BenchContext, options?: INodeParameters) {
	const result = await runActionNode({
		credentials: context.credentials,
		mode: 'trigger',
		items: items(),
		parameters: {
			resource: 'tag',
			operation: 'update',
			tagId: '={{ $json.tagId }}',
			updateFields: { description: '={{ $json.description }}' },
			...(options && { options }),
		},
	});
	check(!result.error, `tag update failed: ${result.error?.message}`);
	check(result.items.length === ITEMS, `tag update returned ${result.items.length} items`);
}

async function updateWithHttpNode(context: BenchContext, nodeType: INodeType) {
	const result = await runHttpRequestNode({
		nodeType,
		method: 'PUT',
		url: `=${context.credentials.baseUrl}/tags/{{ $json.tagId }}`,
		headers: { 'x-api-key': API_KEY },
		bodyParameters: [{ name: 'description', value: '={{ $json.description }}' }],
		items: items(),
	});
	check(!result.error, `HTTP Request node failed: ${result.error?.message}`);
}

export async function measureFewRecords(
	context: BenchContext,
	httpNode: INodeType | undefined,
): Promise<Map<Variant, number[]>> {
	const variants: Array<[Variant, () => Promise<void>]> = [
		['one at a time', async () => await updateWithNode(context, { concurrencyMode: 'fixed' })],
		[
			'Fixed 8',
			async () => await updateWithNode(context, { concurrencyMode: 'fixed', concurrency: 8 }),
		],
		['Auto (options unset)', async () => await updateWithNode(context)],
	];
	if (httpNode)
		variants.push(['HTTP Request node', async () => await updateWithHttpNode(context, httpNode)]);
	const results = new Map<Variant, number[]>();
	for (let run = 1; run <= RUNS; run++) {
		for (const [name, execute] of variants) {
			await context.emulator.reset();
			const { ms } = await timed(execute);
			const puts = (await context.emulator.requests()).filter(({ method }) => method === 'PUT');
			check(puts.length === ITEMS, `${name}: the emulator received ${puts.length} PUT /tags`);
			results.set(name, [...(results.get(name) ?? []), ms]);
			progress(`few records run ${run}/${RUNS} ${name}: ${seconds(ms)}`);
		}
	}
	return results;
}

export function fewRecordsReport(results: Map<Variant, number[]>): {
	out: string[];
	verdicts: Verdict[];
} {
	const one = median(results.get('one at a time')!);
	const auto = median(results.get('Auto (options unset)')!);
	const http = results.get('HTTP Request node');
	const rows = [...results].map(([name, values]) => [
		name,
		seconds(median(values)),
		runsInSeconds(values),
		times(median(values) / one),
	]);
	return {
		out: [
			'',
			`7. Many items, few records: ${ITEMS} x Tag → Update (PUT /tags/{id}) over the seed's ${TAGS.length} tags in turn; items on one tag go one after another, so at most ${TAGS.length} in flight`,
			table([['Run', 'Median', 'Runs (s)', 'Time / one at a time'], ...rows]),
			http
				? `  Auto / HTTP Request node (every item at once, in no order): ${times(auto / median(http))}`
				: '  HTTP Request node: n/a',
		],
		verdicts: [
			[
				`(7) Auto, ${TAGS.length} records: one at a time / Auto`,
				times(one / auto),
				'>= 2x',
				one / auto >= 2,
			],
		],
	};
}
