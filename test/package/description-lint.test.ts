/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * n8n's lint sees every property of both nodes. Fields that shared helpers build (each
 * operation's Options collection with Concurrency, Update Schemas' list of changes) are out of
 * its sight in the source, so each node's description, as n8n loads it, is written out as one
 * literal and linted with the project's own lint configuration (the rules `npm run lint` runs,
 * n8n's node-cli config): a collection out of order, a missing default or a wrong description
 * anywhere fails here.
 *
 * One rule is turned off where the form must not follow it: a fixed collection's fields in
 * alphabetical order (`node-param-fixed-collection-type-unsorted-items`), in a section where a
 * field reads another beside it (./field-reads.ts): there the fields come in the order users fill
 * them, which ./field-order.test.ts checks. The literal says so as a hand-written one would, with
 * an `eslint-disable-next-line` and its reason, as n8n's own nodes do.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

import type { INodeProperties, INodePropertyCollection, INodeTypeDescription } from 'n8n-workflow';

import { readsOf } from './field-reads';
import { action, trigger } from './hints';

const ROOT = join(__dirname, '../..');
const NODE_DIR = 'nodes/DataIntegrationManagement';

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

const FILL_ORDER =
	'// eslint-disable-next-line n8n-nodes-base/node-param-fixed-collection-type-unsorted-items -- in the order users fill them: a field reads another beside it (test/package/field-order.test.ts)';

/** Whether `key` of `value` holds a fixed collection's fields, one of which reads another. */
function inFillOrder(value: object, key: string, entry: unknown): boolean {
	return (
		key === 'values' &&
		'displayName' in value &&
		Array.isArray(entry) &&
		(entry as INodeProperties[]).some((field) =>
			readsOf(field).some((read) => read.scope === 'sibling'),
		)
	);
}

/** `value` as TypeScript source, keys unquoted where they can be, as a hand-written description. */
function literal(value: unknown, indent = ''): string {
	const inner = `${indent}\t`;
	if (Array.isArray(value))
		return `[\n${value.map((entry) => `${inner}${literal(entry, inner)},`).join('\n')}\n${indent}]`;
	if (typeof value === 'object' && value !== null) {
		const entries = Object.entries(value).map(
			([key, entry]) =>
				(inFillOrder(value, key, entry) ? `${inner}${FILL_ORDER}\n` : '') +
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

describe('the check finds what the lint finds, in fields that helpers build', () => {
	const rulesOn = (description: INodeTypeDescription) =>
		lint(
			`${NODE_DIR}/DataIntegrationManagement.node.ts`,
			nodeSource('DataIntegrationManagement', description),
		).map(({ ruleId }) => ruleId);
	const withChanges = (change: (values: INodeProperties[]) => INodeProperties[]) => ({
		...action,
		properties: action.properties.map((property) =>
			property.name === 'changes'
				? {
						...property,
						options: (property.options as INodePropertyCollection[]).map((entry) => ({
							...entry,
							values: change(entry.values),
						})),
					}
				: property,
		),
	});

	it('an Options collection out of order', () => {
		const reversed = (property: INodeProperties): INodeProperties =>
			property.name === 'options'
				? { ...property, options: [...(property.options as INodeProperties[])].reverse() }
				: property;

		expect(rulesOn({ ...action, properties: action.properties.map(reversed) })).toContain(
			'n8n-nodes-base/node-param-collection-type-unsorted-items',
		);
	});

	it('the fields of a change out of alphabetical order, once none reads another', () => {
		const withoutLists = (field: INodeProperties): INodeProperties => ({
			...field,
			type: 'string',
			default: '',
			typeOptions: undefined,
			modes: undefined,
			displayOptions: undefined,
			options: undefined,
		});

		expect(rulesOn(withChanges((values) => values.map(withoutLists)))).toContain(
			'n8n-nodes-base/node-param-fixed-collection-type-unsorted-items',
		);
		expect(rulesOn(action)).not.toContain(
			'n8n-nodes-base/node-param-fixed-collection-type-unsorted-items',
		);
	});
});
