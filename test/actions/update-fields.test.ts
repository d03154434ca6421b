/**
 * The fields of an edit (Tag → Update, Asset → Update): a Name added and left empty is refused
 * before any request (a name is never cleared), a Description added and left empty clears it,
 * one whose expression gives nothing is refused (the tool form leaves it out), and only the edits'
 * Description says so.
 */
import type { INodeProperties } from 'n8n-workflow';

import { operationsByResource } from '../../nodes/DataIntegrationManagement/actions/router';
import { SEED } from '../emulator';
import { useEmulator } from '../helpers/emulator';
import { runActionNode } from '../helpers/n8n';
import { sent } from './support';

const { emulator, credentials } = useEmulator();

const EDITS = [
	['tag', { tagId: SEED.tags.pii }],
	['asset', { assetId: SEED.assets.ordersDb }],
] as const;

describe.each(EDITS)('%s → Update', (resource, target) => {
	const update = async (updateFields: Record<string, string>) =>
		await runActionNode({
			credentials: credentials(),
			parameters: { resource, operation: 'update', ...target, updateFields },
		});

	it.each(['', '  '])(
		'refuses a Name added and left empty ("%s"), naming the field and the item, before any request',
		async (name) => {
			const result = await update({ name, description: 'kept' });

			expect(result.error?.message).toBe(
				'The field "Name" is empty: give a value, or remove the field (item 0)',
			);
			expect(emulator().requests).toEqual([]);
		},
	);

	it.each([
		[{ name: '' }, 'The field "Name" is empty: give a value, or remove the field'],
		[{}, 'Set at least one of'],
	])(
		'in the tool form, refuses %j without "(item 0)": a call is one item, a model sees no items',
		async (updateFields, message) => {
			const result = await runActionNode({
				credentials: credentials(),
				parameters: { resource, operation: 'update', ...target, updateFields },
				asTool: true,
			});

			expect(result.error?.message).toMatch(new RegExp(`^${message}`));
			expect(result.error?.message).not.toContain('(item');
			expect(emulator().requests).toEqual([]);
		},
	);

	it.each(['={{ $json.descripton }}', '={{ null }}'])(
		'refuses a Description whose expression gives nothing (%s) before any request: sent empty it would clear it',
		async (description) => {
			const result = await runActionNode({
				credentials: credentials(),
				parameters: { resource, operation: 'update', ...target, updateFields: { description } },
				items: [{ description: 'meant' }],
			});

			expect(result.error?.message).toBe(
				'The field "Description" has no value: its expression gave null or undefined (item 0)',
			);
			expect(result.error?.description).toContain("?? ''");
			expect(emulator().requests).toEqual([]);
		},
	);

	it('in the tool form, leaves out a Description the model did not give, and sends the rest', async () => {
		const result = await runActionNode({
			credentials: credentials(),
			parameters: {
				resource,
				operation: 'update',
				...target,
				updateFields: { description: '={{ $json.description }}', name: 'Renamed' },
			},
			asTool: true,
		});

		expect(result.error).toBeUndefined();
		expect(sent(emulator())[0].body).toEqual({ name: 'Renamed' });
	});

	it('sends a Description added and left empty as "", which clears it', async () => {
		const result = await update({ description: '' });

		expect(result.error).toBeUndefined();
		expect(sent(emulator())[0].body).toEqual({ description: '' });
	});
});

describe('what the Description field says', () => {
	const descriptionOf = (resource: string, operation: string) => {
		const operations = operationsByResource as Record<
			string,
			Record<string, { properties: INodeProperties[] }>
		>;
		const fields = operations[resource][operation].properties.flatMap(
			(property) => (property.options ?? []) as INodeProperties[],
		);
		return fields.find((field) => field.name === 'description')?.description;
	};

	it.each([
		['tag', 'update'],
		['asset', 'update'],
	])('%s → %s says how to clear it', (resource, operation) => {
		expect(descriptionOf(resource, operation)).toContain('To clear it');
	});

	it.each([
		['tag', 'create'],
		['asset', 'create'],
		['connector', 'create'],
	])('%s → %s does not: there is nothing to clear', (resource, operation) => {
		expect(descriptionOf(resource, operation)).toBe('A free-text description, sent as written');
	});
});

describe('a field whose expression gives nothing, outside an edit', () => {
	it('Tag → Create leaves out an Additional Fields → Description that gives nothing: nothing to clear on a new record', async () => {
		const result = await runActionNode({
			credentials: credentials(),
			parameters: {
				resource: 'tag',
				operation: 'create',
				name: 'T',
				owner: SEED.users.maya,
				additionalFields: { description: '={{ $json.d }}' },
			},
		});

		expect(result.error).toBeUndefined();
		expect(sent(emulator())[0].body).toEqual({ name: 'T', owner: SEED.users.maya });
	});

	it('User → Get Many refuses a Search that gives nothing: it would list every user', async () => {
		const result = await runActionNode({
			credentials: credentials(),
			parameters: {
				resource: 'user',
				operation: 'getAll',
				returnAll: true,
				filters: { search: '={{ $json.email }}' },
			},
		});

		expect(result.error?.message).toBe(
			'The field "Search" has no value: its expression gave null or undefined (item 0)',
		);
		expect(result.error?.description).toBe('Fix the expression or remove the field.');
		expect(emulator().requests).toEqual([]);
	});
});
