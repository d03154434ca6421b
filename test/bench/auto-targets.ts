/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * The benchmark's Concurrency Auto targets, in real time against the emulator, with the node as
 * added now (no options: Auto), each measurement from a fresh pace (but one):
 * - one run alone at 50/s, 137/s (bursts of 3), 400/s and 1,000/s: share of the limit, and how
 *   late this process's event loop ran; at the highest, what Concurrency Fixed reaches instead;
 *   and as many items as the last without a limit, the most this process sends a second;
 * - four executions of 200 creates against 100/s (bursts of 10) in this process, all at once and
 *   2 s apart (they share one pace), and in four processes (auto-worker.ts, each pacing alone);
 * - no limit: 500 creates against n8n's HTTP Request node, alternating, in the same run: Auto's
 *   first run (a fresh pace), and a run on the pace it left.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { promisify } from 'node:util';
import type { INodeType } from 'n8n-workflow';

import { processPaces } from '../../nodes/DataIntegrationManagement/pacing/shared-pace';
import type { RateLimitSpec } from '../emulator';
import { fixedReference, type TagTarget } from './fixed-reference';
import { runHttpRequestNode } from './http-request-node';
import { createTagsOnce, type TagCreates } from './tag-creates';
import { higher, lower, median, percent, progress, seconds, times, type Verdict } from './tools';

export interface AutoContext extends TagTarget {
	httpNode: INodeType | undefined;
	runs: number;
	/** Seconds of the limit's worth of items in a single run; items a shared run; no-limit items. */
	singleSeconds: number;
	sharedItems: number;
	unlimitedItems: number;
}

const jain = (rates: number[]) =>
	rates.reduce((a, b) => a + b, 0) ** 2 / (rates.length * rates.reduce((a, b) => a + b * b, 0));
/** A 429 share moves by this much from one run to the next on the same code (3 to 3.5%, 8 to 9.4%). */
const REFUSED_RESOLUTION = 0.02;
const sleep = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));
let label = 0;

/** One execution of tag creates at the node's defaults, after `delayMs`. */
async function createTags(context: AutoContext, items: number, delayMs = 0): Promise<TagCreates> {
	await sleep(delayMs);
	return await createTagsOnce(context.credentials, context.owner, `auto ${++label}`, items);
}

type RunResult = TagCreates;

/** The same executions in processes of their own, each with its own paces. */
async function inProcesses(context: AutoContext, items: number, delays: number[]) {
	const worker = path.join(__dirname, 'auto-worker.ts');
	// Long enough for every process to have loaded n8n-core before the agreed start.
	const startAt = Date.now() + 5000;
	return await Promise.all(
		delays.map(async (delayMs) => {
			const job = {
				...context.credentials,
				owner: context.owner,
				items,
				startAt: startAt + delayMs,
			};
			const args = ['--import', 'tsx', worker, JSON.stringify({ ...job, label: `w${++label}` })];
			const { stdout } = await promisify(execFile)(process.execPath, args);
			return JSON.parse(stdout.trim().split('\n').pop()!) as RunResult;
		}),
	);
}

/** Several executions against `limit`: share of it together, 429s, failures, fairness. */
async function measureTogether(
	context: AutoContext,
	limit: RateLimitSpec,
	run: () => Promise<RunResult[]>,
	items: number,
) {
	await context.emulator.reset();
	await context.emulator.setRateLimit(limit);
	processPaces.clear();
	const runs = await run();
	const traffic = await context.emulator.traffic();
	const ms = Math.max(...runs.map((r) => r.endedAt)) - Math.min(...runs.map((r) => r.startedAt));
	const succeeded = runs.reduce((sum, r) => sum + r.succeeded, 0);
	return {
		share: succeeded / ((ms / 1000) * limit.requestsPerSecond),
		failed: items - succeeded,
		refused: traffic.filter((entry) => entry.status === 429).length / Math.max(1, traffic.length),
		fairness: jain(runs.map((r) => r.succeeded / Math.max(1, r.endedAt - r.startedAt))),
	};
}

type Together = Awaited<ReturnType<typeof measureTogether>>;

/** Medians over `context.runs` of a measurement. */
async function medians(name: string, context: AutoContext, measure: () => Promise<Together>) {
	const all: Together[] = [];
	for (let run = 1; run <= context.runs; run++) {
		const result = await measure();
		progress(
			`${name} ${run}/${context.runs}: ${percent(result.share)} of the limit, ${percent(result.refused)} 429s, ${result.failed} failed, fairness ${result.fairness.toFixed(2)}`,
		);
		all.push(result);
	}
	const of = (key: keyof Together) => median(all.map((result) => result[key]));
	return {
		share: of('share'),
		refused: of('refused'),
		fairness: of('fairness'),
		failed: Math.max(...all.map((r) => r.failed)),
		shares: all.map((r) => r.share),
	};
}

async function shared(context: AutoContext, verdicts: Verdict[], out: string[]) {
	const limit = { requestsPerSecond: 100, burst: 10 };
	const items = context.sharedItems;
	const cases: Array<[string, number[], boolean, number]> = [
		['4 runs in one process, all at once', [0, 0, 0, 0], false, 0.9],
		['4 runs in one process, 2 s apart', [0, 2000, 4000, 6000], false, 0.9],
		['4 processes, all at once', [0, 0, 0, 0], true, 0.85],
		['4 processes, 2 s apart', [0, 2000, 4000, 6000], true, 0.85],
	];
	out.push(
		`  ${items} x tag create per run, 4 runs against 100/s (burst 10); medians of ${context.runs}`,
	);
	for (const [name, delays, apart, target] of cases) {
		const run = apart
			? () => inProcesses(context, items, delays)
			: () => Promise.all(delays.map((delay) => createTags(context, items, delay)));
		const result = await medians(name, context, () =>
			measureTogether(context, limit, run, 4 * items),
		);
		out.push(
			`    ${name}: ${percent(result.share)} of the limit, ${percent(result.refused)} of requests 429, ${result.failed} failed, fairness ${result.fairness.toFixed(2)}`,
		);
		verdicts.push(
			[
				`(A) ${name}: share of the limit`,
				percent(result.share),
				`>= ${percent(target)}`,
				result.share >= target,
				higher(`A ${name}: share of the limit`, result.share),
			],
			[
				`(A) ${name}: failed items, 429s`,
				`${result.failed}, ${percent(result.refused)}`,
				'0, <= 10%',
				result.failed === 0 && result.refused <= 0.1,
				lower(`A ${name}: 429s`, result.refused, REFUSED_RESOLUTION),
			],
		);
		if (!apart)
			verdicts.push([
				`(A) ${name}: fairness (Jain)`,
				result.fairness.toFixed(2),
				'>= 0.9',
				result.fairness >= 0.9,
			]);
	}
}

async function single(context: AutoContext, verdicts: Verdict[], out: string[]) {
	const limits: RateLimitSpec[] = [
		{ requestsPerSecond: 50, burst: 10 },
		{ requestsPerSecond: 137, burst: 3 },
		{ requestsPerSecond: 400, burst: 10 },
		{ requestsPerSecond: 1000, burst: 10 },
	];
	out.push(
		`  One run alone, ${context.singleSeconds} s of the limit in items; medians of ${context.runs}`,
	);
	for (const limit of limits) {
		const items = context.singleSeconds * limit.requestsPerSecond;
		const name = `${limit.requestsPerSecond}/s, burst ${limit.burst}`;
		// A stall of the event loop longer than the bucket's slack sends more at once than it holds.
		const loop = monitorEventLoopDelay({ resolution: 1 });
		loop.enable();
		const result = await medians(name, context, () =>
			measureTogether(context, limit, async () => [await createTags(context, items)], items),
		);
		loop.disable();
		const late = (nanoseconds: number) => `${(nanoseconds / 1e6).toFixed(0)} ms`;
		out.push(
			`    ${name}: ${percent(result.share)} of the limit (runs: ${result.shares.map(percent).join(' ')}), ${percent(result.refused)} of requests 429, ${result.failed} failed; event loop late by ${late(loop.percentile(99.9))} (99.9th percentile), ${late(loop.max)} at most, against the bucket's ${((limit.burst / limit.requestsPerSecond) * 1000).toFixed(0)} ms of slack (burst / limit)`,
		);
		verdicts.push([
			`(A) one run, ${name}: share of the limit`,
			percent(result.share),
			'>= 90%',
			result.share >= 0.9 && result.failed === 0,
			higher(`A one run, ${name}: share of the limit`, result.share),
		]);
	}
	const highest = limits[limits.length - 1];
	await fixedReference(context, highest, context.singleSeconds * highest.requestsPerSecond, out);
	await ceiling(context, out, context.singleSeconds * highest.requestsPerSecond);
}

/** What this process creates a second without any limit: a share of the highest limit is bounded by it. */
async function ceiling(context: AutoContext, out: string[], items: number) {
	await context.emulator.reset();
	await context.emulator.setRateLimit(undefined);
	const rates: number[] = [];
	for (let run = 1; run <= context.runs; run++) {
		processPaces.clear();
		const { startedAt, endedAt } = await createTags(context, items);
		rates.push((items * 1000) / (endedAt - startedAt));
	}
	out.push(
		`    no limit, ${items} items (what this process sends at most, through n8n-core): ${median(rates).toFixed(0)}/s (runs: ${rates.map((rate) => rate.toFixed(0)).join(' ')})`,
	);
}

/** One execution of the HTTP Request node creating `items` tags at once: its time in ms. */
async function httpRequestNodeMs(context: AutoContext, run: number, items: number) {
	const start = Date.now();
	await runHttpRequestNode({
		nodeType: context.httpNode!,
		url: `${context.credentials.baseUrl}/tags`,
		headers: { 'x-api-key': context.credentials.apiKey },
		bodyParameters: [
			{ name: 'name', value: `={{ "http ${run} " + $json.index }}` },
			{ name: 'owner', value: context.owner },
		],
		items: Array.from({ length: items }, (_, index) => ({ index })),
	});
	return Date.now() - start;
}

/**
 * No limit: Auto's first run (a fresh pace: slow start from INITIAL_WINDOW), a run on the pace it
 * left (as a workflow run again within IDLE_MS gets), and the HTTP Request node, in turn.
 */
async function unlimited(context: AutoContext, verdicts: Verdict[], out: string[]) {
	const items = context.unlimitedItems;
	if (!context.httpNode) {
		verdicts.push(['(A) no limit: Auto / HTTP Request node', 'n/a', '<= 1.2x', undefined]);
		return;
	}
	await context.emulator.reset();
	await context.emulator.setRateLimit(undefined);
	const [fresh, learned, http]: number[][] = [[], [], []];
	const took = async (runs: number[]) => {
		const { startedAt, endedAt } = await createTags(context, items);
		runs.push(endedAt - startedAt);
	};
	for (let run = 1; run <= context.runs; run++) {
		processPaces.clear();
		await took(fresh);
		await took(learned);
		http.push(await httpRequestNodeMs(context, run, items));
		progress(
			`no limit ${run}/${context.runs}: Auto ${seconds(learned[run - 1])} (first run ${seconds(fresh[run - 1])}), HTTP Request node ${seconds(http[run - 1])}`,
		);
	}
	const ratio = (runs: number[]) => median(runs) / median(http);
	out.push(
		`  No limit, ${items} x tag create; medians of ${context.runs}: HTTP Request node ${seconds(median(http))}; Auto ${seconds(median(learned))} (${times(ratio(learned))}) on the pace a run left, ${seconds(median(fresh))} (${times(ratio(fresh))}) on a fresh pace`,
	);
	verdicts.push(
		[
			'(A) no limit, a run right after another: Auto / HTTP Request node',
			times(ratio(learned)),
			'<= 1.1x',
			ratio(learned) <= 1.1,
			lower('A no limit, after another: Auto / HTTP Request node', ratio(learned)),
		],
		[
			'(A) no limit, the node as added now (a fresh pace): Auto / HTTP Request node',
			times(ratio(fresh)),
			'<= 1.2x',
			ratio(fresh) <= 1.2,
			lower('A no limit, fresh: Auto / HTTP Request node', ratio(fresh)),
		],
	);
}

/** Every Auto target, with the report's lines and verdicts. */
export async function measureAutoTargets(context: AutoContext) {
	const out = [
		'A. Concurrency Auto (no options), each measurement from a fresh pace (and no limit also on the pace a run left)',
	];
	const verdicts: Verdict[] = [];
	progress('Auto: one run alone');
	await single(context, verdicts, out);
	progress('Auto: four runs against one limit');
	await shared(context, verdicts, out);
	progress('Auto: no limit, against the HTTP Request node');
	await unlimited(context, verdicts, out);
	return { out, verdicts };
}
