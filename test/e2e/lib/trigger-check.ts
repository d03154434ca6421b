/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * The audit-log trigger in a published workflow, polled by n8n's own scheduler at the shortest
 * interval it offers (every minute): entries added to the emulator after activation must each
 * start exactly one execution item, across polls, and a poll with nothing new must start none.
 */
import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';

import { SEED } from '../../emulator/seed';
import type { NewAuditEntry } from '../../emulator/types';
import type { EmulatorControl } from './emulator';
import { waitFor, type Service } from './processes';
import type { Execution, PublicApi } from './rest';
import type { Check } from './steps';
import { auditLogRequestCount, unpublishAndSettle } from './trigger-runs';
import type { SampleWorkflow } from './workflows';

/** Long enough for the next every-minute poll, and the execution it starts. */
const NEXT_POLL_MS = 90_000;

interface Emitted {
	executionId: string;
	id: string;
	timestamp: string;
}

interface Context {
	api: PublicApi;
	emulator: EmulatorControl;
	main: Service;
	workflow: SampleWorkflow & { triggerNode: string };
}

/** Every entry the trigger emitted, over all the workflow's executions, oldest execution first. */
async function emittedEntries({
	api,
	workflow,
}: Context): Promise<{ executions: Execution[]; emitted: Emitted[] }> {
	const executions = (await api.executions(workflow.id)).sort(
		(a, b) => Number(a.id) - Number(b.id),
	);
	const emitted = executions.flatMap((execution) => {
		const items =
			execution.data?.resultData.runData[workflow.triggerNode]?.[0]?.data?.main[0] ?? [];
		return items.map(({ json }) => ({
			executionId: execution.id,
			id: String(json.id),
			timestamp: String(json.timestamp),
		}));
	});
	return { executions, emitted };
}

async function waitForEmitted(context: Context, ids: string[], what: string): Promise<Emitted[]> {
	return await waitFor(
		what,
		async () => {
			const { emitted } = await emittedEntries(context);
			return ids.every((id) => emitted.some((entry) => entry.id === id)) ? emitted : undefined;
		},
		{ timeoutMs: NEXT_POLL_MS, intervalMs: 2000, services: [context.main] },
	);
}

/** Whether n8n has saved the trigger's cursor in the workflow's static data. */
async function hasCursor({ api, workflow }: Context): Promise<boolean> {
	const { staticData } = await api.workflow(workflow.id);
	return Object.values(staticData ?? {}).some((node) => node && 'auditLogCursor' in node);
}

/** Adds entries stamped now; two of them share one timestamp, as a bulk action logs them. */
async function addEntries(emulator: EmulatorControl, events: string[]): Promise<string[]> {
	const shared = new Date().toISOString();
	const entries: NewAuditEntry[] = events.map((event, index) => ({
		event,
		timestamp: index < 2 ? shared : new Date(Date.parse(shared) + index).toISOString(),
		actor: { type: 'user', email: 'maya.patel@northwind-data.example' },
	}));
	return (await emulator.addAuditEntries(entries)).map(({ id }) => id);
}

/** Publishes the trigger; n8n's first poll (from now) only stores where it starts. */
async function publishFromNow(context: Context, check: Check): Promise<void> {
	const { api, emulator, workflow } = context;
	await emulator.reset();
	const published = await api.publish(workflow.id);
	assert.equal(published.active, true);
	check(
		`published "${workflow.name}" (POST /api/v1${api.publishPath(workflow.id)}); polls every minute, from now`,
	);

	// With "Start From: Now" the first poll (n8n runs one as it activates the workflow) only
	// records where it starts, in the workflow's static data.
	await waitFor(
		'the trigger to record its start',
		async () => ((await hasCursor(context)) ? true : undefined),
		{
			timeoutMs: NEXT_POLL_MS,
			intervalMs: 1000,
			services: [context.main],
		},
	);
	assert.deepEqual((await emittedEntries(context)).executions, []);
	check('the first poll stored its cursor in the workflow static data and started no execution');
}

/** One more poll, with nothing new: it must not start an execution. Returns what was emitted. */
async function pollWithNothingNew(context: Context, check: Check) {
	const { emulator } = context;
	const { executions } = await emittedEntries(context);
	const polls = await auditLogRequestCount(emulator);
	await waitFor(
		'one more poll',
		async () => ((await auditLogRequestCount(emulator)) > polls ? true : undefined),
		{
			timeoutMs: NEXT_POLL_MS,
			intervalMs: 2000,
			services: [context.main],
		},
	);
	await delay(5000);
	const final = await emittedEntries(context);
	assert.equal(
		final.executions.length,
		executions.length,
		'a poll with nothing new started an execution',
	);
	check(
		`a further poll with nothing new started no execution (${final.executions.length} executions in all)`,
	);

	return final;
}

/** As the README describes: the start asks for the newest entry, each later poll reads from its cursor. */
async function checkRequests(emulator: EmulatorControl, check: Check): Promise<void> {
	const [start, ...scans] = (await emulator.requests()).map(
		({ method, path, query }): Record<string, unknown> => ({ method, path, ...query }),
	);
	const page = {
		method: 'GET',
		path: '/audit-logs',
		limit: '100',
		offset: '0',
		sortBy: 'timestamp',
	};
	assert.deepEqual(start, { ...page, sortOrder: 'desc' });
	for (const scan of scans)
		assert.deepEqual(scan, { ...page, sortOrder: 'asc', startTime: scan.startTime });
	assert.ok(scans.every(({ startTime }) => Date.parse(String(startTime)) > 0));
	check(
		`the emulator received the start (GET /audit-logs?sortOrder=desc) and ${scans.length} polls (…sortOrder=asc&startTime=<cursor − lookback>), nothing else`,
	);
}

export async function checkAuditTrigger(context: Context, check: Check): Promise<void> {
	const { api, emulator, workflow } = context;
	await publishFromNow(context, check);
	const first = await addEntries(emulator, ['Tag created', 'Asset created', 'Integration paused']);
	const afterFirst = await waitForEmitted(context, first, 'a poll to emit the first 3 entries');
	check(
		`3 entries added (2 sharing a timestamp) → execution ${afterFirst.find(({ id }) => id === first[0])?.executionId} emitted them`,
	);

	const second = await addEntries(emulator, ['Tag updated', 'Connector created']);
	const afterSecond = await waitForEmitted(
		context,
		second,
		'a later poll to emit the next 2 entries',
	);
	check(
		`2 more entries added → execution ${afterSecond.find(({ id }) => id === second[0])?.executionId} emitted them`,
	);

	const final = await pollWithNothingNew(context, check);
	const added = [...first, ...second];
	const emittedIds = final.emitted.map(({ id }) => id);
	assert.deepEqual(
		[...emittedIds].sort(),
		[...added].sort(),
		'the trigger emitted entries other than exactly the added ones, once each',
	);
	assert.ok(
		final.executions.every(({ mode, status }) => mode === 'trigger' && status === 'success'),
	);
	check(
		`each of the ${added.length} new entries was emitted exactly once; none of the ${SEED.audit.count} seeded ones; all executions succeeded`,
	);

	await checkRequests(emulator, check);
	await unpublishAndSettle(api, workflow.id, [context.main]);
	check(
		`unpublished the trigger workflow (POST /api/v1${api.publishPath(workflow.id, false)}); none of its executions still runs`,
	);
}
