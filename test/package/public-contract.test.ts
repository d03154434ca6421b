/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * The names saved workflows depend on, held against a committed file (./public-contract.json):
 * the package, node and credential type names, each node's version, and every parameter's name
 * (where it shows), type, default and saved values. A workflow stores these; n8n leaves out a
 * parameter at its default, so a changed default changes what a saved workflow runs too. A
 * rename, a removal or a changed default fails here; it belongs in a new node version
 * (CONTRIBUTING.md, "Names are a contract"). After an addition, or a change made deliberately:
 * `UPDATE_CONTRACT=1 npx jest test/package/public-contract.test.ts`, and commit the file.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type {
	INodeProperties,
	INodePropertyCollection,
	INodePropertyOptions,
	INodeTypeDescription,
} from 'n8n-workflow';

import { DataIntegrationManagementApi } from '../../credentials/DataIntegrationManagementApi.credentials';
import { action, trigger } from './hints';

const CONTRACT_FILE = join(__dirname, 'public-contract.json');
const PACKAGE_FILE = join(__dirname, '../../package.json');

/** What a saved workflow holds of one parameter. */
interface Saved {
	type: string;
	default: unknown;
	/** An options field's values (unless a method loads them), a locator's modes. */
	values?: unknown[];
}

type Contract = Record<string, unknown>;

/** Where a top-level field shows, by resource and operation: "tag.create", "tag", or "". */
function placeOf(field: INodeProperties): string {
	const { resource, operation } = field.displayOptions?.show ?? {};
	return [resource, operation]
		.filter((values) => values !== undefined)
		.map((values) => (values ?? []).join('|'))
		.join('.');
}

function savedOf(field: INodeProperties): Saved {
	const values =
		field.type === 'options' || field.type === 'multiOptions'
			? (field.options as INodePropertyOptions[] | undefined)?.map(({ value }) => value)
			: field.type === 'resourceLocator'
				? (field.modes ?? []).map(({ name }) => name)
				: undefined;
	return { type: field.type, default: field.default, ...(values && { values }) };
}

/** Every saved field inside `field` and `field` itself, by path ("options.output"). */
function fieldsOf(field: INodeProperties, path = field.name): Array<[string, Saved]> {
	if (field.type === 'notice') return [];
	const inner =
		field.type === 'collection'
			? (field.options as INodeProperties[]).flatMap((option) =>
					fieldsOf(option, `${path}.${option.name}`),
				)
			: field.type === 'fixedCollection'
				? (field.options as INodePropertyCollection[]).flatMap((section) =>
						section.values.flatMap((value) =>
							fieldsOf(value, `${path}.${section.name}.${value.name}`),
						),
					)
				: [];
	return [[path, savedOf(field)], ...inner];
}

/** A node's parameters keyed "<where it shows> › <path>"; a key shown twice must agree. */
function parametersOf(node: INodeTypeDescription): Record<string, Saved> {
	const parameters: Record<string, Saved> = {};
	for (const field of node.properties) {
		const place = placeOf(field);
		for (const [path, saved] of fieldsOf(field)) {
			const key = place ? `${place} › ${path}` : path;
			if (key in parameters) expect(parameters[key]).toEqual(saved);
			parameters[key] = saved;
		}
	}
	return Object.fromEntries(Object.entries(parameters).sort(([a], [b]) => a.localeCompare(b)));
}

function nodeContract(node: INodeTypeDescription): Contract {
	return {
		version: node.version,
		credentials: (node.credentials ?? []).map(({ name }) => name),
		parameters: parametersOf(node),
	};
}

/** The contract as the code describes it now. */
function currentContract(): Contract {
	const credential = new DataIntegrationManagementApi();
	const { name } = JSON.parse(readFileSync(PACKAGE_FILE, 'utf8')) as { name: string };
	return {
		package: name,
		credentials: {
			[credential.name]: Object.fromEntries(
				credential.properties.flatMap((field) => fieldsOf(field)),
			),
		},
		nodes: { [action.name]: nodeContract(action), [trigger.name]: nodeContract(trigger) },
	};
}

/** Every leaf of a contract by its path, to name what differs. */
function leaves(value: unknown, path = ''): Map<string, string> {
	const leaf =
		typeof value !== 'object' ||
		value === null ||
		Array.isArray(value) ||
		Object.keys(value).length === 0;
	if (leaf) return new Map([[path, JSON.stringify(value)]]);
	return new Map(
		Object.entries(value).flatMap(([key, inner]) => [
			...leaves(inner, path ? `${path} / ${key}` : key),
		]),
	);
}

/** What the code changed of the committed contract: removed or changed first, then added. */
function differences(committed: Contract, current: Contract): string[] {
	const before = leaves(committed);
	const after = leaves(current);
	const broken = [...before]
		.filter(([path, value]) => after.get(path) !== value)
		.map(([path, value]) => `${path}: ${value} → ${after.get(path) ?? '(gone)'}`);
	const added = [...after.keys()]
		.filter((path) => !before.has(path))
		.map((path) => `added ${path}`);
	return [...broken, ...added];
}

test('the names saved workflows depend on are those of public-contract.json', () => {
	const current = currentContract();
	if (process.env.UPDATE_CONTRACT) {
		writeFileSync(CONTRACT_FILE, `${JSON.stringify(current, null, '\t')}\n`);
	}
	const committed = JSON.parse(readFileSync(CONTRACT_FILE, 'utf8')) as Contract;
	const changed = differences(committed, current);
	if (changed.length)
		throw new Error(
			`The public contract changed (a rename, removal or new default breaks saved workflows: make it a new node version; an addition only needs the file updated with UPDATE_CONTRACT=1):\n${changed.join('\n')}`,
		);
});

describe('the comparison', () => {
	const committed = { nodes: { a: { parameters: { 'tag.create › name': { type: 'string' } } } } };

	it.each([
		['a renamed parameter', { 'tag.create › title': { type: 'string' } }, 'tag.create › name'],
		['a changed type', { 'tag.create › name': { type: 'number' } }, '"string" → "number"'],
		[
			'an added parameter',
			{ 'tag.create › name': { type: 'string' }, 'tag.create › x': { type: 'string' } },
			'added nodes / a / parameters / tag.create › x / type',
		],
	])('reports %s', (_case, parameters, reported) => {
		const changed = differences(committed, { nodes: { a: { parameters } } });
		expect(changed.join('\n')).toContain(reported);
	});

	it('reports nothing for the same contract', () => {
		expect(differences(committed, structuredClone(committed))).toEqual([]);
	});
});
