/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * What the end-to-end trigger tests share: a workflow file holding one audit-log trigger, what its
 * executions emitted, and a stream of audit entries arriving while n8n polls.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';

import type { AuditLogEntry } from '../../../nodes/DataIntegrationManagement/client/types';
import type { NewAuditEntry } from '../../emulator/types';
import type { EmulatorControl } from './emulator';
import { waitFor, type Service } from './processes';
import type { PublicApi } from './rest';
import { SAMPLE_CREDENTIAL } from './workflows';

export interface TriggerWorkflow {
	/** At most 16 characters: n8n 1.x keeps no static data for a longer workflow id. */
	id: string;
	name: string;
	/** The trigger node's name. */
	nodeName: string;
	/** The trigger node's parameters (Poll Times, Start From, …). */
	parameters: Record<string, unknown>;
	/** The credential the trigger names (default: the samples' placeholder). */
	credential?: { id: string; name: string };
}

/** A trigger's parameters that poll every minute, from `startDate`, with no filter. */
export const everyMinuteFrom = (startDate: string): Record<string, unknown> => ({
	pollTimes: { item: [{ mode: 'everyMinute' }] },
	startFrom: 'date',
	startDate,
	filters: {},
	options: {},
});

/** Writes `<id>.json` into `folder`, for `n8n import:workflow --separate`. */
export function writeTriggerWorkflow(folder: string, workflow: TriggerWorkflow): void {
	const { id, name, nodeName, parameters, credential = SAMPLE_CREDENTIAL } = workflow;
	const file = {
		id,
		name,
		nodes: [
			{
				id: `${id}-trigger`,
				name: nodeName,
				type: 'n8n-nodes-data-integration-management.dataIntegrationManagementTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters,
				credentials: {
					[SAMPLE_CREDENTIAL.type]: { id: credential.id, name: credential.name },
				},
			},
		],
		connections: {},
		settings: { executionOrder: 'v1' },
		active: false,
		pinData: {},
	};
	writeFileSync(join(folder, `${id}.json`), JSON.stringify(file, null, '\t'));
}

/** Entry ids the trigger emitted over all the workflow's executions, with how often each was. */
export async function emittedCounts(
	api: PublicApi,
	workflowId: string,
	nodeName: string,
): Promise<Map<string, number>> {
	const counts = new Map<string, number>();
	for (const execution of await api.executions(workflowId)) {
		const items = execution.data?.resultData.runData[nodeName]?.[0]?.data?.main[0] ?? [];
		for (const { json } of items)
			counts.set(String(json.id), (counts.get(String(json.id)) ?? 0) + 1);
	}
	return counts;
}

/** Long enough for a poll that fired just before an unpublish to start its execution. */
const POLL_IN_FLIGHT_MS = 2000;

/**
 * Unpublishes the workflow, then waits until none of its executions still runs: a poll that fired
 * just before may have started one, whose requests would reach the emulator in a later step.
 */
export async function unpublishAndSettle(
	api: PublicApi,
	workflowId: string,
	services: Service[],
): Promise<void> {
	await api.unpublish(workflowId);
	await delay(POLL_IN_FLIGHT_MS);
	await waitFor(
		`every execution of ${workflowId} to end`,
		async () => ((await api.executions(workflowId, 'running')).length ? undefined : true),
		{ timeoutMs: 120_000, services },
	);
}

/** How many `GET /audit-logs` the emulator received since its last reset. */
export async function auditLogRequestCount(emulator: EmulatorControl): Promise<number> {
	return (await emulator.requests()).filter(({ path }) => path === '/audit-logs').length;
}

/**
 * Watches the emulator for `ms` from now and fails as soon as a request reaches it, saying when.
 * Returns how many requests it had received.
 */
export async function expectNoRequests(
	emulator: EmulatorControl,
	ms: number,
	services: Service[],
): Promise<number> {
	const since = Date.now();
	const requests = (await emulator.requests()).length;
	await waitFor(
		`${ms / 1000} s without a request to the service`,
		async () => {
			const now = (await emulator.requests()).length;
			const after = Math.round((Date.now() - since) / 1000);
			if (now !== requests)
				throw new Error(`${now - requests} request(s) reached the service within ${after} s`);
			return Date.now() - since >= ms ? true : undefined;
		},
		{ timeoutMs: ms + 60_000, intervalMs: 2000, services },
	);
	return requests;
}

/** Adds a burst every 1.5 s until stopped: three entries sharing a timestamp, every third burst one late. */
export function startStream(emulator: EmulatorControl): {
	ids: string[];
	/** The entries logged, in the order logged (`ids` are theirs). */
	entries: AuditLogEntry[];
	stop: () => Promise<void>;
} {
	const ids: string[] = [];
	const logged: AuditLogEntry[] = [];
	let running = true;
	const loop = (async () => {
		for (let burst = 0; running; burst++) {
			const now = Date.now();
			const entries: NewAuditEntry[] = [0, 1, 2].map((i) => ({
				timestamp: new Date(now).toISOString(),
				event: `burst ${burst}, entry ${i}`,
			}));
			// Late: logged now, stamped 20 s ago (inside the 60 s lookback).
			if (burst % 3 === 2)
				entries.push({ timestamp: new Date(now - 20_000).toISOString(), event: `late ${burst}` });
			const added = await emulator.addAuditEntries(entries);
			logged.push(...added);
			ids.push(...added.map(({ id }) => id));
			await delay(1500);
		}
	})();
	return {
		ids,
		entries: logged,
		stop: async () => {
			running = false;
			await loop;
		},
	};
}
