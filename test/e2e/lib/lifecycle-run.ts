/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * What the lifecycle check (lifecycle-check.ts) runs on: a configuration per scheduler, its
 * workflow, and `Lifecycle`, one configuration's workflow with its n8n main and what the
 * trigger must have emitted so far.
 */
import assert from 'node:assert/strict';

import type { AuditLogEntry } from '../../../nodes/DataIntegrationManagement/client/types';
import { DURABLE_CURSORS, hasDurableCursors } from './crash-check';
import type { EmulatorControl } from './emulator';
import { N8N_VERSION, type N8n } from './n8n';
import { freePort } from './ports';
import { waitFor, type Service } from './processes';
import { PublicApi, type WorkflowNode } from './rest';
import type { Check } from './steps';
import { emittedCounts, writeTriggerWorkflow, everyMinuteFrom } from './trigger-runs';

export interface LifecycleConfiguration {
	label: string;
	/** Its workflow's id, and the id of the credential pointing at its emulator. */
	id: string;
	/** Environment of its n8n main. */
	env: NodeJS.ProcessEnv;
}

export const LIFECYCLE_CONFIGURATIONS: LifecycleConfiguration[] = [
	{ label: "n8n's default scheduler", id: 'dimLifeDefault', env: {} },
	...(hasDurableCursors(N8N_VERSION)
		? [{ label: 'durable poll cursors', id: 'dimLifeDurable', env: DURABLE_CURSORS }]
		: []),
];

export const TRIGGER_NODE = 'Audit log (lifecycle)';
/** The Poll Times the edit sets: second 30 of every minute (6 fields: 1.x refuses 5). */
export const EDITED_POLL_TIMES = { item: [{ mode: 'custom', cronExpression: '30 * * * * *' }] };
/** The filter set while published: the stream's late entries ("late <burst>") match it. */
export const EVENT_FILTER = 'late';
/** The next poll, and the execution it starts, come within this. */
const NEXT_POLL_MS = 100_000;

export const lifecycleCredential = ({ id, label }: LifecycleConfiguration) => ({
	id,
	name: `Data Integration Management API (lifecycle, ${label})`,
});

/** Writes each configuration's workflow into `folder`: polls every minute, from `startDate`. */
export function writeLifecycleWorkflows(folder: string, startDate: string): void {
	for (const configuration of LIFECYCLE_CONFIGURATIONS) {
		writeTriggerWorkflow(folder, {
			id: configuration.id,
			name: `Audit log trigger through its lifecycle (${configuration.label})`,
			nodeName: TRIGGER_NODE,
			parameters: everyMinuteFrom(startDate),
			credential: lifecycleCredential(configuration),
		});
	}
}

export interface LifecycleContext {
	/** This configuration's n8n: its user folder holds its database. */
	n8n: N8n;
	apiKey: string;
	emulator: EmulatorControl;
	configuration: LifecycleConfiguration;
	/** Called with each n8n process started, for the run's final checks and clean-up. */
	started: (service: Service) => void;
	check: Check;
}

/** One configuration's workflow through its lifecycle: its n8n, and what it must have emitted. */
export class Lifecycle {
	main!: Service;

	api!: PublicApi;

	/** Every entry the trigger must emit. */
	readonly expected = new Set<string>();

	/** Every entry logged. */
	readonly logged: string[] = [];

	private starts = 0;

	constructor(readonly context: LifecycleContext) {}

	get id(): string {
		return this.context.configuration.id;
	}

	get emulator(): EmulatorControl {
		return this.context.emulator;
	}

	check(what: string): void {
		this.context.check(`[${this.context.configuration.label}] ${what}`);
	}

	/** Starts this configuration's n8n main (again, after a stop: on the same database). */
	async start(): Promise<void> {
		const port = await freePort();
		const name = `n8n-lifecycle-${this.id}${this.starts++ ? `-${this.starts}` : ''}`;
		const { n8n, configuration, apiKey } = this.context;
		this.main = await n8n.startMain({ name, port, env: configuration.env });
		this.context.started(this.main);
		this.api = new PublicApi(`http://127.0.0.1:${port}`, apiKey, n8n.runtime.major);
	}

	/** Takes what a stream logged in: each entry must be emitted if `matches` keeps it. */
	record(entries: AuditLogEntry[], matches: (entry: AuditLogEntry) => boolean = () => true): void {
		for (const entry of entries) {
			this.logged.push(entry.id);
			if (matches(entry)) this.expected.add(entry.id);
		}
	}

	async requestCount(): Promise<number> {
		return (await this.emulator.requests()).length;
	}

	/** Waits for every expected entry to be emitted; then none was twice, and nothing else was. */
	async eachOnce(): Promise<string> {
		const counts = async () => await emittedCounts(this.api, this.id, TRIGGER_NODE);
		const expected = [...this.expected];
		const since = Date.now();
		const emitted = await waitFor(
			`the ${expected.length} entries expected so far to be emitted`,
			async () => {
				const found = await counts();
				return expected.every((id) => found.has(id)) ? found : undefined;
			},
			{ timeoutMs: NEXT_POLL_MS, intervalMs: 2000, services: [this.main] },
		).catch(async (error: Error) => {
			const found = await counts();
			const lost = expected.filter((id) => !found.has(id));
			throw new Error(`${error.message}: lost ${lost.length} of ${expected.length}`);
		});
		const duplicated = expected.filter((id) => (emitted.get(id) ?? 0) > 1);
		const foreign = [...emitted.keys()].filter((id) => !this.expected.has(id));
		const filteredOut = foreign.filter((id) => this.logged.includes(id));
		assert.deepEqual(
			{ duplicated, foreign: foreign.length, filteredOut: filteredOut.length },
			{ duplicated: [], foreign: 0, filteredOut: 0 },
			`of ${expected.length} expected entries (${this.logged.length} logged)`,
		);
		const skipped = this.logged.length - expected.length;
		const left = skipped ? `, none of the ${skipped} the filter leaves out` : '';
		const waited = `${Math.round((Date.now() - since) / 1000)} s`;
		return `each of the ${expected.length} entries expected so far emitted exactly once (lost 0, duplicated 0)${left}, nothing else (all in ${waited})`;
	}

	/**
	 * Changes the trigger's parameters (and the workflow's name) with PUT /api/v1/workflows/{id},
	 * published again as n8n does it; checks the published version has the change.
	 */
	async edit(change: Record<string, unknown>, name?: string): Promise<string> {
		const { api, id } = this;
		const current = await api.workflow(id);
		const nodes = current.nodes.map(
			(node): WorkflowNode => ({
				id: node.id,
				name: node.name,
				type: node.type,
				typeVersion: node.typeVersion,
				position: node.position,
				parameters:
					node.name === TRIGGER_NODE ? { ...node.parameters, ...change } : node.parameters,
				credentials: node.credentials,
			}),
		);
		const workflow = { name: name ?? current.name, nodes, connections: current.connections };
		const saved = await api.update(id, { ...workflow, settings: { executionOrder: 'v1' } });
		let how = `PUT /api/v1/workflows/${id} → published again by n8n (active ${saved.active})`;
		if (api.n8nMajor >= 2 && saved.activeVersionId !== saved.versionId) {
			await api.publish(id);
			how = `PUT saved a version n8n did not publish (activeVersionId ${saved.activeVersionId}); POST …/publish`;
		}
		const live = await api.workflow(id);
		const published = (live.activeVersion?.nodes ?? live.nodes).find(
			(node) => node.name === TRIGGER_NODE,
		);
		assert.equal(live.active, true, `${id} is not published after the edit`);
		for (const [key, value] of Object.entries(change))
			assert.deepEqual(published?.parameters[key], value, `the published version's ${key}`);
		assert.equal(live.name, workflow.name);
		return how;
	}
}
