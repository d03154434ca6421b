/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * Why a poll failed, as n8n reads it (n8n 2.40 and later, E2E_ONLY=failures): the trigger
 * declares a cause on every error it throws, and n8n's durable scheduler backs the trigger off
 * by it. One n8n main with the durable scheduler and JSON logs; four published workflows, each
 * with an emulator and a credential of its own, all at once. Once the poll n8n runs on publishing
 * has passed, each service starts failing: a 429 with Retry-After 150 s, a revoked key (401 to
 * everything), 404 on every route, 503. What n8n decided is read from its own log lines
 * ("Poll failed; backing off"), and what it did from the emulators: no request inside the wait
 * the service asked for, none at all for minutes after a cause someone must act on, and the
 * entries logged during the wait each emitted once afterwards.
 */
import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';

import type { FaultSpec } from '../../emulator/types';
import { DURABLE_CURSORS } from './crash-check';
import type { EmulatorControl } from './emulator';
import type { N8n } from './n8n';
import { backoffDecisions, BACKING_OFF, type BackoffDecision } from './n8n-log';
import { freePort } from './ports';
import { stopService, waitFor, type Service } from './processes';
import { PublicApi } from './rest';
import type { Check } from './steps';
import {
	emittedCounts,
	expectNoRequests,
	startStream,
	writeTriggerWorkflow,
	everyMinuteFrom,
} from './trigger-runs';

export interface FailureScenario {
	label: string;
	/** Its workflow's id, and the id of the credential pointing at its emulator. */
	id: string;
	/** How the service answers the trigger once the poll n8n runs on publishing has passed. */
	fault: FaultSpec;
	/** The cause n8n must log. */
	cause: string;
	/** A cause someone must act on: no poll may reach the service for minutes after it. */
	heldBack?: boolean;
}

/** The wait the rate-limited service asks for: longer than the trigger waits within a poll. */
const RETRY_AFTER_S = 150;
/** As many requests as the step can send: the fault lasts. */
const EVERY_REQUEST = 1_000_000;

export const FAILURE_SCENARIOS: FailureScenario[] = [
	{
		label: `429 with Retry-After: ${RETRY_AFTER_S}`,
		id: 'dimFailRate',
		fault: { kind: 'status', status: 429, retryAfterSeconds: RETRY_AFTER_S, path: '/audit-logs' },
		cause: 'rate-limited',
	},
	{
		label: 'a revoked key, 401 to everything',
		id: 'dimFailRevoked',
		fault: { kind: 'status', status: 401, count: EVERY_REQUEST, message: 'API key revoked' },
		cause: 'credential-invalid',
		heldBack: true,
	},
	{
		label: '404 on every route',
		id: 'dimFailNotFound',
		fault: { kind: 'status', status: 404, count: EVERY_REQUEST, message: 'no such route' },
		cause: 'configuration-invalid',
		heldBack: true,
	},
	{
		label: '503 Service Unavailable',
		id: 'dimFailUnavail',
		fault: { kind: 'status', status: 503, count: EVERY_REQUEST },
		cause: 'temporarily-unavailable',
	},
];

const TRIGGER_NODE = 'Audit log (failing service)';
/** How long a trigger held back for good must send nothing, from n8n's decision. */
const HELD_MS = 180_000;
/** How long entries are logged during the rate-limited wait (it ends before the wait does). */
const STREAM_MS = 100_000;

/** n8n backs failing polls off from 2.40 on (with the durable scheduler). */
export function hasPollBackoff(version: string): boolean {
	const [major, minor] = version.split('.').map(Number);
	return major > 2 || (major === 2 && minor >= 40);
}

export const failureCredential = ({ id, label }: FailureScenario) => ({
	id,
	name: `Data Integration Management API (${label})`,
});

/** Writes each scenario's workflow into `folder`: polls every minute, from `startDate`. */
export function writeFailureWorkflows(folder: string, startDate: string): void {
	for (const scenario of FAILURE_SCENARIOS) {
		writeTriggerWorkflow(folder, {
			id: scenario.id,
			name: `Audit log trigger, the service failing (${scenario.label})`,
			nodeName: TRIGGER_NODE,
			parameters: everyMinuteFrom(startDate),
			credential: failureCredential(scenario),
		});
	}
}

interface Context {
	api: PublicApi;
	main: Service;
}

/** Publishes the workflow, lets the poll n8n runs on publishing pass, then arms the fault. */
async function publishThenFail(
	{ api, main }: Context,
	scenario: FailureScenario,
	emulator: EmulatorControl,
): Promise<BackoffDecision> {
	await emulator.reset();
	await api.publish(scenario.id);
	// That poll must pass, or publishing fails: n8n refuses to publish a trigger that fails.
	await waitFor(
		`the poll n8n runs on publishing ${scenario.id}`,
		async () =>
			(await emulator.traffic()).some(({ status }) => status === 200) ? true : undefined,
		{ timeoutMs: 90_000, intervalMs: 500, services: [main] },
	);
	await emulator.injectFault(scenario.fault);
	const decision = await waitFor(
		`n8n to log "${BACKING_OFF}" for ${scenario.id} (${scenario.label})`,
		() => backoffDecisions(main.log(), scenario.id)[0],
		{ timeoutMs: 150_000, intervalMs: 1000, services: [main] },
	);
	assert.equal(decision.cause, scenario.cause, `${scenario.label}: n8n logged ${decision.line}`);
	return decision;
}

/** A line for the report: the decision's fields as n8n logged them. */
const described = ({ type, cause, consecutiveErrors, delayMs }: BackoffDecision) =>
	`cause ${cause}, type ${type}, consecutiveErrors ${consecutiveErrors}, delayMs ${delayMs}`;

/**
 * After the 429: entries logged during the wait; no request reaches the service before the wait
 * it asked for is over; the first poll after it emits each of them once, and n8n decides nothing
 * more (the poll passed).
 */
async function afterRateLimit(
	{ api, main }: Context,
	scenario: FailureScenario,
	emulator: EmulatorControl,
	decision: BackoffDecision,
): Promise<string[]> {
	assert.ok(decision.delayMs >= RETRY_AFTER_S * 1000, `n8n waits less: ${decision.line}`);
	const stream = startStream(emulator);
	await delay(STREAM_MS);
	await stream.stop();
	const { limited, next } = await waitFor(
		'the first request after the 429',
		async () => {
			const traffic = await emulator.traffic();
			const index = traffic.findIndex(({ status }) => status === 429);
			const next = index === -1 ? undefined : traffic[index + 1];
			return next && { limited: traffic[index], next };
		},
		{ timeoutMs: RETRY_AFTER_S * 1000 + 120_000, intervalMs: 1000, services: [main] },
	);
	const quietMs = next.arrivedAt - limited.answeredAt;
	assert.ok(quietMs >= RETRY_AFTER_S * 1000, `a request came ${quietMs} ms after the 429`);
	const paths = new Set((await emulator.requests()).map(({ path }) => path));
	assert.deepEqual([...paths], ['/audit-logs'], 'the service received other requests');
	const ids = stream.ids;
	const counts = await waitFor(
		`the ${ids.length} entries logged during the wait to be emitted`,
		async () => {
			const emitted = await emittedCounts(api, scenario.id, TRIGGER_NODE);
			return ids.every((id) => emitted.has(id)) ? emitted : undefined;
		},
		{ timeoutMs: 120_000, intervalMs: 2000, services: [main] },
	);
	const duplicated = ids.filter((id) => (counts.get(id) ?? 0) > 1);
	const foreign = [...counts.keys()].filter((id) => !ids.includes(id));
	assert.deepEqual({ duplicated, foreign }, { duplicated: [], foreign: [] });
	const decisions = backoffDecisions(main.log(), scenario.id);
	assert.equal(decisions.length, 1, `n8n backed off again: ${decisions.map(({ line }) => line)}`);
	return [
		`… the next request came ${(quietMs / 1000).toFixed(1)} s after the 429 was answered (the service asked for ${RETRY_AFTER_S} s; ${next.status}), the only one since`,
		`… the ${ids.length} entries logged during the wait (a stream for ${STREAM_MS / 1000} s) each emitted exactly once, nothing else; n8n logged no further backoff`,
	];
}

/** After a cause someone must act on: no request reaches the service for HELD_MS. */
async function expectHeld(main: Service, emulator: EmulatorControl): Promise<Outcome> {
	const since = Date.now();
	const requests = await expectNoRequests(emulator, HELD_MS, [main]);
	return {
		lines: [
			`… and no request reached the service for the next ${HELD_MS / 1000} s (${requests} in all, the last the failing one)`,
		],
		held: { since, requests },
	};
}

interface Outcome {
	lines: string[];
	/** For a trigger held back for good: since when, and how many requests the service had then. */
	held?: { since: number; requests: number };
}

/** One scenario, from publishing to its last check. */
async function runScenario(
	context: Context,
	scenario: FailureScenario,
	emulator: EmulatorControl,
): Promise<Outcome> {
	const decision = await publishThenFail(context, scenario, emulator);
	const first = `${scenario.label} → n8n logged ${described(decision)}: ${decision.line}`;
	let more: Outcome;
	if (scenario.cause === 'rate-limited')
		more = { lines: await afterRateLimit(context, scenario, emulator, decision) };
	else if (scenario.heldBack) more = await expectHeld(context.main, emulator);
	else more = { lines: [await pollsAgain(context.main, emulator)] };
	return { ...more, lines: [first, ...more.lines] };
}

/** A trigger held back for good has sent nothing more by the end of the step either. */
async function stillHeld({ held }: Outcome, emulator: EmulatorControl): Promise<string[]> {
	if (!held) return [];
	const requests = (await emulator.requests()).length;
	const after = Math.round((Date.now() - held.since) / 1000);
	assert.equal(requests, held.requests, `the service received requests within ${after} s`);
	return [`… still none at the end of the step, ${after} s after n8n's decision`];
}

/** After a timed cause without a wait of the service's: n8n polls again, at a later tick. */
async function pollsAgain(main: Service, emulator: EmulatorControl): Promise<string> {
	const since = Date.now();
	const requests = (await emulator.requests()).length;
	await waitFor(
		'n8n to poll again',
		async () => ((await emulator.requests()).length > requests ? true : undefined),
		{ timeoutMs: 150_000, intervalMs: 1000, services: [main] },
	);
	return `… and n8n polled again ${Math.round((Date.now() - since) / 1000)} s later (not held back)`;
}

/** What n8n decided for each workflow over the whole step, for the report. */
function decisionsOverTheStep(main: Service): string {
	return FAILURE_SCENARIOS.map(({ id }) => {
		const decisions = backoffDecisions(main.log(), id);
		return `${id}: ${decisions.length} (delayMs ${decisions.map(({ delayMs }) => delayMs).join(', ')})`;
	}).join('; ');
}

export interface FailureContext {
	n8n: N8n;
	apiKey: string;
	/** In FAILURE_SCENARIOS' order. */
	emulators: EmulatorControl[];
	/** Called with each n8n process started, for the run's final checks and clean-up. */
	started: (service: Service) => void;
}

/** Every scenario at once in one n8n main; fails naming what each failing scenario saw. */
export async function checkPollFailures(context: FailureContext, check: Check): Promise<void> {
	const port = await freePort();
	const env = { ...DURABLE_CURSORS, N8N_LOG_FORMAT: 'json', N8N_LOG_OUTPUT: 'console' };
	const main = await context.n8n.startMain({ name: 'n8n-failures', port, env });
	context.started(main);
	const api = new PublicApi(`http://127.0.0.1:${port}`, context.apiKey, context.n8n.runtime.major);
	check(
		`n8n started with the durable scheduler (${Object.keys(DURABLE_CURSORS).join(', ')}), N8N_LOG_FORMAT=json; ${FAILURE_SCENARIOS.length} workflows published, each failing once the poll n8n runs on publishing passed`,
	);
	try {
		const outcomes = await Promise.allSettled(
			FAILURE_SCENARIOS.map(
				async (scenario, index) =>
					await runScenario({ api, main }, scenario, context.emulators[index]),
			),
		);
		const failed: string[] = [];
		for (const [index, outcome] of outcomes.entries()) {
			try {
				if (outcome.status === 'rejected') throw outcome.reason;
				outcome.value.lines.forEach((line) => check(line));
				(await stillHeld(outcome.value, context.emulators[index])).forEach((line) => check(line));
			} catch (error) {
				failed.push(`${FAILURE_SCENARIOS[index].label}: ${String(error)}`);
			}
		}
		check(`"${BACKING_OFF}" lines over the step: ${decisionsOverTheStep(main)}`);
		if (failed.length) throw new Error(failed.join('\n'));
	} finally {
		for (const { id } of FAILURE_SCENARIOS) await api.unpublish(id).catch(() => undefined);
		await stopService(main);
	}
}
