/**
 * The benchmark's rate-limit section: N tag creates against the emulator under a token-bucket
 * limit (50/s and 400/s, bursts of 10) and without one, with our node at Concurrency Auto and
 * fixed 1, 8, 32 and 64 ("On Error: Continue", so every failed item is counted), and with n8n's HTTP
 * Request node using its own Retry On Fail as a user would switch it on. Per run: time, items
 * that succeeded and failed, 429 answers, requests sent. Its chart is drawn by
 * ./rate-limit-chart.ts.
 */
import type { INodeParameters, INodeType } from 'n8n-workflow';

import { processPaces } from '../../nodes/DataIntegrationManagement/pacing/shared-pace';
import type { RateLimitSpec, TrafficEntry } from '../emulator';
import { runActionNode, type ApiCredentials } from '../helpers/n8n';
import type { EmulatorProcess } from './emulator-process';
import { runHttpRequestNode } from './http-request-node';
import { namedTags } from './tag-creates';
import {
	higher,
	interleaved,
	lower,
	median,
	percent,
	progress,
	seconds,
	table,
	timed,
	times,
	type Verdict,
} from './tools';

export interface RateLimitBenchContext {
	emulator: EmulatorProcess;
	credentials: ApiCredentials;
	owner: string;
	/** n8n's HTTP Request node, when the n8n install is there. */
	httpNode: INodeType | undefined;
	items: number;
	runs: number;
}

export const LIMITS: Array<RateLimitSpec | undefined> = [
	{ requestsPerSecond: 50, burst: 10 },
	{ requestsPerSecond: 400, burst: 10 },
	undefined,
];

/** Retry On Fail as the node's settings offer it when switched on: 3 tries, 1 s apart. */
const HTTP_NODE_RETRY = { retryOnFail: true, maxTries: 3, waitBetweenTries: 1000 };

export type Variant = 'auto' | 'c1' | 'c8' | 'c32' | 'c64' | 'http';

const VARIANT_LABELS: Record<Variant, string> = {
	auto: 'this node, Concurrency Auto',
	c1: 'this node, concurrency 1',
	c8: 'this node, concurrency 8',
	c32: 'this node, concurrency 32',
	c64: 'this node, concurrency 64',
	http: `n8n HTTP Request node, Retry On Fail (${HTTP_NODE_RETRY.maxTries} tries, ${HTTP_NODE_RETRY.waitBetweenTries} ms apart)`,
};

const NODE_OPTIONS: Record<Exclude<Variant, 'http'>, INodeParameters> = {
	auto: { concurrencyMode: 'auto' },
	c1: { concurrencyMode: 'fixed', concurrency: 1 },
	c8: { concurrencyMode: 'fixed', concurrency: 8 },
	c32: { concurrencyMode: 'fixed', concurrency: 32 },
	c64: { concurrencyMode: 'fixed', concurrency: 64 },
};

export interface RateRun {
	ms: number;
	succeeded: number;
	failed: number;
	/** 429 answers. */
	refused: number;
	/** Requests the emulator answered, 429s included. */
	sent: number;
	/** Tags the service created: more than `succeeded` when a node re-sent items that had worked. */
	created: number;
	traffic: TrafficEntry[];
}

export interface RateCell {
	limit: RateLimitSpec | undefined;
	variant: Variant;
	/** The run with the median time. */
	run: RateRun;
	times: number[];
}

const tagItems = (run: string, count: number) => namedTags(`rate ${run}`, count);

async function runVariant(context: RateLimitBenchContext, variant: Variant, run: string) {
	const items = tagItems(run, context.items);
	if (variant === 'http') {
		const result = await runHttpRequestNode({
			nodeType: context.httpNode!,
			url: `${context.credentials.baseUrl}/tags`,
			headers: { 'x-api-key': context.credentials.apiKey },
			bodyParameters: [
				{ name: 'name', value: '={{ $json.name }}' },
				{ name: 'owner', value: context.owner },
			],
			items,
			settings: HTTP_NODE_RETRY,
		});
		return result.items.filter(
			(item) => typeof (item.json.data as { id?: unknown } | undefined)?.id === 'string',
		).length;
	}
	const result = await runActionNode({
		credentials: context.credentials,
		mode: 'trigger',
		continueOnFail: true,
		items,
		parameters: {
			resource: 'tag',
			operation: 'create',
			name: '={{ $json.name }}',
			owner: { __rl: true, mode: 'id', value: context.owner },
			options: NODE_OPTIONS[variant],
		},
	});
	if (result.error) throw new Error(`${variant}: the node failed: ${result.error.message}`);
	return result.items.filter((item) => typeof item.json.id === 'string').length;
}

async function measureOnce(
	context: RateLimitBenchContext,
	limit: RateLimitSpec | undefined,
	variant: Variant,
	run: string,
): Promise<RateRun> {
	await context.emulator.reset();
	await context.emulator.setRateLimit(limit);
	// Each run from a fresh pace, not from what the run before it learned.
	processPaces.clear();
	const { ms, value: succeeded } = await timed(() => runVariant(context, variant, run));
	const traffic = await context.emulator.traffic();
	return {
		ms,
		succeeded,
		failed: context.items - succeeded,
		refused: traffic.filter((entry) => entry.status === 429).length,
		sent: traffic.length,
		created: traffic.filter((entry) => entry.status === 201 || entry.status === 200).length,
		traffic,
	};
}

const limitLabel = (limit: RateLimitSpec | undefined) =>
	limit ? `${limit.requestsPerSecond}/s, burst ${limit.burst}` : 'no limit';

export async function measureRateLimits(context: RateLimitBenchContext): Promise<RateCell[]> {
	const variants: Variant[] = ['auto', 'c1', 'c8', 'c32', 'c64'];
	if (context.httpNode) variants.push('http');
	const cells: RateCell[] = [];
	for (const limit of LIMITS) {
		const all = await interleaved(
			variants,
			() => context.runs,
			async (variant, run) => {
				const last = await measureOnce(context, limit, variant, `${variant} ${run}`);
				progress(
					`rate limit ${limitLabel(limit)}, ${variant} run ${run}/${context.runs}: ${seconds(last.ms)}, ${last.failed} failed, ${last.refused} x 429`,
				);
				return last;
			},
		);
		for (const [index, variant] of variants.entries()) {
			const runs = all[index];
			const times = runs.map((run) => run.ms);
			const middle = median(times);
			const run = runs.reduce((best, other) =>
				Math.abs(other.ms - middle) < Math.abs(best.ms - middle) ? other : best,
			);
			cells.push({ limit, variant, run, times });
		}
	}
	return cells;
}

/** Items a second that succeeded, as a share of the limit. */
export function shareOfLimit(cell: RateCell): number | undefined {
	return cell.limit
		? cell.run.succeeded / (cell.run.ms / 1000) / cell.limit.requestsPerSecond
		: undefined;
}

export function rateLimitReport(cells: RateCell[], items: number, runs: number): string[] {
	const out: string[] = [];
	out.push(
		`5. Rate limits: ${items} x tag create against a token bucket answering 429 + Retry-After (whole seconds, at least 1); "On Error: Continue"; the run with the median time of ${runs}, one run of each setting in turn`,
	);
	for (const limit of LIMITS) {
		const rows = cells.filter((cell) => cell.limit === limit);
		out.push(`  ${limitLabel(limit)}`);
		out.push(
			table(
				[
					[
						'Run',
						limit ? 'Share of the limit' : 'Time',
						'Time',
						'Runs (s)',
						'Failed items',
						'429s (of requests sent)',
						'Tags created',
					],
					...rows.map((cell) => [
						VARIANT_LABELS[cell.variant],
						limit ? percent(shareOfLimit(cell)!) : seconds(cell.run.ms),
						seconds(cell.run.ms),
						cell.times.map((ms) => (ms / 1000).toFixed(2)).join(' '),
						String(cell.run.failed),
						`${cell.run.refused} (${percent(cell.run.refused / Math.max(1, cell.run.sent))} of ${cell.run.sent})`,
						String(cell.run.created),
					]),
				],
				'    ',
			),
		);
	}
	return out;
}

/** Auto under every limit: no failed item, 90% of the limit, few 429s; without one, near the best fixed. */
export function rateLimitVerdicts(cells: RateCell[]): Verdict[] {
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
				higher(`5 Auto, ${name}: share of the limit`, share),
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
				lower('5 Auto, no limit: time / best fixed', ratio),
			]);
		}
	}
	return verdicts;
}
