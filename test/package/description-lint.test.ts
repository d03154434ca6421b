/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * n8n's lint sees every property of both nodes. Fields that shared helpers build (each
 * operation's Options collection with Concurrency, the versions' copies, Update Schemas' list of
 * changes) are out of its sight in the source, so each node's description, as n8n loads it, is
 * written out as one literal and linted with the project's own lint configuration (the rules
 * `npm run lint` runs, n8n's node-cli config): a collection out of order, a missing default or a
 * wrong description anywhere fails here.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

import type { INodeProperties, INodePropertyCollection, INodeTypeDescription } from 'n8n-workflow';

import { action, trigger } from './hints';

const ROOT = join(__dirname, '../..');
const NODE_DIR = 'nodes/DataIntegrationManagement';

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** `value` as TypeScript source, keys unquoted where they can be, as a hand-written description. */
function literal(value: unknown, indent = ''): string {
	const inner = `${indent}\t`;
	if (Array.isArray(value))
		return `[\n${value.map((entry) => `${inner}${literal(entry, inner)},`).join('\n')}\n${indent}]`;
	if (typeof value === 'object' && value !== null) {
		const entries = Object.entries(value).map(
			([key, entry]) =>
				`${inner}${IDENTIFIER.test(key) ? key : JSON.stringify(key)}: ${literal(entry, inner)},`,
		);
		return `{\n${entries.join('\n')}\n${indent}}`;
	}
	return JSON.stringify(value);
}

/** A node file declaring `description` whole, its connections written as n8n's lint wants them. */
function nodeSource(className: string, description: INodeTypeDescription): string {
	const text = literal(description, '\t')
		.replace(/(inputs: \[)\s*"main",?\s*(\])/, '$1NodeConnectionTypes.Main$2')
		.replace(/(outputs: \[)\s*"main",?\s*(\])/, '$1NodeConnectionTypes.Main$2')
		.replace(/(inputs: )\[\s*\]/, '$1[]');
	return [
		"import { NodeConnectionTypes, type INodeType, type INodeTypeDescription } from 'n8n-workflow';",
		'',
		`export class ${className} implements INodeType {`,
		`\tdescription: INodeTypeDescription = ${text};`,
		'}',
		'',
	].join('\n');
}

interface LintMessage {
	ruleId: string | null;
	line: number;
	message: string;
}

/** What the project's lint reports on `source`, linted as the node file `file`. */
function lint(file: string, source: string): LintMessage[] {
	const eslint = join(ROOT, 'node_modules/eslint/bin/eslint.js');
	const run = spawnSync(
		process.execPath,
		[eslint, '--stdin', '--stdin-filename', file, '--format', 'json'],
		{
			cwd: ROOT,
			input: source,
			encoding: 'utf8',
			maxBuffer: 64 * 1024 * 1024,
			// Under NODE_ENV=test (jest's), n8n's node rules take every file for one of their own tests.
			env: { ...process.env, NODE_ENV: 'production' },
		},
	);
	const [result] = JSON.parse(run.stdout) as Array<{ messages: LintMessage[] }>;
	return result.messages;
}

describe.each([
	['DataIntegrationManagement', action],
	['DataIntegrationManagementTrigger', trigger],
])('%s, its whole description as n8n loads it', (className, description) => {
	it('passes the lint', () => {
		const source = nodeSource(className, description);
		const problems = lint(`${NODE_DIR}/${className}.node.ts`, source).map(
			({ ruleId, line, message }) =>
				`${ruleId}: ${message} (at: ${source.split('\n')[line - 1]?.trim()})`,
		);
		expect(problems).toEqual([]);
	});
});

it('the check finds what the lint finds: the fields of a list of changes out of order', () => {
	const reversed = (property: INodeProperties): INodeProperties =>
		property.name === 'changes'
			? {
					...property,
					options: (property.options as INodePropertyCollection[]).map((entry) => ({
						...entry,
						values: [...entry.values].reverse(),
					})),
				}
			: property;
	const unsorted = { ...action, properties: action.properties.map(reversed) };
	const source = nodeSource('DataIntegrationManagement', unsorted);
	const rules = lint(`${NODE_DIR}/DataIntegrationManagement.node.ts`, source).map(
		({ ruleId }) => ruleId,
	);
	expect(rules).toContain('n8n-nodes-base/node-param-fixed-collection-type-unsorted-items');
});
