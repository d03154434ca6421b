/** Section 3 of the benchmark, as the report prints it: tables and targets. */
import type { MemoryResult, TriggerResults } from './trigger-backlog';
import { BACKLOG, PAGE_SIZE } from './settings';
import {
	lower,
	median,
	mib,
	number,
	runsInSeconds,
	seconds,
	table,
	times,
	type Verdict,
} from './tools';

const cpuPerPage = (values: number[], pages: number) =>
	values.length ? `${(median(values) / pages).toFixed(1)} ms` : 'n/a';
const liveOf = (result: MemoryResult | undefined) =>
	result?.live.length ? median(result.live) : undefined;
const ratio = (a: number | undefined, b: number | undefined) =>
	a === undefined || b === undefined ? undefined : a / b;

/** Section 3: the tables and their targets. */
export function triggerReport(
	trigger: TriggerResults,
	memory: MemoryResult[],
): { out: string[]; verdicts: Verdict[] } {
	const pagesFloor = Math.ceil(BACKLOG / PAGE_SIZE);
	const requests = median(trigger.requests);
	const nodeMs = median(trigger.nodeMs);
	const plainMs = median(trigger.plainMs);
	const [memoryBig, memorySmall, memorySmallBacklog] = memory;
	const capRatio = ratio(liveOf(memorySmall), liveOf(memoryBig));
	const backlogRatio = ratio(liveOf(memorySmall), liveOf(memorySmallBacklog));

	const out: string[] = [''];
	out.push(
		`3. Trigger catch-up: ${number(BACKLOG)}-entry backlog, one poll (maxItemsPerPoll ${number(BACKLOG)}, lookbackSeconds 60)`,
	);
	out.push(catchUpTable(trigger));
	out.push(
		`  Each page costs the emulator its latency plus a sort of the whole log; the same for both clients.`,
	);
	out.push('');
	out.push(...heapReport(memory));
	const verdicts: Verdict[] = [
		[
			'(3) trigger requests / ceil(N/100)',
			`${requests} / ${pagesFloor}`,
			'<= +2%',
			requests <= pagesFloor * 1.02,
		],
		[
			'(3) trigger time / plain client',
			times(nodeMs / plainMs),
			'<= 1.10x',
			nodeMs / plainMs <= 1.1,
			lower('3 trigger time / plain client', nodeMs / plainMs),
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
	];
	return { out, verdicts };
}

/** Section 3's heap table, when the benchmark could collect garbage. */
function heapReport(memory: MemoryResult[]): string[] {
	const out: string[] = [];
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

	return out;
}

/** The one poll against the plain client reading the same pages. */
function catchUpTable(trigger: TriggerResults): string {
	const requests = median(trigger.requests);
	const nodeMs = median(trigger.nodeMs);
	const plainMs = median(trigger.plainMs);
	return table([
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
			runsInSeconds(trigger.plainMs),
			String(trigger.plainPages),
			number(BACKLOG),
			`${(plainMs / trigger.plainPages).toFixed(1)} ms`,
			cpuPerPage(trigger.plainCpu, trigger.plainPages),
			cpuPerPage(trigger.plainEmulatorCpu, trigger.plainPages),
		],
		[
			'this trigger, one poll',
			seconds(nodeMs),
			runsInSeconds(trigger.nodeMs),
			String(requests),
			number(median(trigger.emitted)),
			`${(nodeMs / requests).toFixed(1)} ms`,
			cpuPerPage(trigger.nodeCpu, requests),
			cpuPerPage(trigger.nodeEmulatorCpu, requests),
		],
	]);
}
