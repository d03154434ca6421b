/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @typescript-eslint/no-require-imports -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * n8n's node definitions (the types its AI workflow builder writes workflows against) for this
 * package's BUILT nodes, made by @n8n/workflow-sdk's own generator for a node package
 * (generate-node-defs-cli: a nodes.json of the descriptions in, a folder of .ts files out), as
 * n8n makes them for n8n-nodes-base.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type { WorkflowJSON } from '@n8n/workflow-sdk';
import type { INodeType, INodeTypeDescription } from 'n8n-workflow';

export const REPO_ROOT = join(__dirname, '../..');

interface Manifest {
	name: string;
	n8n: { nodes: string[] };
}

/** The SDK's generator; its module ships no types. */
interface NodeDefinitionsGenerator {
	generateNodeDefinitions(options: {
		nodesJsonPath: string;
		outputDir: string;
		packageName: string;
	}): Promise<void>;
}

/** The descriptions of the nodes package.json's "n8n" section names, loaded from dist/. */
export function builtDescriptions(): { packageName: string; nodes: INodeTypeDescription[] } {
	const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as Manifest;
	const nodes = manifest.n8n.nodes.map((file) => {
		const path = join(REPO_ROOT, file);
		if (!existsSync(path)) throw new Error(`${file} is missing: run npm run build first`);
		const exported = require(path) as Record<string, new () => INodeType>;
		const [NodeClass] = Object.values(exported);
		return new NodeClass().description;
	});
	return { packageName: manifest.name, nodes };
}

/**
 * Writes the node definitions into `outputDir` (its index.ts exports every node's type, e.g.
 * DataIntegrationManagementNode, and one per operation); returns the package name they use.
 */
export async function generateNodeDefinitions(outputDir: string): Promise<string> {
	const { packageName, nodes } = builtDescriptions();
	mkdirSync(outputDir, { recursive: true });
	const nodesJsonPath = join(outputDir, 'nodes.json');
	writeFileSync(nodesJsonPath, JSON.stringify(nodes));
	const generator =
		require('@n8n/workflow-sdk/dist/generate-types/generate-node-defs-cli') as NodeDefinitionsGenerator;
	await generator.generateNodeDefinitions({
		nodesJsonPath,
		outputDir: join(outputDir, 'definitions'),
		packageName,
	});
	return packageName;
}

/** What test/sdk/workflow.ts exports. */
export interface SdkWorkflowModule {
	SDK_WORKFLOW_ID: string;
	/** Its nodes' names, in the order they run. */
	SDK_WORKFLOW_NODES: string[];
	sdkWorkflowJson(): WorkflowJSON;
}

/**
 * test/sdk/workflow.ts, loaded by its path: its types exist only once generated, so the project's
 * type-check (tsconfig.test.json) leaves it out and workflow-sdk.test.ts checks it instead.
 */
export function loadSdkWorkflow(): SdkWorkflowModule {
	return require(join(__dirname, 'workflow')) as SdkWorkflowModule;
}
