/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * What n8n does to a published audit-log trigger over its life (E2E_ONLY=lifecycle), under each
 * scheduler the n8n under test has: its default one, and (2.36 and later) the durable one. One
 * workflow per scheduler, each with an emulator and a credential of its own and an n8n main on a
 * database of its own (a copy of the run's, made while no n8n runs on it), all at once. Entries
 * stream in while, in turn:
 * 1. the workflow's name and Poll Times are changed through n8n's public API (PUT), and n8n
 *    publishes the edit;
 * 2. it is unpublished for two minutes (two polls' time), then published again;
 * 3. it is unpublished, n8n stopped, entries logged, n8n started again on the same database, and
 *    the workflow published again;
 * 4. a filter (Events: one text) is set while it is published, every entry before it emitted.
 * Each scenario ends with every entry logged so far emitted exactly once (after 4: those logged
 * before the filter, and those after it that match it), and nothing else.
 */
import assert from 'node:assert/strict';
import { cpSync } from 'node:fs';
import { join } from 'node:path';

import type { AuditLogEntry } from '../../../nodes/DataIntegrationManagement/client/types';
import type { EmulatorControl } from './emulator';
import {
	EDITED_POLL_TIMES,
	EVENT_FILTER,
	Lifecycle,
	LIFECYCLE_CONFIGURATIONS,
	TRIGGER_NODE,
} from './lifecycle-run';
import type { N8n } from './n8n';
import { stopService, waitFor, type Service } from './processes';
import type { Check } from './steps';
import { emittedCounts, expectNoRequests, startStream, unpublishAndSettle } from './trigger-runs';

/** Two polls' time. */
const UNPUBLISHED_MS = 120_000;

type Stream = ReturnType<typeof startStream>;

/** Runs `body` while entries stream in; the stream stops however `body` ends. */
async function withStream<T>(emulator: EmulatorControl, body: (stream: Stream) => Promise<T>) {
	const stream = startStream(emulator);
	try {
		return await body(stream);
	} finally {
		await stream.stop();
	}
}

/** Waits until the stream logged `count` more entries. */
async function streamed(stream: Stream, count: number): Promise<void> {
	const from = stream.ids.length;
	await waitFor(
		`${count} more entries to stream in`,
		() => (stream.ids.length >= from + count ? true : undefined),
		{ timeoutMs: 30_000, intervalMs: 250 },
	);
}

const matchesFilter = (entry: AuditLogEntry) => entry.event.toLowerCase().includes(EVENT_FILTER);

/** n8n started, the workflow published while entries stream in, and the first of them emitted. */
async function publish(run: Lifecycle, stream: Stream): Promise<void> {
	await run.start();
	await run.api.publish(run.id);
	const trigger = (await run.api.workflow(run.id)).nodes.find(({ name }) => name === TRIGGER_NODE);
	await waitFor(
		'the first entries of the stream to be emitted',
		async () => {
			const emitted = await emittedCounts(run.api, run.id, TRIGGER_NODE);
			return stream.ids.some((id) => emitted.has(id)) ? true : undefined;
		},
		{ timeoutMs: 100_000, intervalMs: 1000, services: [run.main] },
	);
	run.check(
		`n8n ${run.context.n8n.runtime.version} started (${run.main.name}); ${run.id} published, polling every minute from ${String(trigger?.parameters.startDate)}; entries streaming in, the first emitted`,
	);
}

/** 1: the name and the Poll Times changed with PUT while entries stream in. */
async function editRepublished(run: Lifecycle, stream: Stream): Promise<void> {
	const name = `Audit log trigger through its lifecycle (${run.context.configuration.label}), edited`;
	const how = await run.edit({ pollTimes: EDITED_POLL_TIMES }, name);
	await streamed(stream, 6);
	await stream.stop();
	run.record(stream.entries);
	run.check(
		`edit: name and Poll Times (every minute → cron "${EDITED_POLL_TIMES.item[0].cronExpression}") changed while entries streamed in (${stream.ids.length}); ${how}`,
	);
	run.check(await run.eachOnce());
}

/** 2: unpublished for two minutes, then published again. */
async function unpublishedTwoMinutes(run: Lifecycle): Promise<void> {
	await withStream(run.emulator, async (stream) => {
		await unpublishAndSettle(run.api, run.id, [run.main]);
		const requests = await expectNoRequests(run.emulator, UNPUBLISHED_MS, [run.main]);
		await stream.stop();
		run.record(stream.entries);
		await run.api.publish(run.id);
		run.check(
			`unpublished for ${UNPUBLISHED_MS / 1000} s, no request reached the service meanwhile (${requests} before); ${stream.ids.length} entries logged; published again`,
		);
	});
	run.check(await run.eachOnce());
}

/** 3: unpublished, n8n stopped, entries logged, n8n started again on the same database. */
async function restartedWhileUnpublished(run: Lifecycle): Promise<void> {
	await withStream(run.emulator, async (stream) => {
		await unpublishAndSettle(run.api, run.id, [run.main]);
		const requests = await run.requestCount();
		await stopService(run.main);
		const whenStopped = stream.ids.length;
		await run.start();
		await stream.stop();
		run.record(stream.entries);
		const whileDown = stream.ids.length - whenStopped;
		assert.ok(whileDown > 0, 'no entry was logged while n8n was down');
		assert.equal(await run.requestCount(), requests, 'a request came while unpublished');
		await run.api.publish(run.id);
		run.check(
			`unpublished, n8n stopped; ${whileDown} entries logged until it was up again (${stream.ids.length} since the unpublish); started on the same database (${run.main.name}), published`,
		);
	});
	run.check(await run.eachOnce());
}

/**
 * 4: an Events filter set while published, every entry before it emitted. The newest entry
 * logged after it matches: once it is emitted, a poll read every entry before it.
 */
async function filterChanged(run: Lifecycle): Promise<void> {
	const before = run.expected.size;
	const how = await run.edit({ filters: { events: { texts: [EVENT_FILTER], match: 'anyOf' } } });
	const after = await withStream(run.emulator, async (stream) => {
		await waitFor(
			'entries after the change, two of them matching',
			() => (stream.entries.filter(matchesFilter).length >= 2 ? true : undefined),
			{ timeoutMs: 30_000, intervalMs: 250 },
		);
		await stream.stop();
		return stream.entries;
	});
	const newest = await run.emulator.addAuditEntries([
		{ timestamp: new Date().toISOString(), event: `${EVENT_FILTER} marker, the newest entry` },
	]);
	const logged = [...after, ...newest];
	run.record(logged, matchesFilter);
	run.check(
		`filter: Events "${EVENT_FILTER}" set while published, the ${before} entries before it emitted (${how}); ${logged.length} entries logged after it, ${logged.filter(matchesFilter).length} matching`,
	);
	run.check(await run.eachOnce());
}

/** One configuration's chain of scenarios; its workflow unpublished and its n8n stopped at the end. */
async function runChain(run: Lifecycle): Promise<void> {
	try {
		await run.emulator.reset();
		await withStream(run.emulator, async (stream) => {
			await publish(run, stream);
			await editRepublished(run, stream);
		});
		await unpublishedTwoMinutes(run);
		await restartedWhileUnpublished(run);
		await filterChanged(run);
	} finally {
		if (run.main?.exitStatus === undefined) await run.api?.unpublish(run.id).catch(() => undefined);
		if (run.main) await stopService(run.main);
	}
}

/**
 * An n8n per configuration, each on a database of its own: the first on the run's user folder,
 * each other one on a copy of it (made while no n8n runs on it).
 */
function userFolders(n8n: N8n): N8n[] {
	return LIFECYCLE_CONFIGURATIONS.map(({ id }, index) => {
		if (index === 0) return n8n;
		const folder = `${n8n.userFolder}-${id}`;
		cpSync(join(n8n.userFolder, '.n8n'), join(folder, '.n8n'), { recursive: true });
		return n8n.inUserFolder(folder);
	});
}

export interface LifecycleCheckContext {
	/** The run's n8n; none of its processes may run on its database. */
	n8n: N8n;
	apiKey: string;
	/** In LIFECYCLE_CONFIGURATIONS' order. */
	emulators: EmulatorControl[];
	started: (service: Service) => void;
}

/** Every configuration at once; fails naming what each failing configuration saw. */
export async function checkLifecycle(context: LifecycleCheckContext, check: Check): Promise<void> {
	const n8ns = userFolders(context.n8n);
	check(
		`${LIFECYCLE_CONFIGURATIONS.map(({ label }, index) => `${label}: ${n8ns[index].userFolder}`).join('; ')} (an n8n main each${LIFECYCLE_CONFIGURATIONS.length > 1 ? ', at once' : ''})`,
	);
	const outcomes = await Promise.allSettled(
		LIFECYCLE_CONFIGURATIONS.map(async (configuration, index) => {
			const { apiKey, emulators, started } = context;
			const emulator = emulators[index];
			const n8n = n8ns[index];
			await runChain(new Lifecycle({ n8n, apiKey, emulator, configuration, started, check }));
		}),
	);
	const failed = outcomes.flatMap((outcome, index) =>
		outcome.status === 'rejected'
			? [`${LIFECYCLE_CONFIGURATIONS[index].label}: ${String(outcome.reason)}`]
			: [],
	);
	if (failed.length) throw new Error(failed.join('\n'));
}
