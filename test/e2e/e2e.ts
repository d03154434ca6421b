/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, no-console -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * `npm run test:e2e`: the package inside a real n8n, installed the way a user installs it, against
 * the emulator. N8N_VERSION chooses the n8n (default: test/e2e/n8n-version; CI also runs 1.x, see
 * `npm run test:e2e:all`). In order, it proves that:
 * 1. `npm run build && npm pack` gives a tarball that installs into n8n's community-nodes folder;
 * 2. n8n loads it: both nodes and the credential type are listed, and no load error is logged;
 * 3. the example workflows (examples/) import with n8n's CLI, and every resource and operation of
 *    the action node works in n8n's own engine (`n8n execute`): each node's output, and exactly
 *    the requests the service received;
 * 4. the trigger, published (activated on 1.x) and polled by n8n's scheduler every minute, emits
 *    each new audit entry exactly once, and a poll with nothing new starts no execution; still
 *    exactly once when n8n runs two polls of it at once (two Poll Times entries firing together, a
 *    poll outlasting the minute), and across a crash of n8n;
 * 5. as an AI tool: the MCP Server Trigger example driven by the MCP SDK client over Streamable
 *    HTTP and SSE, and the AI Agent example with a scripted OpenAI-compatible model;
 * 6. in queue mode (Redis and one `n8n worker`) the same workflows run on the worker;
 * 7. where companies run the service (lib/network-check.ts): HTTPS with a self-signed
 *    certificate and the Ignore SSL Issues toggle, a forward proxy, a read-only credential under
 *    the MCP Server Trigger, and (2.x) n8n's SSRF protection;
 * 8. the workflow written with n8n's workflow SDK (test/sdk/workflow.ts) imports and runs.
 * E2E_ONLY=ai runs only what the AI checks need (install, import, start n8n, the AI steps), to
 * work on them quickly; E2E_ONLY=triggers only the trigger's steps (point 4), E2E_ONLY=overlap
 * only its overlapping polls, E2E_ONLY=network only point 7, E2E_ONLY=sdk only point 8; the
 * default runs everything.
 * Every service it starts is stopped at the end, whatever happens. When a step fails, the run's
 * folder (logs, n8n's database) is kept and its path printed.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';

import { DataIntegrationManagementApi } from '../../credentials/DataIntegrationManagementApi.credentials';
import { SEED } from '../emulator/seed';
import { ACTION_EXPECTATIONS, outputOf } from './lib/action-checks';
import {
	AI_PLACEHOLDER_CREDENTIALS,
	checkAgent,
	checkMcpServer,
	MCP_EXAMPLE,
	writeAiCredentialFile,
} from './lib/ai-check';
import { checkHttpRequestWorkflow, writeHttpRequestWorkflow } from './lib/http-request-check';
import { startEmulatorProcess, type RunningEmulator } from './lib/emulator';
import { installN8n, N8n, N8N_VERSION, packageLoadProblems, REPO_ROOT } from './lib/n8n';
import { buildAndPack, installIntoCommunityNodes, type PackedPackage } from './lib/package';
import {
	createRunFolder,
	freePort,
	stopAllServices,
	stopService,
	stopServicesOnExit,
	waitFor,
	type Service,
} from './lib/processes';
import { ensureRedisInstalled, startRedis } from './lib/redis';
import { ScriptedOpenAi } from './lib/scripted-openai';
import { checkGovernance, writeApprovedGovernanceCopy } from './lib/governance-check';
import { API_KEY_SCOPES, EditorSession, PublicApi, type NodeTypeDescription } from './lib/rest';
import { StepRunner, type Check } from './lib/steps';
import { checkAuditTrigger } from './lib/trigger-check';
import { checkHttps, checkHttpsTriggerEmitted, checkProxy } from './lib/network-check';
import { checkReadOnlyMcp, checkSsrf } from './lib/network-guards';
import { prepareNetwork, type NetworkContext, type NetworkSetup } from './lib/network-setup';
import { checkSdkWorkflow, writeSdkWorkflow } from './lib/sdk-check';
import { checkCrash, CRASH_CONFIGURATIONS, writeCrashWorkflows } from './lib/crash-check';
import {
	checkOverlappingPolls,
	OVERLAP_SCENARIOS,
	overlapCredential,
	writeOverlapWorkflows,
} from './lib/overlap-check';
import {
	loadSampleWorkflows,
	SAMPLE_CREDENTIAL,
	WORKFLOWS_DIR,
	writeCredentialFile,
	type SampleWorkflow,
} from './lib/workflows';

const ACTION_NODE = 'dataIntegrationManagement';
const TRIGGER_NODE = 'dataIntegrationManagementTrigger';
const CREDENTIAL_TYPE = 'dataIntegrationManagementApi';
/** What n8n adds to the resource and operation lists of a node whose credential authenticates. */
const CUSTOM_API_CALL = '__CUSTOM_API_CALL__';

interface Manifest {
	n8n: { nodes: string[]; credentials: string[] };
}

/** The part of a node's codex file (.node.json) with its documentation links. */
interface Codex {
	resources?: Record<string, Array<{ url: string }>>;
}

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
			const response = await fetch(url, {
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

/** n8n's SSRF protection (N8N_SSRF_PROTECTION_ENABLED) is checked from n8n 2.41 on; earlier 2.x are not assumed to have it. */
function hasSsrfProtection(version: string): boolean {
	const [major, minor] = version.split('.').map(Number);
	return major > 2 || (major === 2 && minor >= 41);
}

function assertNoLoadProblems(service: Service, packageName: string, check: Check): void {
	const problems = packageLoadProblems(service.log(), packageName);
	assert.deepEqual(problems, [], `${service.name} logged problems loading the package`);
	check(
		`${service.name}'s log has no load error or warning about community packages or ${packageName}`,
	);
}

/**
 * What the steps share. Each field is set by the step that creates it; a step runs only when
 * every step before it passed (or was independent), so a later step never sees it unset.
 */
interface RunState {
	runDir: string;
	logDir: string;
	n8n: N8n;
	packed: PackedPackage;
	emulator: RunningEmulator;
	/** One emulator per overlapping-polls scenario, in OVERLAP_SCENARIOS' order. */
	overlapEmulators: RunningEmulator[];
	main: Service;
	worker: Service;
	/** The owner's session with the regular-mode instance. */
	editor: EditorSession;
	/** The public API of the instance that runs now, and the key for it. */
	api: PublicApi;
	apiKey: string;
	nodeTypes: NodeTypeDescription[];
	/** Every n8n process started, for the final log check. */
	n8nServices: Service[];
	/** The OpenAI-compatible server the agent example's model credential points at. */
	openAi: ScriptedOpenAi;
	/** The token of the MCP Server Trigger's Bearer Auth credential. */
	mcpToken: string;
	/** The HTTPS front of the network checks, and what they share. */
	network: NetworkSetup;
}

/** The parts of the run an E2E_ONLY subset leaves out (setting up n8n always runs). */
type Part = 'actions' | 'ai' | 'trigger' | 'overlap' | 'crash' | 'queue' | 'network' | 'sdk';
const SKIPPED_PARTS: Record<string, Part[]> = {
	ai: ['actions', 'trigger', 'overlap', 'crash', 'queue', 'network', 'sdk'],
	triggers: ['actions', 'ai', 'queue', 'network', 'sdk'],
	overlap: ['actions', 'ai', 'trigger', 'crash', 'queue', 'network', 'sdk'],
	network: ['actions', 'ai', 'trigger', 'overlap', 'crash', 'queue', 'sdk'],
	sdk: ['actions', 'ai', 'trigger', 'overlap', 'crash', 'queue', 'network'],
};
const ONLY = process.env.E2E_ONLY;
if (ONLY && !(ONLY in SKIPPED_PARTS))
	throw new Error(`E2E_ONLY=${ONLY}: the subsets are ${Object.keys(SKIPPED_PARTS).join(', ')}`);
const runs = (part: Part) => !ONLY || !SKIPPED_PARTS[ONLY].includes(part);

async function installTools(state: RunState, check: Check): Promise<void> {
	console.log('  … test/e2e/install-n8n.sh: instant when cached, 5 to 7 min on a fresh machine');
	const runtime = await installN8n();
	const userFolder = join(state.runDir, 'n8n-user-folder');
	mkdirSync(userFolder);
	state.n8n = new N8n(runtime, userFolder, state.logDir);
	check(`n8n ${runtime.version} in ${runtime.folder}, run by the Node it needs (${runtime.node})`);
	check(await ensureRedisInstalled());
}

async function buildPackage(state: RunState, check: Check): Promise<void> {
	const packed = await buildAndPack(state.runDir);
	state.packed = packed;
	check(`npm run build && npm pack → ${basename(packed.tarball)} (${packed.files.length} files)`);
	const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as Manifest;
	const declared = [...manifest.n8n.nodes, ...manifest.n8n.credentials];
	assert.deepEqual(
		declared.filter((file) => !packed.files.includes(file)),
		[],
	);
	check(`the tarball holds every file package.json's "n8n" section names (${declared.length})`);
	const links = packed.files
		.filter((file) => file.endsWith('.node.json'))
		.flatMap((file) => {
			const codex = JSON.parse(readFileSync(join(REPO_ROOT, file), 'utf8')) as Codex;
			return Object.values(codex.resources ?? {}).flatMap((list) => list.map(({ url }) => url));
		});
	const readme = new URL(new DataIntegrationManagementApi().documentationUrl);
	readme.hash = '';
	assert.ok(links.length > 0, 'no documentation links in the codex files');
	assert.deepEqual(
		links.filter((url) => !url.startsWith(`${readme.href}#`)),
		[],
		'codex documentation links the build did not complete',
	);
	check(
		`its ${links.length} codex documentation links are ${readme.href}#<section> (from the credential's documentationUrl)`,
	);
}

async function startEmulator(state: RunState, check: Check): Promise<void> {
	const start = async (name: string) =>
		await startEmulatorProcess({
			port: await freePort(),
			apiKey: `e2e-${randomBytes(8).toString('hex')}`,
			logFile: join(state.logDir, `${name}.log`),
		});
	state.emulator = await start('emulator');
	check(`test/emulator/cli.ts (npm run emulator) listening on ${state.emulator.baseUrl}`);
	state.overlapEmulators = [];
	for (const { id } of OVERLAP_SCENARIOS)
		state.overlapEmulators.push(await start(`emulator-${id}`));
	check(
		`… and ${OVERLAP_SCENARIOS.length} more for the overlapping-polls scenarios, on ${state.overlapEmulators.map(({ baseUrl }) => new URL(baseUrl).port).join(', ')}`,
	);
}

async function installPackage({ n8n, packed }: RunState, check: Check): Promise<void> {
	await installIntoCommunityNodes(packed.tarball, n8n.nodesFolder);
	const installed = join(n8n.nodesFolder, 'node_modules', packed.name);
	const { version } = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as {
		version: string;
	};
	assert.equal(version, packed.version);
	check(`npm install <tarball> --ignore-scripts in ${n8n.nodesFolder} → ${packed.name}@${version}`);
	assert.ok(!existsSync(join(n8n.nodesFolder, 'node_modules', 'n8n-workflow')));
	check("no copy of the n8n-workflow peer installed beside it: the nodes use n8n's own");
}

/**
 * What a user sees first on import: a note on what the example shows, and the placeholder
 * credential; and an id that n8n 1.x keeps static data for (it saves none for a workflow whose
 * id is longer than 16 characters, so a trigger imported with `n8n import:workflow` would never
 * keep its cursor; 2.x allows 21).
 */
function checkExamplesExplainThemselves(samples: SampleWorkflow[], check: Check): void {
	const placeholder = `${SAMPLE_CREDENTIAL.id} "${SAMPLE_CREDENTIAL.name}"`;
	const aiPlaceholders = Object.values(AI_PLACEHOLDER_CREDENTIALS).map(
		({ id, name }) => `${id} "${name}"`,
	);
	for (const { file, id, notes, credentials } of samples) {
		assert.ok(id.length <= 16, `${file}: id "${id}" is longer than 16 characters`);
		assert.ok(
			notes.some((note) => note.trim().length > 0),
			`${file} has no sticky note`,
		);
		assert.ok(credentials.includes(placeholder), `${file} does not name ${placeholder}`);
		assert.deepEqual(
			credentials.filter(
				(credential) => credential !== placeholder && !aiPlaceholders.includes(credential),
			),
			[],
			`${file}: credentials`,
		);
	}
	check(
		`each of the ${samples.length} examples has a sticky note, names the placeholder credential ${placeholder} (and for AI, only ${aiPlaceholders.join(', ')} besides), and an id of at most 16 characters`,
	);
}

async function importSamples(state: RunState, fileCount: number, check: Check): Promise<void> {
	const { runDir, n8n, emulator, overlapEmulators } = state;
	const credentialFile = join(runDir, 'credentials.json');
	writeCredentialFile(
		credentialFile,
		emulator,
		OVERLAP_SCENARIOS.map((scenario, index) => ({
			...overlapCredential(scenario),
			emulator: overlapEmulators[index],
		})),
	);
	check(
		`n8n import:credentials → ${await n8n.importCredentials(credentialFile)} (base URL ${emulator.baseUrl}, and one credential per overlapping-polls emulator)`,
	);
	state.openAi = await ScriptedOpenAi.start({
		name: 'Get_integration',
		arguments: { integrationId: SEED.integrations.ordersToSnowflake },
	});
	state.mcpToken = randomBytes(16).toString('hex');
	const aiCredentialFile = join(runDir, 'ai-credentials.json');
	writeAiCredentialFile(aiCredentialFile, {
		openAiBaseUrl: state.openAi.baseUrl,
		mcpToken: state.mcpToken,
	});
	check(
		`n8n import:credentials → ${await n8n.importCredentials(aiCredentialFile)} (OpenAI, Base URL ${state.openAi.baseUrl}, a scripted model; Bearer Auth for the MCP Server Trigger)`,
	);
	check(
		`n8n import:workflow --separate → ${await n8n.importWorkflows(WORKFLOWS_DIR)} (${fileCount} files)`,
	);
	const httpRequestDir = join(runDir, 'http-request-workflow');
	mkdirSync(httpRequestDir);
	writeHttpRequestWorkflow(join(httpRequestDir, 'http-request.json'), emulator.baseUrl);
	check(
		`n8n import:workflow → ${await n8n.importWorkflows(httpRequestDir)} (an HTTP Request node with the credential)`,
	);
	const governanceDir = join(runDir, 'governance-workflow');
	writeApprovedGovernanceCopy(governanceDir);
	check(
		`n8n import:workflow → ${await n8n.importWorkflows(governanceDir)} (the governance example with its approval granted)`,
	);
	const crashWorkflows = join(runDir, 'crash-workflows');
	writeCrashWorkflows(crashWorkflows);
	check(
		`n8n import:workflow --separate → ${await n8n.importWorkflows(crashWorkflows)} (the crash test's ${CRASH_CONFIGURATIONS.length} workflows)`,
	);
	if (runs('network')) {
		const network = await prepareNetwork(runDir, emulator);
		state.network = network.setup;
		check(
			`n8n import:credentials → ${await n8n.importCredentials(network.credentialFile)}; import:workflow → ${await n8n.importWorkflows(network.workflowDir)} (the network checks, the service also over HTTPS on ${network.setup.https.origin}, with a self-signed certificate)`,
		);
	}
	const overlapWorkflows = join(runDir, 'overlap-workflows');
	writeOverlapWorkflows(overlapWorkflows);
	check(
		`n8n import:workflow --separate → ${await n8n.importWorkflows(overlapWorkflows)} (the overlapping-polls test's ${OVERLAP_SCENARIOS.length} workflows)`,
	);
	const sdkWorkflow = join(runDir, 'sdk-workflow');
	writeSdkWorkflow(sdkWorkflow);
	check(
		`n8n import:workflow --separate → ${await n8n.importWorkflows(sdkWorkflow)} (the workflow written with n8n's workflow SDK, as its toJSON() gives it)`,
	);
}

/** Starts n8n, creates its owner and an API key, and checks what the editor lists. */
async function startN8n(state: RunState, check: Check): Promise<void> {
	const { n8n, packed } = state;
	const port = await freePort();
	state.main = await n8n.startMain({ name: 'n8n-main', port });
	state.n8nServices.push(state.main);
	check(`n8n start: ready on http://127.0.0.1:${port}`);

	const editor = new EditorSession(`http://127.0.0.1:${port}`);
	state.editor = editor;
	await editor.setupOwner({
		email: 'e2e@example.com',
		firstName: 'End-to-end',
		lastName: 'Test',
		password: `E2e-${randomBytes(8).toString('hex')}`,
	});
	check('owner account set up (POST /rest/owner/setup)');
	state.apiKey = await editor.createApiKey('e2e', API_KEY_SCOPES);
	state.api = new PublicApi(editor.baseUrl, state.apiKey, n8n.runtime.major);
	check('public API key created (POST /rest/api-keys)');

	state.nodeTypes = await editor.nodeTypes();
	const listed = (type: string) =>
		state.nodeTypes.some(({ name }) => name === `${packed.name}.${type}`);
	assert.ok(listed(ACTION_NODE) && listed(TRIGGER_NODE), 'n8n does not list both nodes');
	check(`GET /types/nodes.json lists ${packed.name}.${ACTION_NODE} and .${TRIGGER_NODE}`);
	assert.ok(listed(`${ACTION_NODE}Tool`));
	check(`… and ${ACTION_NODE}Tool, the AI-agent tool n8n derives from usableAsTool`);
	assert.ok((await editor.credentialTypeNames()).includes(CREDENTIAL_TYPE));
	check(`GET /types/credentials.json lists ${CREDENTIAL_TYPE}`);
	assertNoLoadProblems(state.main, packed.name, check);
}

/**
 * What the editor's "Import from File" needs of each example: every node's type, at its
 * typeVersion, known to this n8n (or the editor shows it as not installed), and the workflow
 * saved as the editor saves it.
 */
async function checkEditorImport(
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

function checkCoverage(
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

async function executeWithCli(
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
async function startQueueMode(state: RunState, check: Check): Promise<void> {
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
async function runOnWorker(
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

async function runEndToEnd(): Promise<boolean> {
	stopServicesOnExit();
	const runFolder = createRunFolder('n8n-nodes-dim-e2e-');
	const { dir: runDir, logDir } = runFolder;
	console.log(`End-to-end run in ${runDir}\n`);

	const samples = loadSampleWorkflows();
	const actionSamples = samples.filter(
		(sample) => !sample.triggerNode && sample.operations.length > 0,
	);
	const triggerSample = samples.find(
		(sample): sample is SampleWorkflow & { triggerNode: string } => !!sample.triggerNode,
	);
	const state = { runDir, logDir, n8nServices: [] as Service[] } as RunState;
	const run = new StepRunner();
	try {
		await run.step(`Install n8n ${N8N_VERSION} (cached after the first run) and Redis`, (check) =>
			installTools(state, check),
		);
		await run.step('Build and pack the package', (check) => buildPackage(state, check));
		await run.step('Start the seeded emulator', (check) => startEmulator(state, check));
		await run.step("Install the tarball into n8n's community-nodes folder", (check) =>
			installPackage(state, check),
		);
		await run.step("Import the credential and the example workflows with n8n's CLI", (check) => {
			checkExamplesExplainThemselves(samples, check);
			return importSamples(state, samples.length, check);
		});
		await run.step(
			'Start n8n (regular mode, SQLite, loopback): owner, API key, listed types',
			(check) => startN8n(state, check),
		);
		await run.step("The examples as the editor's Import from File takes them", (check) =>
			checkEditorImport(state, samples, check),
		);
		await run.step(
			'The sample workflows cover every resource and operation of the action node',
			async (check) => checkCoverage(state, samples, actionSamples, check),
		);
		for (const sample of runs('actions') ? actionSamples : []) {
			await run.step(
				`n8n execute: ${sample.name} (${sample.operations.join(', ')})`,
				(check) => executeWithCli(state, sample, check),
				{ independent: true },
			);
		}
		if (runs('actions')) {
			await run.step(
				"n8n's HTTP Request node with this credential (Predefined Credential Type)",
				(check) => checkHttpRequestWorkflow(state.n8n, state.emulator, check),
				{ independent: true },
			);
		}
		const aiContext = () => ({
			n8n: state.n8n,
			api: state.api,
			main: state.main,
			emulator: state.emulator.control,
			apiKey: state.emulator.apiKey,
			mcpToken: state.mcpToken,
			openAi: state.openAi,
		});
		if (runs('ai')) {
			await run.step(
				'AI: the MCP server example, driven by the MCP SDK client over Streamable HTTP and SSE',
				(check) => checkMcpServer(aiContext(), check),
				{ independent: true },
			);
			await run.step(
				"AI: the agent example, n8n's AI Agent with a scripted OpenAI-compatible model",
				(check) => checkAgent(aiContext(), check),
				{ independent: true },
			);
			await run.step(
				'The governance example, its approval granted: personal-data columns hashed',
				(check) => checkGovernance({ n8n: state.n8n, emulator: state.emulator.control }, check),
				{ independent: true },
			);
		}
		const networkContext = (): NetworkContext => ({
			n8n: state.n8n,
			editor: state.editor,
			api: state.api,
			main: state.main,
			emulator: state.emulator,
			mcpToken: state.mcpToken,
		});
		if (runs('network')) {
			await run.step(
				'Network: HTTPS with a self-signed certificate: credential Test, action and trigger, Ignore SSL Issues off and on',
				(check) => checkHttps(networkContext(), state.network, check),
			);
			await run.step(
				'Network: a forward proxy named by HTTP_PROXY and HTTPS_PROXY',
				(check) => checkProxy(networkContext(), state.network, check),
				{ independent: true },
			);
			await run.step(
				'Network: a read-only credential (Allow Changes off) under the MCP Server Trigger',
				(check) => checkReadOnlyMcp(networkContext(), check),
				{ independent: true },
			);
			if (hasSsrfProtection(state.n8n.runtime.version)) {
				await run.step(
					"Network: n8n's SSRF protection, the service on a loopback address",
					(check) => checkSsrf(networkContext(), check),
					{ independent: true },
				);
			}
			await run.step(
				'Network: the trigger over HTTPS emits a new entry at its next poll',
				(check) => checkHttpsTriggerEmitted(networkContext(), state.network, check),
				{ independent: true },
			);
		}
		if (runs('sdk')) {
			await run.step(
				"The workflow written with n8n's workflow SDK: published, its trigger and six operations run",
				(check) =>
					checkSdkWorkflow(
						{ api: state.api, emulator: state.emulator.control, main: state.main },
						check,
					),
				{ independent: true },
			);
		}
		if (runs('trigger')) {
			await run.step(
				'Trigger: published, polled every minute, each new audit entry emitted exactly once',
				async (check) => {
					assert.ok(triggerSample, 'no sample workflow starts from the trigger');
					const { api, emulator, main } = state;
					await checkAuditTrigger(
						{ api, emulator: emulator.control, main, workflow: triggerSample },
						check,
					);
				},
			);
		}
		if (runs('overlap')) {
			await run.step(
				'Overlapping polls: two Poll Times entries firing together, a poll outlasting the minute; every audit entry exactly once',
				(check) =>
					checkOverlappingPolls(
						{ api: state.api, main: state.main },
						state.overlapEmulators.map(({ control }) => control),
						check,
					),
				{ independent: true },
			);
		}
		if (runs('crash')) {
			await run.step(
				'Crash: n8n stopped, to start it per scheduler configuration',
				async (check) => {
					await stopService(state.main);
					check('stopped the regular-mode instance (its user folder and database carry over)');
				},
			);
			for (const { label, env } of CRASH_CONFIGURATIONS) {
				await run.step(
					`Crash (${label}): SIGKILL right after a poll, restart, every audit entry exactly once`,
					(check) =>
						checkCrash(
							{
								n8n: state.n8n,
								apiKey: state.apiKey,
								emulator: state.emulator.control,
								label,
								env,
								started: (service) => state.n8nServices.push(service),
							},
							check,
						),
					{ independent: true },
				);
			}
		}
		if (runs('queue')) {
			await run.step(
				'Queue mode: n8n main with EXECUTIONS_MODE=queue, Redis, and one n8n worker',
				(check) => startQueueMode(state, check),
			);
			for (const sample of actionSamples) {
				await run.step(
					`Queue mode: ${sample.name} through its webhook, executed by the worker`,
					(check) => runOnWorker(state, sample, check),
					{ independent: true },
				);
			}
		}
		await run.step('No n8n process logged a load problem for the package', async (check) => {
			for (const service of state.n8nServices)
				assertNoLoadProblems(service, state.packed.name, check);
		});
	} finally {
		await state.openAi?.stop();
		await state.network?.https.close();
		await stopAllServices();
		console.log('\nStopped every service the run started (emulator, n8n, worker, Redis).');
	}

	const ok = run.summarize();
	if (ok) runFolder.succeeded();
	return ok;
}

runEndToEnd().then(
	(ok) => process.exit(ok ? 0 : 1),
	(error) => {
		console.error(error);
		process.exit(1);
	},
);
