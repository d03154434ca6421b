/** Sections 1, 2 and 4: 500 tag creates at concurrency 1, 8 and 32 against a keep-alive client and the HTTP Request node; concurrency 32 against 429s. */
import type { INodeType } from 'n8n-workflow';

import { runActionNode } from '../helpers/n8n';
import { HTTP_REQUEST_NODE_VERSION, runHttpRequestNode } from './http-request-node';
import { namedTags } from './tag-creates';
import { API_KEY, ITEMS, OWNER, RUNS, SMOKE, WARM_UP_ITEMS, type BenchContext } from './settings';
import {
	check,
	median,
	progress,
	runsInSeconds,
	seconds,
	table,
	timed,
	times,
	higher,
	lower,
	type Verdict,
} from './tools';

/** Section 4: how many POST /tags are answered 429, after how many. */
const RATE_LIMITED = {
	skip: SMOKE ? 4 : 100,
	count: SMOKE ? 3 : 64,
	retryAfterSeconds: 1,
};

/** `count` items, each naming its own tag. */
const tagItems = (run: string, count = ITEMS) => namedTags(`bench ${run}`, count);

async function nodeCreateTags(
	context: BenchContext,
	items: Array<{ name: string }>,
	concurrency: number,
) {
	const result = await runActionNode({
		credentials: context.credentials,
		mode: 'trigger',
		items,
		parameters: {
			resource: 'tag',
			operation: 'create',
			name: '={{ $json.name }}',
			owner: { __rl: true, mode: 'id', value: OWNER },
			options: { concurrencyMode: 'fixed', concurrency },
		},
	});
	check(!result.error, `tag create at concurrency ${concurrency} failed: ${result.error?.message}`);
	check(result.items.length === items.length, `tag create returned ${result.items.length} items`);
	check(
		result.items.every((item) => typeof item.json.id === 'string' && !('error' in item.json)),
		'every tag create item has an id',
	);
	return result;
}

async function httpNodeCreateTags(
	context: BenchContext,
	nodeType: Parameters<typeof runHttpRequestNode>[0]['nodeType'],
	items: Array<{ name: string }>,
) {
	const result = await runHttpRequestNode({
		nodeType,
		url: `${context.credentials.baseUrl}/tags`,
		headers: { 'x-api-key': API_KEY },
		bodyParameters: [
			{ name: 'name', value: '={{ $json.name }}' },
			{ name: 'owner', value: OWNER },
		],
		items,
	});
	check(!result.error, `HTTP Request node failed: ${result.error?.message}`);
	check(
		result.items.length === items.length,
		`HTTP Request node returned ${result.items.length} items`,
	);
	check(
		result.items.every(
			(item) => typeof (item.json.data as { id?: unknown } | undefined)?.id === 'string',
		),
		'every HTTP Request node item has data.id',
	);
	return result;
}

async function countRequests(
	context: BenchContext,
	method: string,
	pathPrefix: string,
): Promise<number> {
	return (await context.emulator.requests()).filter(
		(request) => request.method === method && request.path.startsWith(pathPrefix),
	).length;
}

type WriteVariant = 'floor' | 'c1' | 'c8' | 'c32' | 'http';

export interface WriteResults {
	floor: number[];
	c1: number[];
	c8: number[];
	c32: number[];
	http: number[] | undefined;
	httpReason?: string;
	/** Client CPU per run, by variant. */
	cpu: Record<WriteVariant, number[]>;
}

export async function measureWrites(
	context: BenchContext,
	httpNode: INodeType | undefined,
	httpReason: string | undefined,
): Promise<WriteResults> {
	const results: WriteResults = {
		floor: [],
		c1: [],
		c8: [],
		c32: [],
		http: httpNode ? [] : undefined,
		httpReason,
		cpu: { floor: [], c1: [], c8: [], c32: [], http: [] },
	};

	// Warm-up: the first runs compile n8n-core's and the nodes' code paths.
	await context.emulator.reset();
	await context.plain.createTags(
		tagItems('warm plain', WARM_UP_ITEMS / 2).map(({ name }) => ({ name, owner: OWNER })),
	);
	for (const concurrency of [1, 8, 32])
		await nodeCreateTags(context, tagItems(`warm c${concurrency}`, WARM_UP_ITEMS), concurrency);
	if (httpNode) await httpNodeCreateTags(context, httpNode, tagItems('warm http', WARM_UP_ITEMS));

	const variants: Array<[WriteVariant, (run: string) => Promise<unknown>]> = [
		[
			'floor',
			async (run) =>
				await context.plain.createTags(tagItems(run).map(({ name }) => ({ name, owner: OWNER }))),
		],
		['c1', async (run) => await nodeCreateTags(context, tagItems(run), 1)],
		['c8', async (run) => await nodeCreateTags(context, tagItems(run), 8)],
		['c32', async (run) => await nodeCreateTags(context, tagItems(run), 32)],
	];
	if (httpNode)
		variants.push([
			'http',
			async (run) => await httpNodeCreateTags(context, httpNode, tagItems(run)),
		]);

	for (let run = 1; run <= RUNS; run++) {
		for (const [name, execute] of variants) {
			await context.emulator.reset();
			const { ms, cpuMs } = await timed(() => execute(`${name} ${run}`));
			const posts = await countRequests(context, 'POST', '/tags');
			check(
				posts === ITEMS,
				`${name}: the emulator received ${posts} POST /tags, expected ${ITEMS}`,
			);
			results[name]!.push(ms);
			results.cpu[name].push(cpuMs);
			progress(`writes run ${run}/${RUNS} ${name}: ${seconds(ms)}`);
		}
	}
	return results;
}

export async function measureRateLimited(context: BenchContext) {
	await context.emulator.reset();
	await context.emulator.injectFault({
		kind: 'status',
		status: 429,
		retryAfterSeconds: RATE_LIMITED.retryAfterSeconds,
		method: 'POST',
		path: '/tags',
		skip: RATE_LIMITED.skip,
		count: RATE_LIMITED.count,
	});
	const { ms, value } = await timed(async () => {
		const result = await runActionNode({
			credentials: context.credentials,
			mode: 'trigger',
			items: tagItems('rate limited'),
			parameters: {
				resource: 'tag',
				operation: 'create',
				name: '={{ $json.name }}',
				owner: { __rl: true, mode: 'id', value: OWNER },
				options: { concurrencyMode: 'fixed', concurrency: 32 },
			},
		});
		return result;
	});
	const succeeded = value.items.filter((item) => typeof item.json.id === 'string').length;
	const posts = await countRequests(context, 'POST', '/tags');
	return { ms, succeeded, failed: value.error?.message, absorbed: posts - succeeded, posts };
}

export type RateLimited = Awaited<ReturnType<typeof measureRateLimited>>;

/** One request's round trip, as the sequential floor sees it. */
const roundTripOf = (writes: WriteResults) => median(writes.floor) / ITEMS;
/** Lowest time at a concurrency on this wire: every slot busy, ceil(items / slots) round trips. */
const wireFloor = (writes: WriteResults, concurrency: number) =>
	Math.ceil(ITEMS / concurrency) * roundTripOf(writes);

function writeRow(
	writes: WriteResults,
	label: string,
	variant: WriteVariant,
	concurrency: number,
): string[] {
	const values = writes[variant];
	const floor = seconds(wireFloor(writes, concurrency));
	if (!values) return [label, 'n/a', '', '', '', floor];
	return [
		label,
		seconds(median(values)),
		runsInSeconds(values),
		`${(median(values) / ITEMS).toFixed(1)} ms`,
		`${(median(writes.cpu[variant]) / ITEMS).toFixed(2)} ms`,
		floor,
	];
}

/** Sections 1 and 2: the table and their targets. */
export function writesReport(writes: WriteResults): { out: string[]; verdicts: Verdict[] } {
	const out = [
		'',
		`1-2. Bulk write: ${ITEMS} x tag create (POST /tags); our node through n8n-core, mode "trigger"`,
		table([
			['Run', 'Median', 'Runs (s)', 'Per item', 'Client CPU per item', 'Wire floor*'],
			writeRow(writes, 'plain keep-alive client, one by one (floor)', 'floor', 1),
			writeRow(writes, 'this node, concurrency 1', 'c1', 1),
			writeRow(writes, 'this node, concurrency 8', 'c8', 8),
			writeRow(writes, 'this node, concurrency 32', 'c32', 32),
			writeRow(
				writes,
				`n8n HTTP Request node v${HTTP_REQUEST_NODE_VERSION}, all items at once`,
				'http',
				ITEMS,
			),
		]),
		`  * ceil(${ITEMS} / in flight) x ${roundTripOf(writes).toFixed(1)} ms (the floor's round trip): the least any client can take with that many in flight.`,
	];
	if (writes.httpReason) out.push(`  HTTP Request node: n/a (${writes.httpReason})`);
	const [floor, c1, c8, c32] = [writes.floor, writes.c1, writes.c8, writes.c32].map(median);
	const http = writes.http ? median(writes.http) : undefined;
	const verdicts: Verdict[] = [
		[
			'(1) concurrency 1 / sequential floor (a raw keep-alive client)',
			times(c1 / floor),
			'<= 1.05x',
			c1 / floor <= 1.05,
			lower('1 concurrency 1 / floor', c1 / floor),
		],
		[
			'(2) concurrency 1 / concurrency 8',
			times(c1 / c8),
			'>= 7.5x',
			c1 / c8 >= 7.5,
			higher('2 concurrency 1 / concurrency 8', c1 / c8),
		],
		[
			'(2) concurrency 32 / HTTP Request node',
			http === undefined ? 'n/a' : times(c32 / http),
			http === undefined
				? '<= 1.2x'
				: `<= 1.2x (${seconds(1.2 * http)}; wire floor at 32 in flight: ${seconds(wireFloor(writes, 32))})`,
			http === undefined ? undefined : c32 / http <= 1.2,
			http === undefined ? undefined : lower('2 concurrency 32 / HTTP Request node', c32 / http),
		],
	];
	return { out, verdicts };
}

/** Section 4: the table and its target. */
export function rateLimitedReport(limited: RateLimited): { out: string[]; verdicts: Verdict[] } {
	const out = [
		'',
		`Rate-limited API: concurrency 32; ${RATE_LIMITED.count} POST /tags after the first ${RATE_LIMITED.skip} answered 429, Retry-After: ${RATE_LIMITED.retryAfterSeconds}`,
		table([
			['Items succeeded', '429s absorbed', 'POST /tags sent', 'Time', 'Error'],
			[
				`${limited.succeeded} / ${ITEMS}`,
				String(limited.absorbed),
				String(limited.posts),
				seconds(limited.ms),
				limited.failed ?? 'none',
			],
		]),
	];
	const verdict: Verdict = [
		'429s at concurrency 32: every item succeeds',
		`${limited.succeeded} / ${ITEMS}, ${limited.absorbed} 429s absorbed`,
		`${ITEMS} / ${ITEMS}`,
		limited.succeeded === ITEMS && !limited.failed && limited.absorbed > 0,
	];
	return { out, verdicts: [verdict] };
}
