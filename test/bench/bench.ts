/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, no-console -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * `npm run bench`: how fast the nodes go against an API that answers in a fixed 20 ms, next to
 * what the wire allows. Not a test: it prints a table of medians, targets and PASS/MISS.
 *
 * 1. 500 × tag create with our node at concurrency 1, against a plain keep-alive client sending
 *    the same requests one by one (the sequential floor) (writes.ts).
 * 2. The same at concurrency 8 and 32, and n8n's HTTP Request node (every item at once).
 * 3. Trigger catch-up of a 20,000-entry backlog in one poll: requests, time against the plain
 *    client reading the same pages, and heap growth with a cap of 20,000 vs 2,000
 *    (trigger-backlog.ts, trigger-report.ts).
 * 4. Concurrency 32 against an API answering 429 + Retry-After: 1 for a while: slower, not failed
 *    (writes.ts).
 * 5. 600 × tag create under rate limits of 50/s and 400/s and without one: Concurrency Auto
 *    against fixed 1, 8 and 32 and n8n's HTTP Request node (rate-limit.ts), and the chart of
 *    Auto against fixed 32 in docs/ (rate-limit-chart.ts).
 * 6. Trigger catch-up against every service variant the spec allows (audit-variants.ts).
 * 7. Many items changing a few records (Tag → Update over four tags): Auto against one at a time
 *    and n8n's HTTP Request node (few-records.ts).
 * 8. Services without a rate limit, of finite capacity (workers, a queue, 503 beyond it; and no
 *    limit): Auto against Fixed 1 to 64, failed items, 503s, requests held open (capacity.ts).
 * 9. Services whose answers vary in time: jitter, a heavy tail, workers with a tail, a service that
 *    slows down or speeds up between runs: Auto against Fixed 8 to 64 (latency.ts).
 * A. Concurrency Auto's targets (auto-targets.ts): one run alone at 50/s, 137/s, 400/s and
 *    1,000/s; four runs against one limit, in this process and in four; no limit, against n8n's
 *    HTTP Request node.
 * B. A picker and a trigger poll beside a bulk run at 1 request a second (beside-run.ts).
 *
 * Each measured figure is held against test/bench/figures.json (regressions.ts): one more than
 * 15% worse (or than its resolution, where wider) ends the benchmark with a non-zero exit;
 * `--update-figures` writes this run's instead.
 *
 * The emulator runs in a child process. Our nodes run through n8n-core (test/helpers/n8n.ts).
 * Environment (read in settings.ts): BENCH_RUNS (3), BENCH_LATENCY_MS (20), BENCH_ITEMS (500). Run with --expose-gc for the memory rows.
 * `--smoke`: one run of every section with a few items, in seconds, to prove the benchmark
 * still works (CI); its figures mean nothing and its chart goes to the temp folder.
 * `--only=rate-limit`: section 5 alone; `--only=auto`: section A alone; `--only=capacity`:
 * section 8 alone, `--only=latency`: section 9 alone, `--only=beside`: section B alone (the last
 * three without n8n's HTTP Request node, so without installing n8n); `--only=writes`: 1 to 4, 6, 7.
 */
import os from 'node:os';

import type { INodeType } from 'n8n-workflow';

import { auditVariantsTable, measureAuditVariants, VARIANT_BACKLOG } from './audit-variants';
import { measureBesideRun } from './beside-run';
import { measureAutoTargets } from './auto-targets';
import { measureCapacity } from './capacity';
import { fewRecordsReport, measureFewRecords } from './few-records';
import { measureLatencyServices } from './latency';
import { startEmulatorProcess } from './emulator-process';
import { loadHttpRequestNode } from './http-request-node';
import { PlainClient } from './plain-client';
import { measureRateLimits, rateLimitReport, rateLimitVerdicts } from './rate-limit';
import { writeRateLimitChart } from './rate-limit-chart';
import { regressions, updateFigures } from './regressions';
import {
	API_KEY,
	AUTO_ONLY,
	BESIDE_ONLY,
	CAPACITY_ONLY,
	CHART,
	ITEMS,
	LATENCY_MS,
	LATENCY_ONLY,
	OWNER,
	PAGE_SIZE,
	RATE_LIMIT_ITEMS,
	RATE_LIMIT_ONLY,
	RUNS,
	WRITES_ONLY,
	SMOKE,
	type BenchContext,
} from './settings';
import { benchStart, number, progress, seconds, table, type Verdict } from './tools';
import { measureTrigger } from './trigger-backlog';
import { triggerReport } from './trigger-report';
import { measureRateLimited, measureWrites, rateLimitedReport, writesReport } from './writes';

// n8n logs every error a node throws (the HTTP Request node's retries of 429s, here) to stdout,
// which holds the report; its logger reads the level when it is first used, after this line.
process.env.N8N_LOG_LEVEL ??= 'silent';

interface Section {
	out: string[];
	verdicts: Verdict[];
}

/** Sections 1 to 4, 6 and 7. */
async function measureWritesAndTrigger(
	context: BenchContext,
	httpNode: INodeType | undefined,
	httpReason: string | undefined,
): Promise<Section> {
	progress('bulk writes');
	const writes = writesReport(await measureWrites(context, httpNode, httpReason));
	progress('rate-limited writes');
	const limited = rateLimitedReport(await measureRateLimited(context));
	progress('trigger catch-up');
	const { trigger, memory } = await measureTrigger(context);
	const catchUp = triggerReport(trigger, memory);
	progress('trigger catch-up against each service variant');
	const variants = await measureAuditVariants(context.emulator, context.credentials);
	progress('many items, few records');
	const fewRecords = fewRecordsReport(await measureFewRecords(context, httpNode));
	const specVariant = variants.find(({ name }) => name === 'spec-following');
	const pages = Math.ceil(VARIANT_BACKLOG / PAGE_SIZE);
	return {
		out: [
			...writes.out,
			...limited.out,
			...catchUp.out,
			'',
			`6. Trigger catch-up against each service the spec allows (test/emulator/variants.ts): ${number(VARIANT_BACKLOG)}-entry backlog, one poll`,
			table(auditVariantsTable(variants)),
			...fewRecords.out,
		],
		verdicts: [
			...writes.verdicts,
			...catchUp.verdicts,
			[
				'(6) spec-following catch-up: requests / ceil(N/100)',
				`${specVariant?.requests} / ${pages}`,
				'= ceil(N/100)',
				specVariant?.requests === pages,
			],
			[
				'(6) every variant emits the whole backlog',
				variants.map(({ emitted }) => emitted).join(' '),
				`>= ${number(VARIANT_BACKLOG)} each`,
				variants.every(({ emitted }) => emitted >= VARIANT_BACKLOG),
			],
			...limited.verdicts,
			...fewRecords.verdicts,
		],
	};
}

/** Section 5, and its chart. */
async function measureRateLimitSection(
	context: BenchContext,
	httpNode: INodeType | undefined,
	httpReason: string | undefined,
): Promise<Section> {
	progress('rate limits');
	const cells = await measureRateLimits({
		emulator: context.emulator,
		credentials: context.credentials,
		owner: OWNER,
		httpNode,
		items: RATE_LIMIT_ITEMS,
		runs: RUNS,
	});
	writeRateLimitChart(cells, RATE_LIMIT_ITEMS, CHART);
	const out = ['', ...rateLimitReport(cells, RATE_LIMIT_ITEMS, RUNS)];
	if (httpReason) out.push(`  HTTP Request node: n/a (${httpReason})`);
	out.push(`  Chart (Auto against fixed 32 at the first limit): ${CHART}`);
	return { out, verdicts: rateLimitVerdicts(cells) };
}

async function main() {
	// First, so that installing n8n (once per machine) weighs on no figure nor the load average.
	const loaded =
		CAPACITY_ONLY || LATENCY_ONLY || BESIDE_ONLY
			? { reason: 'not run' }
			: await loadHttpRequestNode();
	const cpus = os.cpus();
	const loadBefore = loadAverage();
	const emulator = await startEmulatorProcess({ latencyMs: LATENCY_MS, apiKey: API_KEY });
	const context: BenchContext = {
		emulator,
		credentials: { apiKey: API_KEY, baseUrl: emulator.baseUrl },
		plain: new PlainClient(emulator.baseUrl, API_KEY),
	};
	const httpNode = 'node' in loaded ? loaded.node : undefined;
	const httpReason = 'reason' in loaded ? loaded.reason : undefined;
	try {
		const sections: Section[] = [];
		const all = [
			RATE_LIMIT_ONLY,
			AUTO_ONLY,
			CAPACITY_ONLY,
			LATENCY_ONLY,
			BESIDE_ONLY,
			WRITES_ONLY,
		].every((only) => !only);
		if (all || WRITES_ONLY)
			sections.push(await measureWritesAndTrigger(context, httpNode, httpReason));
		if (all || RATE_LIMIT_ONLY)
			sections.push(await measureRateLimitSection(context, httpNode, httpReason));
		if (all || CAPACITY_ONLY) {
			progress('services without a rate limit');
			sections.push(await measureCapacity(context));
		}
		if (all || LATENCY_ONLY) {
			progress('services whose answers vary in time');
			sections.push(await measureLatencyServices(context));
		}
		if (all || AUTO_ONLY) {
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
			sections.push({ out: ['', ...auto.out], verdicts: auto.verdicts });
		}
		if (all || BESIDE_ONLY) sections.push(await measureBesideRun(context));
		report(sections, cpus, loadBefore);
	} finally {
		context.plain.close();
		await emulator.stop();
	}
}

// ----- report -----

/** The report, the targets, and the figures held against the committed ones (or written). */
function report(sections: Section[], cpus: os.CpuInfo[], loadBefore: string): void {
	const verdicts = sections.flatMap((section) => section.verdicts);
	const worse = SMOKE ? [] : regressions(verdicts);
	const lines = [
		...header(cpus, loadBefore),
		...sections.flatMap(({ out }) => out),
		'',
		'Targets',
		table(verdictRows(verdicts)),
		'',
		`Bench time: ${seconds(performance.now() - benchStart)}${SMOKE ? ' (smoke: a few items, one run; the figures mean nothing, and are not held against the committed ones)' : ''}`,
	];
	if (process.argv.includes('--update-figures'))
		lines.push(`Figures written to test/bench/figures.json: ${updateFigures(verdicts)}`);
	else if (worse.length) {
		lines.push(
			'',
			'Regressions against test/bench/figures.json (more than 15%, or their resolution, worse)',
		);
		lines.push(table([['Figure', 'Committed', 'Now'], ...worse]));
		process.exitCode = 1;
	}
	console.log(lines.join('\n'));
}

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

function header(cpus: os.CpuInfo[], loadBefore: string): string[] {
	return [
		'',
		`Machine: ${cpus[0]?.model ?? 'unknown CPU'}, ${cpus.length} cores, Node ${process.version}, ${os.platform()} ${os.arch()}`,
		`Load average (1/5/15 min): ${loadBefore} before, ${loadAverage()} after`,
		`Emulator: own process, +${LATENCY_MS} ms on every /v1 request. Figures: median of ${RUNS} runs, after a warm-up.`,
	];
}

main().catch((error) => {
	console.error(error);
	process.exitCode = 1;
});
