/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * The hints n8n's AI workflow builder reads (builderHint on each node and parameter, the tool
 * form's replacements) name only what exists: in `name` and `name: value` only parameters, their
 * option values or resource-locator modes; in "Resource → Operation" only real operations; in
 * relatedNodes only this package's other node. Each hint stays short.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { INodePropertyOptions, INodeTypeDescription } from 'n8n-workflow';

import { action, hintsOf, parameters, trigger } from './hints';

const { name: PACKAGE } = JSON.parse(
	readFileSync(join(__dirname, '../../package.json'), 'utf8'),
) as { name: string };
/** What a hint may name: each parameter's name with the values it takes. */
function vocabulary(node: INodeTypeDescription): Map<string, Set<string>> {
	const names = new Map<string, Set<string>>();
	for (const parameter of parameters(node.properties)) {
		const values = names.get(parameter.name) ?? new Set<string>();
		if ('type' in parameter) {
			if (parameter.type === 'boolean') ['true', 'false'].forEach((value) => values.add(value));
			for (const option of parameter.options ?? [])
				if ('value' in option) values.add(String(option.value));
			for (const mode of parameter.modes ?? []) values.add(mode.name);
		}
		names.set(parameter.name, values);
	}
	return names;
}

/** "Resource → Operation" pairs the action node offers, by display name. */
function operationNames(node: INodeTypeDescription): Set<string> {
	const resources = node.properties.find(({ name }) => name === 'resource')!
		.options as INodePropertyOptions[];
	return new Set(
		node.properties
			.filter(({ name }) => name === 'operation')
			.flatMap(({ displayOptions, options }) =>
				(displayOptions?.show?.resource ?? []).flatMap((resource) => {
					const label = resources.find(({ value }) => value === resource)!.name;
					return (options as INodePropertyOptions[]).map(({ name }) => `${label} → ${name}`);
				}),
			),
	);
}

/** What a hint names that `node` lacks (its parameters, their values; the action node's operations). */
function unknownNames(hint: string, node: INodeTypeDescription): string[] {
	const known = vocabulary(node);
	const operations = operationNames(action);
	const problems: string[] = [];
	for (const [, token] of hint.matchAll(/`([^`]+)`/g)) {
		const [name, value] = token.split(/:\s*/);
		const isValue = [...known.values()].some((values) => values.has(name));
		if (value === undefined ? !known.has(name) && !isValue : !known.get(name)?.has(value))
			problems.push(`\`${token}\``);
	}
	for (const [pair] of hint.matchAll(/(?:[A-Z][a-z]+ )*[A-Z][a-z]+ → (?:[A-Z][a-z]+ ?)+/g))
		if (!operations.has(pair.trim())) problems.push(pair.trim());
	return problems;
}

describe.each([
	['action', action, trigger],
	['trigger', trigger, action],
])('builder hints of the %s node', (_label, node, other) => {
	it('has a search hint, and names the other node as related, by the type n8n gives it', () => {
		expect(node.builderHint?.searchHint).toEqual(expect.any(String));
		expect(node.builderHint?.relatedNodes?.map(({ nodeType }) => nodeType)).toEqual([
			`${PACKAGE}.${other.name}`,
		]);
	});

	it('names only parameters, values and operations that exist, in short hints', () => {
		const hints = hintsOf(node);
		expect(hints.length).toBeGreaterThan(2);
		for (const { where, hint } of hints) {
			expect({ where, unknown: unknownNames(hint, node) }).toEqual({ where, unknown: [] });
			expect({ where, length: Math.min(hint.length, 400) }).toEqual({
				where,
				length: hint.length,
			});
		}
	});
});

describe('where a model goes wrong, a parameter hint', () => {
	const hinted = (node: INodeTypeDescription) =>
		new Set(
			parameters(node.properties)
				.filter((parameter) => parameter.builderHint?.propertyHint)
				.map(({ name }) => name),
		);

	it.each([
		[
			'IDs from a picker or from earlier results',
			['owner', 'tagId', 'integrationId', 'schema', 'table'],
		],
		['the Update Schemas modes', ['updateMode', 'changes']],
		['timestamps with a zone', ['since', 'until']],
		['Return All against Limit', ['returnAll']],
	])('on the action node: %s', (_case, names) => {
		expect(names.filter((name) => !hinted(action).has(name))).toEqual([]);
	});

	it('on the trigger: where it starts, and its start date with a zone', () => {
		expect(['startFrom', 'startDate'].filter((name) => !hinted(trigger).has(name))).toEqual([]);
	});

	it('and the tool form has its own description, written for a model', () => {
		const tool = typeof action.usableAsTool === 'object' ? action.usableAsTool : undefined;
		expect(tool?.replacements?.description).toMatch(/ISO 8601 with a zone/);
		expect(tool?.replacements?.description).not.toEqual(action.description);
	});
});

describe('the check itself', () => {
	it.each([
		['`updateMode: patch`', ['`updateMode: patch`']],
		['`returnAll: maybe`', ['`returnAll: maybe`']],
		['`integrationID`', ['`integrationID`']],
		['from Tag → Delete', ['Tag → Delete']],
		['from User → Get Many, `updateMode: changes`, mode `id`', []],
	])('finds what "%s" names that does not exist', (hint, unknown) => {
		expect(unknownNames(hint, action)).toEqual(unknown);
	});
});
