/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * n8n's own workflow SDK reads the built package: its generator writes node definitions for both
 * nodes, and a workflow written with the SDK against them (test/sdk/workflow.ts: the trigger and
 * one operation of every resource) type-checks; the same check rejects a wrong parameter or
 * value. The workflow exports to the JSON n8n imports (the end-to-end run imports and runs it).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { generateNodeTypeFile } from '@n8n/workflow-sdk';
import ts from 'typescript';

import {
	builtDescriptions,
	generateNodeDefinitions,
	loadSdkWorkflow,
	REPO_ROOT,
} from './node-definitions';

const WORKFLOW_FILE = join(__dirname, 'workflow.ts');
const GLOBALS_FILE = join(__dirname, 'node-definitions-globals.d.ts');

let outputDir: string;
let packageName: string;

beforeAll(async () => {
	outputDir = mkdtempSync(join(tmpdir(), 'n8n-node-definitions-'));
	const log = jest.spyOn(console, 'log').mockImplementation(() => {});
	packageName = await generateNodeDefinitions(outputDir);
	log.mockRestore();
}, 60_000);

afterAll(() => rmSync(outputDir, { recursive: true, force: true }));

/** tsconfig.test.json's options, with `@node-definitions` pointing at the generated index. */
function compilerOptions(): ts.CompilerOptions {
	const configFile = join(REPO_ROOT, 'tsconfig.test.json');
	const { config } = ts.readConfigFile(configFile, (path) => ts.sys.readFile(path));
	const { options } = ts.parseJsonConfigFileContent(config, ts.sys, REPO_ROOT);
	return {
		...options,
		noEmit: true,
		paths: { '@node-definitions': [join(outputDir, 'definitions/index.ts')] },
	};
}

/** tsc's errors for the workflow file, its text first passed through `edit`. */
function typeErrors(edit: (source: string) => string = (source) => source): string[] {
	const options = compilerOptions();
	const host = ts.createCompilerHost(options);
	const readFile = host.readFile.bind(host);
	host.readFile = (path) => {
		const text = readFile(path);
		return path === WORKFLOW_FILE && text !== undefined ? edit(text) : text;
	};
	const program = ts.createProgram([WORKFLOW_FILE, GLOBALS_FILE], options, host);
	return ts
		.getPreEmitDiagnostics(program)
		.map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
}

describe("the SDK's node definitions for the built package", () => {
	it('type the SDK-written workflow: the trigger and one operation of every resource', () => {
		expect(typeErrors()).toEqual([]);
	}, 120_000);

	it.each([
		[
			'an operation the resource lacks',
			"resource: 'asset', operation: 'create'",
			"resource: 'asset', operation: 'delete'",
		],
		['a value the option lacks', "startFrom: 'date'", "startFrom: 'yesterday'"],
		['a resource-locator mode the field lacks', "mode: 'id'", "mode: 'url'"],
		['a number given as text', 'limit: 1 }', "limit: '1' }"],
		['a parameter the operation lacks', "type: 'postgres' }", "type: 'postgres', owner: 'x' }"],
	])(
		'reject %s',
		(_case, written, wrong) => {
			const errors = typeErrors((source) => {
				expect(source).toContain(written);
				return source.replace(written, wrong);
			});
			expect(errors.length).toBeGreaterThan(0);
		},
		120_000,
	);
});

describe('the SDK-written workflow as n8n imports it', () => {
	it('chains the trigger and one operation of each of the six resources, with the credential', () => {
		const { sdkWorkflowJson, SDK_WORKFLOW_ID, SDK_WORKFLOW_NODES } = loadSdkWorkflow();
		const json = sdkWorkflowJson();
		expect(json.id).toBe(SDK_WORKFLOW_ID);
		expect(json.nodes.map(({ name }) => name)).toEqual(SDK_WORKFLOW_NODES);
		const [first, ...actions] = json.nodes;
		expect(first.type).toBe(`${packageName}.dataIntegrationManagementTrigger`);
		expect(actions.map(({ type }) => type)).toEqual(
			actions.map(() => `${packageName}.dataIntegrationManagement`),
		);
		expect(actions.map(({ parameters }) => parameters?.resource).sort()).toEqual([
			'asset',
			'auditLog',
			'connector',
			'integration',
			'tag',
			'user',
		]);
		const next = (name = '') =>
			(json.connections[name]?.main?.[0] ?? []).map(
				(connection: { node: string }) => connection.node,
			);
		expect(json.nodes.slice(0, -1).map(({ name }) => next(name))).toEqual(
			json.nodes.slice(1).map(({ name }) => [name]),
		);
		expect(json.nodes.map(({ credentials }) => credentials?.dataIntegrationManagementApi)).toEqual(
			json.nodes.map(() => ({
				id: 'dataIntegrationManagementCredential',
				name: 'Data Integration Management API account',
			})),
		);
	});
});

describe("the SDK's single-file synthesis (what n8n shows a model of a community node)", () => {
	it("names the action node's …Params union without declaring it; the package generator above declares every type it names", () => {
		const { packageName: prefix, nodes } = builtDescriptions();
		const [action] = nodes;
		const file = generateNodeTypeFile({ ...action, name: `${prefix}.${action.name}` } as never);
		expect(file).toContain('NodeConfig<DataIntegrationManagementV1Params>');
		expect(file).not.toMatch(/(type|interface) DataIntegrationManagementV1Params\b/);
	});
});
