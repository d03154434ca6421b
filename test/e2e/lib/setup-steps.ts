/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, no-console -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * The end-to-end run's first steps (e2e.ts): n8n and Redis installed, the package built, packed
 * and installed as a user installs it, the emulators started, every workflow and credential the
 * checks need imported with n8n's CLI, and n8n started with an owner and an API key.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';

import { DataIntegrationManagementApi } from '../../../credentials/DataIntegrationManagementApi.credentials';
import { AGENT_TOOL_CALLS } from './ai-check';
import { AI_PLACEHOLDER_CREDENTIALS, writeAiCredentialFile } from './ai-examples';
import { writeCrashWorkflows, CRASH_CONFIGURATIONS } from './crash-check';
import { startEmulatorProcess } from './emulator';
import { prepareFailureAndLifecycle } from './failure-lifecycle-setup';
import { writeApprovedGovernanceCopy } from './governance-check';
import { writeHttpRequestWorkflow } from './http-request-check';
import { installN8n, N8n, N8N_VERSION, REPO_ROOT } from './n8n';
import { prepareNetwork } from './network-setup';
import { OVERLAP_SCENARIOS, overlapCredential, writeOverlapWorkflows } from './overlap-check';
import { buildAndPack, installIntoCommunityNodes } from './package';
import { freePort } from './ports';
import { ensureRedisInstalled } from './redis';
import { API_KEY_SCOPES, EditorSession, PublicApi } from './rest';
import {
	ACTION_NODE,
	assertNoLoadProblems,
	CREDENTIAL_TYPE,
	runs,
	TRIGGER_NODE,
	type RunState,
} from './run-state';
import { ScriptedOpenAi } from './scripted-openai';
import { writeSdkWorkflow } from './sdk-check';
import type { Check, StepRunner } from './steps';
import {
	SAMPLE_CREDENTIAL,
	WORKFLOWS_DIR,
	writeCredentialFile,
	type Examples,
	type SampleWorkflow,
} from './workflows';
import { checkCoverage, checkEditorImport } from './workflow-steps';

interface Manifest {
	n8n: { nodes: string[]; credentials: string[] };
}

/** The part of a node's codex file (.node.json) with its documentation links. */
interface Codex {
	resources?: Record<string, Array<{ url: string }>>;
}

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
	const made =
		process.env.E2E_BUILT === '1'
			? 'npm pack (built once by test:e2e:all)'
			: 'npm run build && npm pack';
	check(`${made} → ${basename(packed.tarball)} (${packed.files.length} files)`);
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
	state.openAi = await ScriptedOpenAi.start(AGENT_TOOL_CALLS);
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
	await importCheckWorkflows(state, check);
}

/** The workflows only the checks run: each written to a folder of the run, then imported. */
async function importCheckWorkflows(state: RunState, check: Check): Promise<void> {
	const { runDir, n8n, emulator } = state;
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

/** Points 1 to 3 up to the runs: n8n set up with the package and every workflow imported. */
export async function setUp(
	run: StepRunner,
	state: RunState,
	{ samples, actionSamples }: Examples,
) {
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
	if (runs('failures') || runs('lifecycle'))
		await run.step(
			'Emulators, credentials and workflows of the failure and lifecycle checks',
			(check) => prepareFailureAndLifecycle(state, check),
		);
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
}
