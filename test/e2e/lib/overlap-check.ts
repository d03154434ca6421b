/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * The audit-log trigger when n8n starts a poll while another poll of the same node still runs.
 * n8n's default scheduler calls the poll on every cron tick without waiting for the previous one,
 * with the same static data (see docs/n8n-schedulers.md), so two Poll Times entries firing in the
 * same second, or a poll slower than its interval, run two polls at once. Each scenario has a
 * workflow and an emulator of its own, and both run at once in one n8n, sharing the wait for the
 * minute ticks: published from a date before the seeded log (the poll n8n runs on publishing
 * emits it), then a backlog logged at once, a stream of entries while the polls run, and the
 * service slowed down. Every entry must come out exactly once.
 */
import { mkdirSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';

import { seedStore } from '../../emulator/seed';
import { Store } from '../../emulator/store';
import type { NewAuditEntry } from '../../emulator/types';
import type { EmulatorControl } from './emulator';
import { waitFor, type Service } from './processes';
import type { PublicApi } from './rest';
import type { Check } from './steps';
import { emittedCounts, startStream, writeTriggerWorkflow } from './trigger-runs';

export interface OverlapScenario {
	label: string;
	/** Its workflow's id, and the id of the credential pointing at its emulator. */
	id: string;
	/** The trigger's Poll Times. */
	pollTimes: Array<Record<string, unknown>>;
	/** How long the service takes to answer each request while the backlog is read. */
	latencyMs: number;
	/** Set when the scenario is a read from one cursor outlasting the minute between ticks. */
	outlastsMinute?: boolean;
}

export const OVERLAP_SCENARIOS: OverlapScenario[] = [
	{
		label: 'two Poll Times entries firing in the same second',
		id: 'dimOverlapTwice',
		// Two expressions for second 0 of every minute ("Every Minute" picks a random second of its
		// own; n8n registers one cron for two equal expressions, and 1.x refuses a 5-field "* * * * *").
		pollTimes: [
			{ mode: 'custom', cronExpression: '0 * * * * *' },
			{ mode: 'custom', cronExpression: '0 */1 * * * *' },
		],
		latencyMs: 1000,
	},
	{
		label: 'a service so slow that a poll outlasts the minute',
		id: 'dimOverlapSlow',
		pollTimes: [{ mode: 'everyMinute' }],
		// Pages of 100: the backlog and the stream take 3 to 5 requests, 75 s or more.
		latencyMs: 25_000,
		outlastsMinute: true,
	},
];

const TRIGGER_NODE = 'Audit log (overlapping polls)';
/** Before the seeded log (October 2026): the poll n8n runs on publishing emits all of it. */
const START_DATE = '2026-09-01T00:00:00.000Z';
const BACKLOG_SIZE = 250;
/** How long entries keep arriving once the backlog is logged: past the second tick of each scenario. */
const STREAM_MS = 100_000;
/** The most a scenario waits, after the stream, for every entry to be emitted. */
const DRAIN_MS = 240_000;
/**
 * Once every entry was emitted: a full minute of ticks, and time for a slow poll started before
 * the service sped up again, to emit anything a second time.
 */
const SETTLE_MS = 70_000;

export const overlapCredential = ({ id, label }: OverlapScenario) => ({
	id,
	name: `Data Integration Management API (${label})`,
});

/** Writes each scenario's workflow into `folder`, to import with the samples. */
export function writeOverlapWorkflows(folder: string): void {
	mkdirSync(folder);
	for (const scenario of OVERLAP_SCENARIOS) {
		writeTriggerWorkflow(folder, {
			id: scenario.id,
			name: `Audit log trigger with overlapping polls (${scenario.label})`,
			nodeName: TRIGGER_NODE,
			parameters: {
				pollTimes: { item: scenario.pollTimes },
				startFrom: 'date',
				startDate: START_DATE,
				filters: {},
				options: {},
			},
			credential: overlapCredential(scenario),
		});
	}
}

/** The ids of the entries the emulator is seeded with (the seed is the same on every start). */
function seededIds(): string[] {
	const store = new Store();
	seedStore(store);
	return store.auditEntries.map(({ id }) => id);
}

/** Logs `count` entries at once, stamped over the last few seconds, in groups sharing a timestamp. */
async function addBacklog(emulator: EmulatorControl, count: number): Promise<string[]> {
	const now = Date.now();
	const entries: NewAuditEntry[] = Array.from({ length: count }, (_, index) => ({
		timestamp: new Date(now - 5000 + Math.floor(index / 3) * 10).toISOString(),
		event: `backlog ${index}`,
	}));
	return (await emulator.addAuditEntries(entries)).map(({ id }) => id);
}

/**
 * Watches the emulator's request log (once a second) and times each poll's reading: the requests
 * of one poll, and of polls reading from the same cursor, ask for the same startTime.
 */
function watchReads(emulator: EmulatorControl, latencyMs: () => number) {
	const firstSeen: number[] = [];
	const spans = new Map<string, { from: number; to: number }>();
	let running = true;
	const loop = (async () => {
		while (running) {
			const requests = await emulator.requests().catch(() => []);
			for (let index = firstSeen.length; index < requests.length; index++) {
				const seen = Date.now();
				firstSeen.push(seen);
				const { path, query } = requests[index];
				if (path !== '/audit-logs' || query.startTime === undefined) continue;
				const key = String(query.startTime);
				const answered = seen + latencyMs();
				const span = spans.get(key);
				if (span) span.to = answered;
				else spans.set(key, { from: seen, to: answered });
			}
			await delay(1000);
		}
	})();
	return {
		/** The longest time (to a second) requests from one cursor kept the service busy. */
		longestReadMs: () => Math.max(0, ...[...spans.values()].map(({ from, to }) => to - from)),
		stop: async () => {
			running = false;
			await loop;
		},
	};
}

interface Outcome {
	scenario: OverlapScenario;
	logged: number;
	lost: number;
	duplicated: number;
	foreign: number;
	executions: number;
	/** The messages of the polls that failed (n8n records each as an execution in error). */
	failures: string[];
	longestReadMs: number;
}

interface Context {
	api: PublicApi;
	main: Service;
}

/** What the trigger emitted of the `logged` entries, and how its executions ended. */
async function outcomeOf(
	api: PublicApi,
	scenario: OverlapScenario,
	logged: string[],
	longestReadMs: number,
): Promise<Outcome> {
	const counts = await emittedCounts(api, scenario.id, TRIGGER_NODE);
	const known = new Set(logged);
	const executions = await api.executions(scenario.id);
	return {
		scenario,
		logged: logged.length,
		lost: logged.filter((id) => !counts.has(id)).length,
		duplicated: logged.filter((id) => (counts.get(id) ?? 0) > 1).length,
		foreign: [...counts.keys()].filter((id) => !known.has(id)).length,
		executions: executions.length,
		failures: executions
			.filter(({ status }) => status !== 'success')
			.map(({ status, data }) => data?.resultData.error?.message ?? status),
		longestReadMs,
	};
}

async function runScenario(
	{ api, main }: Context,
	scenario: OverlapScenario,
	emulator: EmulatorControl,
	check: Check,
): Promise<Outcome> {
	await emulator.reset();
	let latencyMs = 0;
	await emulator.setLatency(latencyMs);
	const seeded = seededIds();
	await api.publish(scenario.id);
	const reads = watchReads(emulator, () => latencyMs);
	let stream: ReturnType<typeof startStream> | undefined;
	try {
		await waitFor(
			`the poll n8n runs on publishing ${scenario.id} to emit the seeded log`,
			async () => ((await emittedCounts(api, scenario.id, TRIGGER_NODE)).size ? true : undefined),
			{ timeoutMs: 60_000, intervalMs: 1000, services: [main] },
		);
		const backlog = await addBacklog(emulator, BACKLOG_SIZE);
		stream = startStream(emulator);
		latencyMs = scenario.latencyMs;
		await emulator.setLatency(latencyMs);
		check(
			`${scenario.id} published (${scenario.label}; from ${START_DATE}): its first poll emitted the ${seeded.length} seeded entries; ${BACKLOG_SIZE} more logged at once, a stream for ${STREAM_MS / 1000} s, the service answering in ${latencyMs / 1000} s meanwhile`,
		);
		await delay(STREAM_MS);
		await stream.stop();
		// A slow service stays slow until everything is read: sped up as the stream ends, the
		// read under way could end just inside the minute, and the scenario would not happen.
		const speedUp = async () => {
			latencyMs = 0;
			await emulator.setLatency(latencyMs);
		};
		if (!scenario.outlastsMinute) await speedUp();
		const logged = [...seeded, ...backlog, ...stream.ids];

		const everyIdEmitted = async () => {
			const counts = await emittedCounts(api, scenario.id, TRIGGER_NODE);
			return logged.every((id) => counts.has(id)) ? true : undefined;
		};
		// A lost entry is counted below, with the duplicates, rather than failing here.
		await waitFor(`every entry logged for ${scenario.id} to be emitted`, everyIdEmitted, {
			timeoutMs: DRAIN_MS,
			intervalMs: 5000,
			services: [main],
		}).catch(() => undefined);
		await speedUp();
		await delay(SETTLE_MS);

		return await outcomeOf(api, scenario, logged, reads.longestReadMs());
	} finally {
		await reads.stop();
		await stream?.stop();
		await emulator.setLatency(0);
		await api.unpublish(scenario.id).catch(() => undefined);
	}
}

/**
 * Runs every scenario at once, each against its own emulator (in OVERLAP_SCENARIOS' order), and
 * prints lost and duplicated entries per scenario; fails if any scenario lost or duplicated one.
 */
export async function checkOverlappingPolls(
	context: Context,
	emulators: EmulatorControl[],
	check: Check,
): Promise<void> {
	const outcomes = await Promise.all(
		OVERLAP_SCENARIOS.map(
			async (scenario, index) => await runScenario(context, scenario, emulators[index], check),
		),
	);
	const notOnce: string[] = [];
	for (const outcome of outcomes) {
		const { scenario, logged, lost, duplicated, foreign, executions, failures, longestReadMs } =
			outcome;
		const failed = failures.length
			? `, ${failures.length} failed polls: ${[...new Set(failures)].join('; ')}`
			: '';
		const line = `${scenario.label}: ${logged} entries logged, lost ${lost}, duplicated ${duplicated}, foreign ${foreign} (${executions} executions${failed}; the longest read from one cursor kept the service busy ${Math.round(longestReadMs / 1000)} s)`;
		if (scenario.outlastsMinute && longestReadMs <= 60_000)
			notOnce.push(`${line}: no read outlasted the minute, the scenario did not happen`);
		else if (lost || duplicated || foreign) notOnce.push(line);
		else check(line);
	}
	if (notOnce.length) throw new Error(`not exactly once:\n${notOnce.join('\n')}`);
}
