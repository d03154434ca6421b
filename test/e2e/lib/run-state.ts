/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * What the end-to-end run's steps share (e2e.ts): the state each step sets for the ones after it,
 * the parts an E2E_ONLY subset runs, and the names the checks look for.
 */
import assert from 'node:assert/strict';

import type { RunningEmulator } from './emulator';
import type { N8n } from './n8n';
import type { NetworkSetup } from './network-setup';
import { packageLoadProblems, type PackedPackage } from './package';
import type { Service } from './processes';
import type { EditorSession, NodeTypeDescription, PublicApi } from './rest';
import type { ScriptedOpenAi } from './scripted-openai';
import type { Check } from './steps';

export const ACTION_NODE = 'dataIntegrationManagement';
export const TRIGGER_NODE = 'dataIntegrationManagementTrigger';
export const CREDENTIAL_TYPE = 'dataIntegrationManagementApi';

/**
 * What the steps share. Each field is set by the step that creates it; a step runs only when
 * every step before it passed (or was independent), so a later step never sees it unset.
 */
export interface RunState {
	runDir: string;
	logDir: string;
	n8n: N8n;
	packed: PackedPackage;
	emulator: RunningEmulator;
	/** One emulator per overlapping-polls scenario, in OVERLAP_SCENARIOS' order. */
	overlapEmulators: RunningEmulator[];
	/** One emulator per failure scenario (FAILURE_SCENARIOS' order; none before n8n 2.40). */
	failureEmulators: RunningEmulator[];
	/** One emulator per lifecycle configuration, in LIFECYCLE_CONFIGURATIONS' order. */
	lifecycleEmulators: RunningEmulator[];
	/** A loopback port nothing listens on, the Base URL of the no-answer check's credential. */
	closedPort: number;
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
export type Part =
	| 'actions'
	| 'ai'
	| 'trigger'
	| 'overlap'
	| 'crash'
	| 'failures'
	| 'lifecycle'
	| 'queue'
	| 'network'
	| 'sdk';
const PARTS: Part[] = [
	'actions',
	'ai',
	'trigger',
	'overlap',
	'crash',
	'failures',
	'lifecycle',
	'queue',
	'network',
	'sdk',
];
const allBut = (...kept: Part[]) => PARTS.filter((part) => !kept.includes(part));
const SKIPPED_PARTS: Record<string, Part[]> = {
	ai: allBut('ai'),
	triggers: allBut('trigger', 'overlap', 'crash', 'failures', 'lifecycle'),
	overlap: allBut('overlap'),
	failures: allBut('failures'),
	lifecycle: allBut('lifecycle'),
	network: allBut('network'),
	sdk: allBut('sdk'),
};
const ONLY = process.env.E2E_ONLY;
if (ONLY && !(ONLY in SKIPPED_PARTS))
	throw new Error(`E2E_ONLY=${ONLY}: the subsets are ${Object.keys(SKIPPED_PARTS).join(', ')}`);
export const runs = (part: Part) => !ONLY || !SKIPPED_PARTS[ONLY].includes(part);

/** The package loaded in `service` without an error or a warning in its log. */
export function assertNoLoadProblems(service: Service, packageName: string, check: Check): void {
	const problems = packageLoadProblems(service.log(), packageName);
	assert.deepEqual(problems, [], `${service.name} logged problems loading the package`);
	check(
		`${service.name}'s log has no load error or warning about community packages or ${packageName}`,
	);
}
