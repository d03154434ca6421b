/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * The end-to-end run's steps on the example workflows (e2e.ts): as the editor imports them, what
 * they cover, each run with `n8n execute`, and in queue mode through its webhook on the worker.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { ACTION_EXPECTATIONS, outputOf } from './action-checks';
import { MCP_EXAMPLE } from './ai-examples';
import { waitFor, type Service } from './processes';
import { freePort } from './ports';
import { startRedis } from './redis';
import { n8nFetch, PublicApi, type NodeTypeDescription } from './rest';
import { ACTION_NODE, assertNoLoadProblems, type RunState } from './run-state';
import type { Check } from './steps';
import { WORKFLOWS_DIR, type SampleWorkflow } from './workflows';

/** What n8n adds to the resource and operation lists of a node whose credential authenticates. */
const CUSTOM_API_CALL = '__CUSTOM_API_CALL__';

/** "resource: operation" of every operation the action node offers, from its description in n8n. */
function offeredOperations(node: NodeTypeDescription): string[] {
	return node.properties
		.filter(({ name }) => name === 'operation')
		.flatMap(({ options = [], displayOptions }) =>
			(displayOptions?.show?.resource ?? []).flatMap((resource) =>
				options
					.filter(({ value }) => value !== CUSTOM_API_CALL)
					.map(({ value }) => `${resource}: ${value}`),
			),
		);
}

/**
 * POSTs to a production webhook. n8n 2.x publishes through an outbox that a background task
 * drains (every 15 s at most), so a just-published webhook answers 404 "not registered" for a
 * moment; a 404 runs nothing, so it is safe to ask again.
 */
async function callWebhook(
	url: string,
	services: Service[],
): Promise<{ status: number; body: unknown; waitedMs: number }> {
	const started = Date.now();
	return await waitFor(
		`POST ${url} to find its webhook registered`,
		async () => {
			const response = await n8nFetch(url, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ from: 'e2e' }),
			});
			const body = (await response.json()) as unknown;
			return response.status === 404
				? undefined
				: { status: response.status, body, waitedMs: Date.now() - started };
		},
		{ timeoutMs: 60_000, services },
	);
}

/** The newest execution the workflow's webhook started, once it has finished. */
async function webhookExecution(api: PublicApi, workflowId: string, services: Service[]) {
	return await waitFor(
		`the webhook execution of ${workflowId} to finish`,
		async () => {
			const [newest] = (await api.executions(workflowId))
				.filter(({ mode }) => mode === 'webhook')
				.sort((a, b) => Number(b.id) - Number(a.id));
			return newest && newest.status !== 'running' && newest.status !== 'new' ? newest : undefined;
		},
		{ timeoutMs: 60_000, services },
	);
}

/**
 * What the editor's "Import from File" needs of each example: every node's type, at its
 * typeVersion, known to this n8n (or the editor shows it as not installed), and the workflow
 * saved as the editor saves it.
 */
export async function checkEditorImport(
	{ editor, nodeTypes }: RunState,
	samples: SampleWorkflow[],
	check: Check,
): Promise<void> {
	const known = new Set(
		nodeTypes.flatMap(({ name, version }) =>
			(Array.isArray(version) ? version : [version]).map((v) => `${name}@${v}`),
		),
	);
	for (const { file } of samples) {
		const workflow = JSON.parse(readFileSync(join(WORKFLOWS_DIR, file), 'utf8')) as {
			name: string;
			nodes: Array<{ type: string; typeVersion: number }>;
			connections: unknown;
			settings?: unknown;
		};
		const unknown = workflow.nodes
			.map(({ type, typeVersion }) => `${type}@${typeVersion}`)
			.filter((typeAtVersion) => !known.has(typeAtVersion));
		assert.deepEqual(unknown, [], `${file} has node types or versions this n8n lacks`);
		const saved = await editor.createWorkflow(workflow);
		assert.equal(saved.nodes.length, workflow.nodes.length);
	}
	check(
		`every node of the ${samples.length} examples is a type and version this n8n has, and each saves as a new workflow (POST /rest/workflows)`,
	);
}

export function checkCoverage(
	{ nodeTypes, packed }: RunState,
	samples: SampleWorkflow[],
	actionSamples: SampleWorkflow[],
	check: Check,
): void {
	const node = nodeTypes.find(({ name }) => name === `${packed.name}.${ACTION_NODE}`)!;
	const offered = offeredOperations(node).sort();
	const covered = [...new Set(actionSamples.flatMap(({ operations }) => operations))].sort();
	assert.deepEqual(covered, offered);
	check(
		`${offered.length} operations offered by the node in n8n, all in the samples: ${offered.join(', ')}`,
	);
	const mcpServer = samples.find(({ file }) => file === MCP_EXAMPLE);
	assert.deepEqual([...new Set(mcpServer?.toolOperations)].sort(), offered);
	check(`… and each is a tool of ${MCP_EXAMPLE}`);
	assert.deepEqual(
		actionSamples.map(({ file }) => file).sort(),
		Object.keys(ACTION_EXPECTATIONS).sort(),
	);
	check('every sample action workflow has its expectations');
}

export async function executeWithCli(
	{ n8n, emulator }: RunState,
	sample: SampleWorkflow,
	check: Check,
): Promise<void> {
	await emulator.control.reset();
	const result = await n8n.execute(sample.id);
	assert.equal(result.status, 'success', result.data.resultData.error?.message);
	check(`n8n execute --id=${sample.id} --rawOutput → status ${result.status}, mode ${result.mode}`);
	ACTION_EXPECTATIONS[sample.file].verify(
		result.data.resultData.runData,
		await emulator.control.requests(),
		check,
	);
}

/** Replaces the regular instance with a queue-mode main, Redis and one worker, on the same data. */
export async function startQueueMode(state: RunState, check: Check): Promise<void> {
	const redisPort = await freePort();
	await startRedis(redisPort, join(state.logDir, 'redis.log'));
	check(`redis-server on 127.0.0.1:${redisPort}`);
	const port = await freePort();
	state.main = await state.n8n.startMain({ name: 'n8n-main-queue', port, queue: { redisPort } });
	state.worker = await state.n8n.startWorker({ name: 'n8n-worker', queue: { redisPort } });
	state.n8nServices.push(state.main, state.worker);
	state.api = new PublicApi(`http://127.0.0.1:${port}`, state.apiKey, state.n8n.runtime.major);
	check(`n8n start (EXECUTIONS_MODE=queue) on port ${port} and n8n worker are ready`);
	assertNoLoadProblems(state.worker, state.packed.name, check);
}

/** Publishes the workflow, calls its webhook, and checks the worker ran it, with the same results. */
export async function runOnWorker(
	{ api, main, worker, emulator }: RunState,
	sample: SampleWorkflow,
	check: Check,
): Promise<void> {
	await emulator.control.reset();
	await api.publish(sample.id);
	const answer = await callWebhook(`${api.baseUrl}/webhook/${sample.webhookPath}`, [main, worker]);
	assert.equal(answer.status, 200, JSON.stringify(answer.body));
	check(
		`published it (POST /api/v1${api.publishPath(sample.id)}); POST /webhook/${sample.webhookPath} → 200 (registered after ${(answer.waitedMs / 1000).toFixed(1)} s)`,
	);

	const execution = await webhookExecution(api, sample.id, [main, worker]);
	assert.equal(execution.status, 'success');
	assert.match(main.log(), new RegExp(`Enqueued execution ${execution.id} \\(job \\d+\\)`));
	assert.match(worker.log(), new RegExp(`Worker started execution ${execution.id} \\(job \\d+\\)`));
	assert.match(
		worker.log(),
		new RegExp(`Worker finished execution ${execution.id} \\(job \\d+\\)`),
	);
	check(
		`execution ${execution.id} (mode webhook, success): main enqueued it, the worker's log started and finished it`,
	);

	const runData = execution.data!.resultData.runData;
	ACTION_EXPECTATIONS[sample.file].verify(runData, await emulator.control.requests(), check);
	assert.deepEqual(answer.body, outputOf(runData, sample.lastNode!));
	check(`the webhook answered with the output of "${sample.lastNode}"`);
}
