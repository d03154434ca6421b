/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * The audit-log trigger across an n8n crash: published, audit entries streaming in (bursts
 * sharing one timestamp, a few arriving late inside the lookback), n8n killed with SIGKILL right
 * after a poll fires, started again on the same database, then polled until the stream has
 * stopped and been read. Every entry must have been emitted exactly once. Run under n8n's durable
 * poll cursors and under its default scheduler (docs/guarantees.md says what each guarantees).
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';

import type { EmulatorControl } from './emulator';
import { N8N_VERSION, type N8n } from './n8n';
import { waitFor, type Service } from './processes';
import { freePort } from './ports';
import { PublicApi } from './rest';
import type { Check } from './steps';
import {
	auditLogRequestCount,
	emittedCounts,
	startStream,
	writeTriggerWorkflow,
} from './trigger-runs';

/** n8n's durable poll cursors (n8n 2.36 and later): every flag they need. */
export const DURABLE_CURSORS: NodeJS.ProcessEnv = {
	N8N_SCHEDULER_ENABLED: 'true',
	N8N_SCHEDULER_POLL_TRIGGERS_ENABLED: 'true',
	N8N_USE_WORKFLOW_PUBLICATION_SERVICE: 'true',
	N8N_POLLER_DURABLE_CURSORS_ENABLED: 'true',
	// Pick due polls up within a second (n8n's own poll-trigger tests do the same).
	N8N_SCHEDULER_MATERIALIZATION_INTERVAL: '1',
	N8N_SCHEDULER_EXECUTOR_INTERVAL: '1',
};

/** n8n's durable poll cursors exist from 2.36 on. */
export function hasDurableCursors(version: string): boolean {
	const [major, minor] = version.split('.').map(Number);
	return major > 2 || (major === 2 && minor >= 36);
}

/**
 * The scheduler configurations the crash test runs under, each with a workflow of its own: n8n's
 * default scheduler, and, where the n8n under test has them, its durable poll cursors
 * (`E2E_CRASH_DURABLE=0` leaves those out, to save the run about four minutes).
 */
export const CRASH_CONFIGURATIONS: Array<{ label: string; env: NodeJS.ProcessEnv }> = [
	...(hasDurableCursors(N8N_VERSION) && process.env.E2E_CRASH_DURABLE !== '0'
		? [{ label: 'durable poll cursors', env: DURABLE_CURSORS }]
		: []),
	{ label: "n8n's default scheduler", env: {} },
];

/** Every-minute polls: the next one, and the execution it starts, come within this. */
const NEXT_POLL_MS = 100_000;
const TRIGGER_NODE = 'Audit log (crash test)';

export interface CrashContext {
	n8n: N8n;
	apiKey: string;
	emulator: EmulatorControl;
	/** One of CRASH_CONFIGURATIONS. */
	label: string;
	/** Environment of the n8n main instance. */
	env: NodeJS.ProcessEnv;
	/** Called with each n8n process started, for the run's final checks and clean-up. */
	started: (service: Service) => void;
}

const crashWorkflowId = (label: string) =>
	`dimCrash${label.replace(/[^A-Za-z]/g, '')}`.slice(0, 16);

/**
 * Writes each configuration's workflow (the trigger, polling every minute, from now) into
 * `folder`, to import with the samples, before the owner exists, so the owner gets them as it
 * gets the samples.
 */
export function writeCrashWorkflows(folder: string): void {
	mkdirSync(folder);
	for (const { label } of CRASH_CONFIGURATIONS) writeCrashWorkflow(folder, label);
}

function writeCrashWorkflow(folder: string, label: string): void {
	writeTriggerWorkflow(folder, {
		id: crashWorkflowId(label),
		name: `Audit log trigger across a crash (${label})`,
		nodeName: TRIGGER_NODE,
		parameters: {
			pollTimes: { item: [{ mode: 'everyMinute' }] },
			startFrom: 'now',
			filters: {},
			options: { lookbackSeconds: 60 },
		},
	});
}

/** SIGKILL to n8n's whole process group, as a power loss or the OOM killer would end it. */
async function kill(service: Service): Promise<void> {
	if (service.exitStatus === undefined) process.kill(-service.pid, 'SIGKILL');
	await service.exited;
}

async function startMain(
	context: CrashContext,
	name: string,
): Promise<{ main: Service; api: PublicApi }> {
	const port = await freePort();
	const main = await context.n8n.startMain({ name, port, env: context.env });
	context.started(main);
	return {
		main,
		api: new PublicApi(`http://127.0.0.1:${port}`, context.apiKey, context.n8n.runtime.major),
	};
}

/**
 * The first poll only records where it starts. Under n8n's durable poll cursors n8n does not
 * store the cursor of the poll it runs on publishing (a testing poll: n8n-core's
 * poll-trigger-executor commits none), only the process remembers it; the first scheduled poll,
 * up to a minute later, stores it, so a crash after keeps it: wait for that one too.
 */
async function waitForStart({ emulator, env }: CrashContext, main: Service): Promise<void> {
	const startPolls = env.N8N_POLLER_DURABLE_CURSORS_ENABLED === 'true' ? 2 : 1;
	await waitFor(
		startPolls === 1 ? 'the first poll' : 'the first scheduled poll',
		async () => ((await auditLogRequestCount(emulator)) >= startPolls ? true : undefined),
		{ timeoutMs: NEXT_POLL_MS, intervalMs: 500, services: [main] },
	);
}

/** Every entry of `ids` emitted exactly once, and nothing else. */
async function checkEachOnce(
	api: PublicApi,
	workflowId: string,
	ids: string[],
	main: Service,
	check: Check,
): Promise<void> {
	const counts = await waitFor(
		'every streamed entry to be emitted',
		async () => {
			const emitted = await emittedCounts(api, workflowId, TRIGGER_NODE);
			return ids.every((id) => emitted.has(id)) ? emitted : undefined;
		},
		{ timeoutMs: 2 * NEXT_POLL_MS, intervalMs: 2000, services: [main] },
	);
	const duplicated = ids.filter((id) => (counts.get(id) ?? 0) > 1);
	const foreign = [...counts.keys()].filter((id) => !ids.includes(id));
	assert.deepEqual({ duplicated, foreign }, { duplicated: [], foreign: [] });
	check(
		`each of the ${ids.length} entries emitted exactly once (lost 0, duplicated 0), nothing else`,
	);
}

export async function checkCrash(context: CrashContext, check: Check): Promise<void> {
	const { emulator, label } = context;
	const workflowId = crashWorkflowId(label);
	await emulator.reset();
	const name = `n8n-crash-${label.replace(/\W+/g, '-')}`;
	let { main, api } = await startMain(context, name);
	let stream: ReturnType<typeof startStream> | undefined;
	try {
		await api.publish(workflowId);
		check(
			`n8n started (${label}); published workflow ${workflowId}: the trigger polls every minute, from now`,
		);

		await waitForStart(context, main);
		await delay(2000);
		stream = startStream(emulator);
		const pollsBefore = await auditLogRequestCount(emulator);
		// The service answers slowly, so the kill lands while the poll waits for its answer: after
		// it fired, before it emitted. (A kill between its two writes is the default scheduler's
		// known gap, which no trigger can close: docs/guarantees.md.)
		await emulator.setLatency(5000);
		await waitFor(
			'a poll while entries stream in',
			async () => ((await auditLogRequestCount(emulator)) > pollsBefore ? true : undefined),
			{ timeoutMs: NEXT_POLL_MS, intervalMs: 100, services: [main] },
		);
		await kill(main);
		await emulator.setLatency(0);
		check(
			`entries streaming in (bursts of 3 sharing a timestamp, some 20 s late); n8n killed with SIGKILL right after a poll fired, ${stream.ids.length} entries logged by then`,
		);

		({ main, api } = await startMain(context, `${name}-restarted`));
		check('n8n started again on the same database');
		await delay(10_000);
		await stream.stop();
		const ids = stream.ids;
		check(`the stream stopped: ${ids.length} entries in all`);

		await checkEachOnce(api, workflowId, ids, main, check);
	} finally {
		// Whatever happened, nothing of this test may poll during the steps after it.
		await stream?.stop();
		await emulator.setLatency(0);
		if (main.exitStatus === undefined) await api.unpublish(workflowId).catch(() => undefined);
		await kill(main);
	}
}
