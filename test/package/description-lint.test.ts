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

/** A node file's source, linted as if it were the file at `file`. */
interface LintInput {
	file: string;
	source: string;
}

/**
 * What the project's lint reports on each input, in one process (loading eslint and n8n's rules
 * once), through eslint's API as `eslint --stdin` would.
 */
function lintAll(inputs: LintInput[]): LintMessage[][] {
	const script = `
		const { ESLint } = require(${JSON.stringify(join(ROOT, 'node_modules/eslint'))});
		const inputs = JSON.parse(require('node:fs').readFileSync(0, 'utf8'));
		const eslint = new ESLint();
		Promise.all(inputs.map(({ file, source }) => eslint.lintText(source, { filePath: file })))
			.then((results) => process.stdout.write(JSON.stringify(results.map(([r]) => r.messages))));`;
	const run = spawnSync(process.execPath, ['-e', script], {
		cwd: ROOT,
		input: JSON.stringify(inputs),
		encoding: 'utf8',
		maxBuffer: 64 * 1024 * 1024,
		// Under NODE_ENV=test (jest's), n8n's node rules take every file for one of their own tests.
		env: { ...process.env, NODE_ENV: 'production' },
	});
	if (run.status !== 0) throw new Error(`eslint failed: ${run.stderr}`);
	return JSON.parse(run.stdout) as LintMessage[][];
}

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
const reversed = (property: INodeProperties): INodeProperties =>
	property.name === 'options'
		? { ...property, options: [...(property.options as INodeProperties[])].reverse() }
		: property;
const withoutLists = (field: INodeProperties): INodeProperties => ({
	...field,
	type: 'string',
	default: '',
	typeOptions: undefined,
	modes: undefined,
	displayOptions: undefined,
	options: undefined,
});

/** What is linted: both nodes as n8n loads them, and the action node with a fault put in. */
const LINTED = {
	DataIntegrationManagement: action,
	DataIntegrationManagementTrigger: trigger,
	'an Options collection out of order': { ...action, properties: action.properties.map(reversed) },
	'changes without lists': withChanges((values) => values.map(withoutLists)),
};
type Linted = keyof typeof LINTED;
const sources = Object.fromEntries(
	Object.entries(LINTED).map(([name, description]) => [
		name,
		nodeSource(name.includes('Trigger') ? name : 'DataIntegrationManagement', description),
	]),
) as Record<Linted, string>;
let reports: Record<Linted, LintMessage[]>;

beforeAll(() => {
	const names = Object.keys(LINTED) as Linted[];
	const file = (name: Linted) =>
		`${NODE_DIR}/${name.includes('Trigger') ? name : 'DataIntegrationManagement'}.node.ts`;
	const results = lintAll(names.map((name) => ({ file: file(name), source: sources[name] })));
	reports = Object.fromEntries(
		names.map((name, index) => [name, results[index]]),
	) as typeof reports;
});

describe.each(['DataIntegrationManagement', 'DataIntegrationManagementTrigger'] as const)(
	'%s, its whole description as n8n loads it',
	(className) => {
		it('passes the lint', () => {
			const problems = reports[className].map(
				({ ruleId, line, message }) =>
					`${ruleId}: ${message} (at: ${sources[className].split('\n')[line - 1]?.trim()})`,
			);
			expect(problems).toEqual([]);
		});
	},
);

describe('the check finds what the lint finds, in fields that helpers build', () => {
	const rulesOn = (name: Linted) => reports[name].map(({ ruleId }) => ruleId);

	it('an Options collection out of order', () => {
		expect(rulesOn('an Options collection out of order')).toContain(
			'n8n-nodes-base/node-param-collection-type-unsorted-items',
		);
	});

	it('the fields of a change out of alphabetical order, once none reads another', () => {
		expect(rulesOn('changes without lists')).toContain(
			'n8n-nodes-base/node-param-fixed-collection-type-unsorted-items',
		);
		expect(rulesOn('DataIntegrationManagement')).not.toContain(
			'n8n-nodes-base/node-param-fixed-collection-type-unsorted-items',
		);
	});
});
