/**
 * A list filter's values, as Audit Log → Get Many and the trigger read them: run through n8n-core
 * against the emulator's seeded audit log (300 entries; actor types user, system and api_key).
 */
import type { INodeParameters } from 'n8n-workflow';

import { useEmulator } from '../helpers/emulator';
import { runActionNode } from '../helpers/n8n';

const { credentials } = useEmulator();

const typesOf = async (filters: INodeParameters) => {
	const { items, error } = await runActionNode({
		credentials: credentials(),
		parameters: { resource: 'auditLog', operation: 'getAll', returnAll: true, filters },
	});
	expect(error).toBeUndefined();
	return new Set(items.map(({ json }) => (json.actor as { type: string }).type));
};

describe('Actor Types given as one text with commas in one entry of the list', () => {
	it.each([
		['typed', 'user, api_key'],
		['given by the entry’s expression', '={{ "user, api_key" }}'],
	])(
		'%s: All but These keeps only the other types, as the text given to the whole list does',
		async (_label, entry) => {
			const whole = await typesOf({
				actorTypes: { types: '={{ "user, api_key" }}', match: 'allBut' },
			});
			expect([...whole]).toEqual(['system']);

			expect(await typesOf({ actorTypes: { types: [entry], match: 'allBut' } })).toEqual(whole);
		},
	);
});
