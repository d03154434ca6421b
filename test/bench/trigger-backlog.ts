/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * Section 3 of the benchmark: the trigger catching up on a 20,000-entry backlog in one poll,
 * against a plain client reading the same pages, and the heap that poll grows with a cap of the
 * whole backlog and of 2,000 entries.
 */
import v8 from 'node:v8';

import type { NewAuditEntry } from '../emulator';
import { pollTrigger } from '../helpers/n8n';
import { BACKLOG, PAGE_SIZE, RUNS, SMALL_CAP, type BenchContext } from './settings';
import { check, median, mib, number, progress, seconds, timed } from './tools';

/**
 * A day ago, one entry every 500 ms (20,000 end 21 hours ago): in the service's past, as logged
 * entries are. The cursor stops at the service's now, so entries after it stay inside the lookback
 * and in the poll's state: a backlog in the future would measure that instead of a catch-up.
 */
const BACKLOG_START = Date.now() - 24 * 3600_000;
const BACKLOG_STEP_MS = 500;

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
 * A poll of one entry: the last poll's output, left in a stack slot V8 has not overwritten, is
 * released before the baseline (without it, growth read as the new output less the old).
 */
async function releaseLastOutput(context: BenchContext): Promise<void> {
	await pollTrigger({ credentials: context.credentials, parameters: triggerParameters(1) });
}

/**
 * Runs one poll, timed, with its heap growth when global.gc is available (`--expose-gc`). The
 * collections happen outside the timed span; the 10 ms sampler only reads a counter.
 */
async function measuredPoll(context: BenchContext, cap: number) {
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

export interface TriggerResults {
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

export interface MemoryResult {
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

async function loadBacklog(context: BenchContext, count: number) {
	await context.emulator.reset();
	await context.emulator.addAuditEntries(backlogEntries(count));
}

/** The plain client reading the whole backlog, page by page: its figures go into `trigger`. */
async function timePlainRead(
	context: BenchContext,
	startTime: string,
	trigger: TriggerResults,
): Promise<number> {
	const cpuBefore = context.emulator.cpuMs();
	const plain = await timed(() => context.plain.readAuditLog(startTime));
	check(plain.value.entries === BACKLOG, `the plain client read ${plain.value.entries} entries`);
	trigger.plainMs.push(plain.ms);
	trigger.plainCpu.push(plain.cpuMs);
	trigger.plainPages = plain.value.pages;
	const plainCpu = diff(context.emulator.cpuMs(), cpuBefore);
	if (plainCpu !== undefined) trigger.plainEmulatorCpu.push(plainCpu);
	return plain.ms;
}

/**
 * Section 3: one poll of the whole backlog, timed against the plain client reading the same
 * pages; and, with a cap of the backlog, its heap growth (`big`).
 */
async function measureCatchUp(
	context: BenchContext,
): Promise<{ trigger: TriggerResults; big: MemoryResult }> {
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
		const plainMs = await timePlainRead(context, startTime, trigger);
		await releaseLastOutput(context);
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
			`trigger run ${run}/${RUNS}: plain ${seconds(plainMs)}, trigger ${seconds(poll.ms)}, ${sent.length} requests`,
		);
	}
	return { trigger, big };
}

/** Section 3: one poll of the whole backlog and of `SMALL_CAP` entries, with every measurement. */
export async function measureTrigger(
	context: BenchContext,
): Promise<{ trigger: TriggerResults; memory: MemoryResult[] }> {
	const { trigger, big } = await measureCatchUp(context);
	if (!(globalThis as { gc?: unknown }).gc) return { trigger, memory: [] };
	const memory: MemoryResult[] = [big];
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
			await releaseLastOutput(context);
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
