/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, no-console -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * `npm run dev`: the nodes in a real n8n, in one command, to try by hand. It builds and packs the
 * package and installs the tarball into a throwaway n8n user folder (as `npm run test:e2e` does),
 * starts the seeded emulator and n8n, imports the credential (pointing at the emulator) and the
 * sample workflows, creates the owner account, publishes the samples (the trigger then polls
 * every minute; each action workflow also answers on its webhook), and prints how to sign in.
 * Ctrl-C or SIGTERM (to npm, tsx or this process) stops n8n and the emulator and deletes the
 * folder; a failure keeps it, and says where its logs are.
 *
 * Ports: n8n on N8N_PORT (default 5678), the emulator on EMULATOR_PORT (default 4010). N8N_VERSION
 * chooses the n8n (default: the one test/e2e/n8n-version pins; 1.x, e.g. 1.123.81, works too).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

import { DEFAULT_API_KEY } from '../emulator';
import { controlCommands } from '../emulator/indexes';
import { startEmulatorProcess, type RunningEmulator } from './lib/emulator';
import { installN8n, N8n, N8N_VERSION } from './lib/n8n';
import { buildAndPack, installIntoCommunityNodes, type PackedPackage } from './lib/package';
import {
	createRunFolder,
	isStoppingAll,
	stopAllServices,
	stopServicesOnExit,
} from './lib/processes';
import { isPortInUse } from './lib/ports';
import { API_KEY_SCOPES, DEV_OWNER, EditorSession, PublicApi } from './lib/rest';
import {
	loadSampleWorkflows,
	SAMPLE_CREDENTIAL,
	WORKFLOWS_DIR,
	writeCredentialFile,
	type SampleWorkflow,
} from './lib/workflows';

function portFromEnv(name: string, fallback: number): number {
	const port = Number(process.env[name] || fallback);
	if (!Number.isInteger(port) || port <= 0 || port > 65535)
		throw new Error(`${name} must be a port number`);
	return port;
}

async function requireFreePort(port: number, variable: string): Promise<void> {
	if (await isPortInUse(port))
		throw new Error(`Port ${port} is in use; choose another with ${variable}=<port>`);
}

function progress(message: string): void {
	console.log(`• ${message}`);
}

/** What is running, how to sign in, the examples, and how to give the trigger a new entry. */
function printHowToUse(setup: {
	n8n: N8n;
	packed: PackedPackage;
	editor: EditorSession;
	emulator: RunningEmulator;
	samples: SampleWorkflow[];
	logDir: string;
	runDir: string;
}): void {
	const { n8n, packed, editor, emulator, samples, logDir, runDir } = setup;
	const control = emulator.control.url;
	console.log(`
n8n ${n8n.runtime.version} with ${packed.name} is running.

  Editor:    ${editor.baseUrl}
  Sign in:   ${DEV_OWNER.email} / ${DEV_OWNER.password}
  Emulator:  ${emulator.baseUrl} (API key ${emulator.apiKey}),
             already in the credential "${SAMPLE_CREDENTIAL.name}"

Example workflows from examples/ (published):`);
	for (const sample of samples) {
		const entry = sample.webhookPath
			? `webhook: POST ${editor.baseUrl}/webhook/${sample.webhookPath}`
			: sample.triggerNode
				? 'polls every minute'
				: 'open it in the editor: a chat or an MCP client starts it';
		console.log(`  ${sample.name}\n    ${editor.baseUrl}/workflow/${sample.id}  (${entry})`);
	}
	console.log(`
${controlCommands(control).join('\n')}

Logs: ${logDir}. Ctrl-C (or SIGTERM) stops n8n and the emulator and deletes ${runDir};\nif something fails instead, the folder is kept for its logs.`);
}

async function startDevEnvironment(): Promise<void> {
	stopServicesOnExit();
	const n8nPort = portFromEnv('N8N_PORT', 5678);
	const emulatorPort = portFromEnv('EMULATOR_PORT', 4010);
	await requireFreePort(n8nPort, 'N8N_PORT');
	await requireFreePort(emulatorPort, 'EMULATOR_PORT');

	// Stopping on purpose (Ctrl-C, SIGTERM) deletes the folder; a failure keeps it for its logs.
	const { dir: runDir, logDir } = createRunFolder('n8n-nodes-dim-dev-', {
		deleteWhenStopped: true,
	});
	const userFolder = join(runDir, 'n8n-user-folder');
	mkdirSync(userFolder);

	progress(
		`installing n8n ${N8N_VERSION} into the cache folder (instant when cached, 5 to 7 min the first time)`,
	);
	const n8n = new N8n(await installN8n(), userFolder, logDir);
	progress('npm run build && npm pack');
	const packed = await buildAndPack(runDir);
	progress(`installing ${packed.name}@${packed.version} into n8n's community-nodes folder`);
	await installIntoCommunityNodes(packed.tarball, n8n.nodesFolder);

	progress('starting the seeded emulator');
	const emulator = await startEmulatorProcess({
		port: emulatorPort,
		apiKey: process.env.EMULATOR_API_KEY || DEFAULT_API_KEY,
		logFile: join(logDir, 'emulator.log'),
	});
	progress('importing the credential and the example workflows (examples/)');
	const credentialFile = join(runDir, 'credentials.json');
	writeCredentialFile(credentialFile, emulator);
	await n8n.importCredentials(credentialFile);
	await n8n.importWorkflows(WORKFLOWS_DIR);

	progress('starting n8n');
	const main = await n8n.startMain({ name: 'n8n-main', port: n8nPort });
	const editor = new EditorSession(`http://127.0.0.1:${n8nPort}`);
	await editor.setupOwner(DEV_OWNER);
	const api = new PublicApi(
		editor.baseUrl,
		await editor.createApiKey('npm run dev', API_KEY_SCOPES),
		n8n.runtime.major,
	);
	const samples = loadSampleWorkflows();
	for (const sample of samples) await api.publish(sample.id);

	printHowToUse({ n8n, packed, editor, emulator, samples, logDir, runDir });

	await Promise.race([main.exited, emulator.service.exited]);
	if (isStoppingAll()) return; // Ctrl-C: the signal handler stops the rest and exits
	const stopped = main.exitStatus !== undefined ? main : emulator.service;
	console.error(
		`\n${stopped.name} exited (${stopped.exitStatus}); its log:\n${stopped.log().split('\n').slice(-30).join('\n')}`,
	);
	await stopAllServices();
	process.exit(1);
}

startDevEnvironment().catch(async (error) => {
	console.error(error instanceof Error ? error.message : error);
	await stopAllServices();
	process.exit(1);
});
