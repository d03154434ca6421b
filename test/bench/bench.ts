/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, no-console -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * `npm run bench`: how fast the nodes go against an API that answers in a fixed 20 ms, next to
 * what the wire allows. Not a test: it prints a table of medians, targets and PASS/MISS.
 *
 * 1. 500 × tag create with our node at concurrency 1, against a plain keep-alive client sending
 *    the same requests one by one (the sequential floor).
 * 2. The same at concurrency 8 and 32, and n8n's HTTP Request node (every item at once).
 * 3. Trigger catch-up of a 20,000-entry backlog in one poll: requests, time against the plain
 *    client reading the same pages, and heap growth with a cap of 20,000 vs 2,000.
 * 4. Concurrency 32 against an API answering 429 + Retry-After: 1 for a while: slower, not failed.
 * 5. 600 × tag create under rate limits of 50/s and 400/s and without one: Concurrency Auto
 *    against fixed 1, 8 and 32 and n8n's HTTP Request node (rate-limit.ts), and the chart of
 *    Auto against fixed 32 in docs/.
 * 6. Trigger catch-up against every service variant the spec allows (audit-variants.ts).
 * A. Concurrency Auto's targets (auto-targets.ts): one run alone at 50/s, 137/s, 400/s and
 *    1,000/s; four runs against one limit, in this process and in four; no limit, against n8n's
 *    HTTP Request node.
 *
 * The emulator runs in a child process. Our nodes run through n8n-core (test/helpers/n8n.ts).
 * Environment: BENCH_RUNS (3), BENCH_LATENCY_MS (20). Run with --expose-gc for the memory rows.
 * `--smoke`: one run of every section with a few items, in seconds, to prove the benchmark
 * still works (CI); its figures mean nothing and its chart goes to the temp folder.
 * `--only=rate-limit`: section 5 alone; `--only=auto`: section A alone.
 */
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';

import type { INodeType } from 'n8n-workflow';

import { SEED } from '../emulator/seed';
import type { NewAuditEntry } from '../emulator';
import { pollTrigger, runActionNode, type ApiCredentials } from '../helpers/n8n';
import {
	auditVariantsTable,
	measureAuditVariants,
	VARIANT_BACKLOG,
	type VariantResult,
} from './audit-variants';
import { startEmulatorProcess, type EmulatorProcess } from './emulator-process';
import {
	loadHttpRequestNode,
	runHttpRequestNode,
	HTTP_REQUEST_NODE_VERSION,
} from './http-request-node';
import { measureAutoTargets } from './auto-targets';
import { PlainClient } from './plain-client';
import {
	LIMITS,
	measureRateLimits,
	percent,
	rateLimitReport,
	shareOfLimit,
	writeRateLimitChart,
	type RateCell,
} from './rate-limit';
import {
	benchStart,
	check,
	median,
	mib,
	positiveInt,
	progress,
	seconds,
	table,
	timed,
	times,
} from './tools';

// n8n logs every error a node throws (the HTTP Request node's retries of 429s, here) to stdout,
// which holds the report; its logger reads the level when it is first used, after this line.
process.env.N8N_LOG_LEVEL ??= 'silent';
const SMOKE = process.argv.includes('--smoke');
const RATE_LIMIT_ONLY = process.argv.includes('--only=rate-limit');
const AUTO_ONLY = process.argv.includes('--only=auto');
const RUNS = SMOKE ? 1 : positiveInt('BENCH_RUNS', 3);
const LATENCY_MS = positiveInt('BENCH_LATENCY_MS', 20);
const ITEMS = SMOKE ? 20 : 500;
const BACKLOG = SMOKE ? 400 : 20_000;
const SMALL_CAP = SMOKE ? 200 : 2_000;
const RATE_LIMIT_ITEMS = SMOKE ? 40 : 600;
const WARM_UP_ITEMS = Math.min(ITEMS, 100);
const CHART = SMOKE
	? path.join(os.tmpdir(), 'bench-rate-limit.png')
	: path.resolve(__dirname, '../../docs/bench-rate-limit.png');
const PAGE_SIZE = 100;
// eslint-disable-next-line @n8n/community-nodes/no-hardcoded-secrets -- a fixed key for the local emulator, not a secret
const API_KEY = 'bench-key-7d3e91';
const OWNER = SEED.users.maya;
/** The backlog starts after the seeded audit log (October 2026), one entry every 500 ms. */
const BACKLOG_START = Date.parse('2027-01-01T00:00:00.000Z');
const BACKLOG_STEP_MS = 500;
const RATE_LIMITED = {
	skip: SMOKE ? 4 : 100,
	count: SMOKE ? 3 : 64,
	retryAfterSeconds: 1,
};

function tagItems(run: string, count = ITEMS) {
	return Array.from({ length: count }, (_, index) => ({ name: `bench ${run} ${index}` }));
}

function backlogEntries(count: number): NewAuditEntry[] {
	const events = [
		'Tag created',
		'Asset updated',
		'Integration schema updated',
		'Connector created',
	];
	return Array.from({ length: count }, (_, index) => ({
		timestamp: new Date(BACKLOG_START + index * BACKLOG_STEP_MS).toISOString(),
		event: events[index % events.length],
		actor: { type: 'user', email: `user${index % 7}@northwind-data.example` },
		context: { ipAddress: `10.0.${index % 256}.${(index >> 8) % 256}`, userAgent: 'bench' },
	}));
}

// ----- the runs -----

interface Context {
	emulator: EmulatorProcess;
	credentials: ApiCredentials;
	plain: PlainClient;
}

async function nodeCreateTags(
	context: Context,
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
	context: Context,
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
	context: Context,
	method: string,
	pathPrefix: string,
): Promise<number> {
	return (await context.emulator.requests()).filter(
		(request) => request.method === method && request.path.startsWith(pathPrefix),
	).length;
}

type WriteVariant = 'floor' | 'c1' | 'c8' | 'c32' | 'http';

interface WriteResults {
	floor: number[];
	c1: number[];
	c8: number[];
	c32: number[];
	http: number[] | undefined;
	httpReason?: string;
	/** Client CPU per run, by variant. */
	cpu: Record<WriteVariant, number[]>;
}

async function measureWrites(
	context: Context,
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

async function measureRateLimited(context: Context) {
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

interface HeapGrowth {
	/**
	 * Live object heap above the baseline right after the poll, its output still held
	 * (global.gc() before and after).
	 */
	live: number;
	/** Highest object heap above the baseline, sampled every 10 ms during the poll: garbage included. */
	peakUsed: number;
}

/** Object spaces only: code and bytecode (compiled on first use, whoever runs) are left out. */
const OBJECT_SPACES = new Set([
	'new_space',
	'old_space',
	'new_large_object_space',
	'large_object_space',
]);

function objectHeapUsed(): number {
	return v8
		.getHeapSpaceStatistics()
		.filter((space) => OBJECT_SPACES.has(space.space_name))
		.reduce((sum, space) => sum + space.space_used_size, 0);
}

/**
 * Runs one poll, timed, with its heap growth when global.gc is available (`--expose-gc`). The
 * collections happen outside the timed span; the 10 ms sampler only reads a counter.
 */
async function measuredPoll(context: Context, cap: number) {
	const gc = (globalThis as { gc?: () => void }).gc;
	const used = objectHeapUsed;
	gc?.();
	const baseline = used();
	let peak = baseline;
	const sampler = setInterval(() => (peak = Math.max(peak, used())), 10);
	const cpuBefore = context.emulator.cpuMs();
	let poll;
	try {
		poll = await timed(() =>
			pollTrigger({ credentials: context.credentials, parameters: triggerParameters(cap) }),
		);
	} finally {
		clearInterval(sampler);
	}
	const emulatorCpu = diff(context.emulator.cpuMs(), cpuBefore);
	let heap: HeapGrowth | undefined;
	if (gc) {
		peak = Math.max(peak, used());
		gc();
		heap = { live: used() - baseline, peakUsed: peak - baseline };
	}
	// Read after the measurement, so the output is still held while it is taken.
	const emitted = poll.value.items?.length ?? 0;
	return { ms: poll.ms, cpuMs: poll.cpuMs, emitted, heap, emulatorCpu };
}

function diff(after: number | undefined, before: number | undefined): number | undefined {
	return after === undefined || before === undefined ? undefined : after - before;
}

interface TriggerResults {
	nodeMs: number[];
	plainMs: number[];
	requests: number[];
	emitted: number[];
	plainPages: number;
	nodeEmulatorCpu: number[];
	plainEmulatorCpu: number[];
	nodeCpu: number[];
	plainCpu: number[];
}

interface MemoryResult {
	label: string;
	backlog: number;
	cap: number;
	emitted: number;
	live: number[];
	peakUsed: number[];
}

const triggerParameters = (cap: number) => ({
	startFrom: 'date',
	startDate: new Date(BACKLOG_START).toISOString(),
	filters: {},
	options: { maxItemsPerPoll: cap, lookbackSeconds: 60 },
});

async function loadBacklog(context: Context, count: number) {
	await context.emulator.reset();
	await context.emulator.addAuditEntries(backlogEntries(count));
}

const number = (value: number) => value.toLocaleString('en');

async function measureTrigger(
	context: Context,
): Promise<{ trigger: TriggerResults; memory: MemoryResult[] }> {
	await loadBacklog(context, BACKLOG);
	const startTime = new Date(BACKLOG_START).toISOString();
	const trigger: TriggerResults = {
		nodeMs: [],
		plainMs: [],
		requests: [],
		emitted: [],
		plainPages: 0,
		nodeEmulatorCpu: [],
		plainEmulatorCpu: [],
		nodeCpu: [],
		plainCpu: [],
	};
	const big: MemoryResult = {
		label: `backlog ${number(BACKLOG)}, cap ${number(BACKLOG)}`,
		backlog: BACKLOG,
		cap: BACKLOG,
		emitted: 0,
		live: [],
		peakUsed: [],
	};

	// Warm-up on the same data: both clients' code paths, 20 pages each.
	await context.plain.readAuditLog(startTime, SMALL_CAP / PAGE_SIZE);
	await pollTrigger({ credentials: context.credentials, parameters: triggerParameters(SMALL_CAP) });

	for (let run = 1; run <= RUNS; run++) {
		const cpuBefore = context.emulator.cpuMs();
		const plain = await timed(() => context.plain.readAuditLog(startTime));
		check(plain.value.entries === BACKLOG, `the plain client read ${plain.value.entries} entries`);
		trigger.plainMs.push(plain.ms);
		trigger.plainCpu.push(plain.cpuMs);
		trigger.plainPages = plain.value.pages;
		const plainCpu = diff(context.emulator.cpuMs(), cpuBefore);
		if (plainCpu !== undefined) trigger.plainEmulatorCpu.push(plainCpu);

		await context.emulator.clearRequests();
		const poll = await measuredPoll(context, BACKLOG);
		const sent = (await context.emulator.requests()).filter(
			(request) => request.path === '/audit-logs',
		);
		check(
			sent[0]?.query.startTime === startTime,
			`the trigger asked from ${String(sent[0]?.query.startTime)}`,
		);
		check(poll.emitted === BACKLOG, `the trigger emitted ${poll.emitted} entries`);
		trigger.nodeMs.push(poll.ms);
		trigger.nodeCpu.push(poll.cpuMs);
		trigger.requests.push(sent.length);
		trigger.emitted.push(poll.emitted);
		if (poll.emulatorCpu !== undefined) trigger.nodeEmulatorCpu.push(poll.emulatorCpu);
		big.emitted = poll.emitted;
		if (poll.heap) {
			big.live.push(poll.heap.live);
			big.peakUsed.push(poll.heap.peakUsed);
		}
		progress(
			`trigger run ${run}/${RUNS}: plain ${seconds(plain.ms)}, trigger ${seconds(poll.ms)}, ${sent.length} requests`,
		);
	}

	const memory: MemoryResult[] = [big];
	if (!(globalThis as { gc?: unknown }).gc) return { trigger, memory: [] };
	for (const backlog of [BACKLOG, SMALL_CAP]) {
		if (backlog !== BACKLOG) await loadBacklog(context, backlog);
		await measuredPoll(context, SMALL_CAP); // warm-up
		const result: MemoryResult = {
			label: `backlog ${number(backlog)}, cap ${number(SMALL_CAP)}`,
			backlog,
			cap: SMALL_CAP,
			emitted: 0,
			live: [],
			peakUsed: [],
		};
		for (let run = 1; run <= RUNS; run++) {
			const poll = await measuredPoll(context, SMALL_CAP);
			check(
				poll.emitted === SMALL_CAP,
				`${result.label}: the trigger emitted ${poll.emitted} entries`,
			);
			result.emitted = poll.emitted;
			result.live.push(poll.heap!.live);
			result.peakUsed.push(poll.heap!.peakUsed);
		}
		progress(`memory ${result.label}: live +${mib(median(result.live))}`);
		memory.push(result);
	}
	return { trigger, memory };
}

// ----- report -----

type Verdict = [target: string, figure: string, limit: string, pass: boolean | undefined];

function verdictRows(verdicts: Verdict[]): string[][] {
	return [
		['#', 'Target', 'Figure', 'Limit', 'Result'],
		...verdicts.map(([target, figure, limit, pass], index) => [
			String(index + 1),
			target,
			figure,
			limit,
			pass === undefined ? 'n/a' : pass ? 'PASS' : 'MISS',
		]),
	];
}

const loadAverage = () =>
	os
		.loadavg()
		.map((load) => load.toFixed(2))
		.join(' ');

async function main() {
	// First, so that installing n8n (once per machine) weighs on no figure nor the load average.
	const loaded = await loadHttpRequestNode();
	const cpus = os.cpus();
	const loadBefore = loadAverage();
	const emulator = await startEmulatorProcess({ latencyMs: LATENCY_MS, apiKey: API_KEY });
	const context: Context = {
		emulator,
		credentials: { apiKey: API_KEY, baseUrl: emulator.baseUrl },
		plain: new PlainClient(emulator.baseUrl, API_KEY),
	};
	const httpNode = 'node' in loaded ? loaded.node : undefined;
	const httpReason = 'reason' in loaded ? loaded.reason : undefined;
	try {
		const out: string[] = [];
		const verdicts: Verdict[] = [];
		if (!RATE_LIMIT_ONLY && !AUTO_ONLY) {
			progress('bulk writes');
			const writes = await measureWrites(context, httpNode, httpReason);
			progress('rate-limited writes');
			const limited = await measureRateLimited(context);
			progress('trigger catch-up');
			const { trigger, memory } = await measureTrigger(context);
			progress('trigger catch-up against each service variant');
			const variants = await measureAuditVariants(context.emulator, context.credentials);
			const part = report({ writes, limited, trigger, memory, variants });
			out.push(...part.out);
			verdicts.push(...part.verdicts);
		}
		if (!AUTO_ONLY) {
			progress('rate limits');
			const cells = await measureRateLimits({
				emulator,
				credentials: context.credentials,
				owner: OWNER,
				httpNode,
				items: RATE_LIMIT_ITEMS,
				runs: RUNS,
			});
			writeRateLimitChart(cells, RATE_LIMIT_ITEMS, CHART);
			out.push('', ...rateLimitReport(cells, RATE_LIMIT_ITEMS, RUNS));
			if (httpReason) out.push(`  HTTP Request node: n/a (${httpReason})`);
			out.push(`  Chart (Auto against fixed 32 at the first limit): ${CHART}`);
			verdicts.push(...rateLimitVerdicts(cells));
		}
		if (!RATE_LIMIT_ONLY) {
			const auto = await measureAutoTargets({
				emulator,
				credentials: context.credentials,
				owner: OWNER,
				httpNode,
				runs: RUNS,
				singleSeconds: SMOKE ? 1 : 10,
				sharedItems: SMOKE ? 10 : 200,
				unlimitedItems: ITEMS,
			});
			out.push('', ...auto.out);
			verdicts.push(...auto.verdicts);
		}

		console.log(
			[
				...header(cpus, loadBefore),
				...out,
				'',
				'Targets',
				table(verdictRows(verdicts)),
				'',
				`Bench time: ${seconds(performance.now() - benchStart)}${SMOKE ? ' (smoke: a few items, one run; the figures mean nothing)' : ''}`,
			].join('\n'),
		);
	} finally {
		context.plain.close();
		await emulator.stop();
	}
}

function header(cpus: os.CpuInfo[], loadBefore: string): string[] {
	return [
		'',
		`Machine: ${cpus[0]?.model ?? 'unknown CPU'}, ${cpus.length} cores, Node ${process.version}, ${os.platform()} ${os.arch()}`,
		`Load average (1/5/15 min): ${loadBefore} before, ${loadAverage()} after`,
		`Emulator: own process, +${LATENCY_MS} ms on every /v1 request. Figures: median of ${RUNS} runs, after a warm-up.`,
	];
}

/** Auto under every limit: no failed item, 90% of the limit, few 429s; without one, near the best fixed. */
function rateLimitVerdicts(cells: RateCell[]): Verdict[] {
	const verdicts: Verdict[] = [];
	const unlimited = cells.filter((cell) => cell.limit === undefined && cell.variant !== 'http');
	for (const limit of LIMITS) {
		const auto = cells.find((cell) => cell.limit === limit && cell.variant === 'auto')!;
		const name = limit ? `${limit.requestsPerSecond}/s` : 'no limit';
		const refusedShare = auto.run.refused / Math.max(1, auto.run.sent);
		verdicts.push(
			[`(5) Auto, ${name}: failed items`, String(auto.run.failed), '0', auto.run.failed === 0],
			[
				`(5) Auto, ${name}: requests answered 429`,
				`${auto.run.refused} / ${auto.run.sent} (${percent(refusedShare)})`,
				'<= 10%',
				refusedShare <= 0.1,
			],
		);
		if (limit) {
			const share = shareOfLimit(auto)!;
			verdicts.push([
				`(5) Auto, ${name}: share of the limit`,
				percent(share),
				'>= 90%',
				share >= 0.9,
			]);
		} else {
			const best = unlimited
				.filter((cell) => cell.variant !== 'auto')
				.reduce((a, b) => (b.run.ms < a.run.ms ? b : a));
			const ratio = auto.run.ms / best.run.ms;
			verdicts.push([
				`(5) Auto, no limit: time / best fixed (${best.variant}, ${seconds(best.run.ms)})`,
				`${seconds(auto.run.ms)}, ${times(ratio)}`,
				'<= 1.2x',
				ratio <= 1.2,
			]);
		}
	}
	return verdicts;
}

function report(input: {
	writes: WriteResults;
	limited: Awaited<ReturnType<typeof measureRateLimited>>;
	trigger: TriggerResults;
	memory: MemoryResult[];
	variants: VariantResult[];
}): { out: string[]; verdicts: Verdict[] } {
	const { writes, limited, trigger, memory, variants } = input;
	const floor = median(writes.floor);
	const c1 = median(writes.c1);
	const c8 = median(writes.c8);
	const c32 = median(writes.c32);
	const http = writes.http ? median(writes.http) : undefined;
	/** One request's round trip, as the sequential floor sees it. */
	const roundTrip = floor / ITEMS;
	/** Lowest time at a concurrency on this wire: every slot busy, ceil(items / slots) round trips. */
	const wireFloor = (concurrency: number) => Math.ceil(ITEMS / concurrency) * roundTrip;
	const runs = (values: number[]) => values.map((ms) => (ms / 1000).toFixed(2)).join(' ');
	const writeRow = (label: string, variant: WriteVariant, concurrency: number): string[] => {
		const values = writes[variant];
		return values
			? [
					label,
					seconds(median(values)),
					runs(values),
					`${(median(values) / ITEMS).toFixed(1)} ms`,
					`${(median(writes.cpu[variant]) / ITEMS).toFixed(2)} ms`,
					seconds(wireFloor(concurrency)),
				]
			: [label, 'n/a', '', '', '', seconds(wireFloor(concurrency))];
	};

	const pagesFloor = Math.ceil(BACKLOG / PAGE_SIZE);
	const requests = median(trigger.requests);
	const nodeMs = median(trigger.nodeMs);
	const plainMs = median(trigger.plainMs);
	const cpuPerPage = (values: number[], pages: number) =>
		values.length ? `${(median(values) / pages).toFixed(1)} ms` : 'n/a';

	const [memoryBig, memorySmall, memorySmallBacklog] = memory;
	const live = (result: MemoryResult | undefined) =>
		result?.live.length ? median(result.live) : undefined;
	const ratio = (a: number | undefined, b: number | undefined) =>
		a === undefined || b === undefined ? undefined : a / b;
	const capRatio = ratio(live(memorySmall), live(memoryBig));
	const backlogRatio = ratio(live(memorySmall), live(memorySmallBacklog));

	const out: string[] = [];
	out.push('');
	out.push(
		`1-2. Bulk write: ${ITEMS} x tag create (POST /tags); our node through n8n-core, mode "trigger"`,
	);
	out.push(
		table([
			['Run', 'Median', 'Runs (s)', 'Per item', 'Client CPU per item', 'Wire floor*'],
			writeRow('plain keep-alive client, one by one (floor)', 'floor', 1),
			writeRow('this node, concurrency 1', 'c1', 1),
			writeRow('this node, concurrency 8', 'c8', 8),
			writeRow('this node, concurrency 32', 'c32', 32),
			writeRow(
				`n8n HTTP Request node v${HTTP_REQUEST_NODE_VERSION}, all items at once`,
				'http',
				ITEMS,
			),
		]),
	);
	out.push(
		`  * ceil(${ITEMS} / in flight) x ${roundTrip.toFixed(1)} ms (the floor's round trip): the least any client can take with that many in flight.`,
	);
	if (writes.httpReason) out.push(`  HTTP Request node: n/a (${writes.httpReason})`);
	out.push('');
	out.push(
		`Rate-limited API: concurrency 32; ${RATE_LIMITED.count} POST /tags after the first ${RATE_LIMITED.skip} answered 429, Retry-After: ${RATE_LIMITED.retryAfterSeconds}`,
	);
	out.push(
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
	);
	out.push('');
	out.push(
		`3. Trigger catch-up: ${number(BACKLOG)}-entry backlog, one poll (maxItemsPerPoll ${number(BACKLOG)}, lookbackSeconds 60)`,
	);
	out.push(
		table([
			[
				'Run',
				'Median',
				'Runs (s)',
				'Requests',
				'Entries',
				'Per page',
				'Client CPU per page',
				'Emulator CPU per page',
			],
			[
				'plain keep-alive client, same pages',
				seconds(plainMs),
				runs(trigger.plainMs),
				String(trigger.plainPages),
				number(BACKLOG),
				`${(plainMs / trigger.plainPages).toFixed(1)} ms`,
				cpuPerPage(trigger.plainCpu, trigger.plainPages),
				cpuPerPage(trigger.plainEmulatorCpu, trigger.plainPages),
			],
			[
				'this trigger, one poll',
				seconds(nodeMs),
				runs(trigger.nodeMs),
				String(requests),
				number(median(trigger.emitted)),
				`${(nodeMs / requests).toFixed(1)} ms`,
				cpuPerPage(trigger.nodeCpu, requests),
				cpuPerPage(trigger.nodeEmulatorCpu, requests),
			],
		]),
	);
	out.push(
		`  Each page costs the emulator its latency plus a sort of the whole log; the same for both clients.`,
	);
	out.push('');
	if (memory.length) {
		out.push(
			'   Heap growth of one poll: JS object heap above its size before the poll; global.gc() before and after, output still held',
		);
		out.push(
			table([
				[
					'Poll',
					'Emitted',
					'Live growth',
					'Runs (MiB)',
					'Per emitted entry',
					'Peak, garbage included',
				],
				...memory.map((result) => [
					result.label,
					number(result.emitted),
					mib(median(result.live)),
					result.live.map((bytes) => (bytes / 1024 / 1024).toFixed(1)).join(' '),
					`${Math.round(median(result.live) / result.emitted)} B`,
					mib(median(result.peakUsed)),
				]),
			]),
		);
	} else {
		out.push('   Heap growth: n/a (needs node --expose-gc, as `npm run bench` runs it)');
	}

	out.push('');
	out.push(
		`6. Trigger catch-up against each service the spec allows (test/emulator/variants.ts): ${number(VARIANT_BACKLOG)}-entry backlog, one poll`,
	);
	out.push(table(auditVariantsTable(variants)));
	const specVariant = variants.find(({ name }) => name === 'spec-following');

	const c32Floor = wireFloor(32);
	const verdicts: Verdict[] = [
		['(1) concurrency 1 / sequential floor', times(c1 / floor), '<= 1.15x', c1 / floor <= 1.15],
		['(2) concurrency 1 / concurrency 8', times(c1 / c8), '>= 5x', c1 / c8 >= 5],
		[
			'(2) concurrency 32 / HTTP Request node',
			http === undefined ? 'n/a' : times(c32 / http),
			http === undefined
				? '<= 1.2x'
				: `<= 1.2x (${seconds(1.2 * http)}; wire floor at 32 in flight: ${seconds(c32Floor)})`,
			http === undefined ? undefined : c32 / http <= 1.2,
		],
		[
			'(3) trigger requests / ceil(N/100)',
			`${requests} / ${pagesFloor}`,
			'<= +2%',
			requests <= pagesFloor * 1.02,
		],
		[
			'(3) trigger time / plain client',
			times(nodeMs / plainMs),
			'<= 1.5x',
			nodeMs / plainMs <= 1.5,
		],
		[
			'(3) live heap: cap 2,000 / cap 20,000 (20,000 backlog)',
			capRatio === undefined ? 'n/a' : times(capRatio),
			'<= 0.2x (the caps differ 10x)',
			capRatio === undefined ? undefined : capRatio <= 0.2,
		],
		[
			'(3) live heap, cap 2,000: 20,000 backlog / 2,000 backlog',
			backlogRatio === undefined ? 'n/a' : times(backlogRatio),
			'<= 1.5x (the backlogs differ 10x)',
			backlogRatio === undefined ? undefined : backlogRatio <= 1.5,
		],
		[
			'(6) spec-following catch-up: requests / ceil(N/100)',
			`${specVariant?.requests} / ${Math.ceil(VARIANT_BACKLOG / PAGE_SIZE)}`,
			'= ceil(N/100)',
			specVariant?.requests === Math.ceil(VARIANT_BACKLOG / PAGE_SIZE),
		],
		[
			'(6) every variant emits the whole backlog',
			variants.map(({ emitted }) => emitted).join(' '),
			`>= ${number(VARIANT_BACKLOG)} each`,
			variants.every(({ emitted }) => emitted >= VARIANT_BACKLOG),
		],
		[
			'429s at concurrency 32: every item succeeds',
			`${limited.succeeded} / ${ITEMS}, ${limited.absorbed} 429s absorbed`,
			`${ITEMS} / ${ITEMS}`,
			limited.succeeded === ITEMS && !limited.failed && limited.absorbed > 0,
		],
	];
	return { out, verdicts };
}

main().catch((error) => {
	console.error(error);
	process.exitCode = 1;
});
