import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { useEmulator } from '../helpers/emulator';
import { runActionNode } from '../helpers/n8n';
import { sent } from './support';

const { emulator, credentials } = useEmulator();

const run = (parameters: INodeParameters, items?: IDataObject[]) =>
	runActionNode({
		credentials: credentials(),
		parameters: { resource: 'user', operation: 'getAll', ...parameters },
		items,
	});

describe('user getAll', () => {
	it('returns every user, one item each, with Return All', async () => {
		const result = await run({ returnAll: true });

		expect(sent(emulator())).toEqual([
			{ method: 'GET', path: '/users', query: {}, body: undefined },
		]);
		expect(result.items).toEqual(
			emulator()
				.store.listUsers()
				.map((user) => ({ json: user, pairedItem: { item: 0 } })),
		);
		expect(result.items).toHaveLength(7);
	});

	it('returns at most Limit users', async () => {
		const result = await run({ returnAll: false, limit: 3 });

		expect(result.items.map((item) => item.json.id)).toEqual(
			emulator()
				.store.listUsers()
				.slice(0, 3)
				.map((user) => user.id),
		);
	});

	it('applies the default limit of 50, and Return All gets past it', async () => {
		for (let i = 0; i < 60; i++) {
			const id = `usr_extra${i}`;
			emulator().store.users.set(id, {
				id,
				name: `Extra ${i}`,
				email: `extra${i}@example.com`,
				createdAt: '2026-01-01T00:00:00.000Z',
			});
		}

		expect((await run({})).items).toHaveLength(50);
		expect((await run({ returnAll: true })).items).toHaveLength(67);
	});

	it.each([
		['a part of the email, any case', 'NORTHWIND-DATA.example', 7],
		['a part of the name, trimmed', '  patel ', 1],
		['a part of the email only', 'maya.p', 1],
		['nothing that matches', 'nobody', 0],
	])('finds users by Filters → Search: %s', async (_label, search, count) => {
		const result = await run({ returnAll: true, filters: { search } });

		expect(sent(emulator())).toEqual([
			{ method: 'GET', path: '/users', query: {}, body: undefined },
		]);
		const needle = search.trim().toLowerCase();
		expect(result.items.map(({ json }) => json)).toEqual(
			emulator()
				.store.listUsers()
				.filter(({ id, email, name }) => `${id} ${email} ${name}`.toLowerCase().includes(needle)),
		);
		expect(result.items).toHaveLength(count);
	});

	it('finds by Search a user whose email and name are empty, by a part of the ID', async () => {
		emulator().store.users.set('usr_nameless', {
			id: 'usr_nameless',
			name: '',
			email: '',
			createdAt: '2026-01-01T00:00:00.000Z',
		});
		const result = await run({ returnAll: true, filters: { search: 'NAMELESS' } });
		expect(result.items.map(({ json }) => json.id)).toEqual(['usr_nameless']);
	});

	it('applies Limit to the users Search found', async () => {
		const result = await run({ returnAll: false, limit: 2, filters: { search: 'a' } });
		expect(result.items).toHaveLength(2);
		expect(result.items.every(({ json }) => /a/i.test(`${json.email} ${json.name}`))).toBe(true);
	});

	it.each([
		['left empty', ''],
		['only blanks', '   '],
		['an expression giving ""', '={{ $json.who }}'],
	])(
		'refuses Search added and %s, naming the field and the item, before any request',
		async (_label, search) => {
			const result = await run({ returnAll: true, filters: { search } }, [
				{ who: '' },
				{ who: '' },
			]);

			expect(result.error?.message).toBe(
				'The field "Search" is empty: give a value, or remove the field (item 0)',
			);
			expect(emulator().requests).toHaveLength(0);
		},
	);

	it('lists the users once per input item, each list paired to its input', async () => {
		const result = await run({ returnAll: false, limit: 2 }, [{}, {}]);

		expect(emulator().requests).toHaveLength(2);
		expect(result.items.map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 0 },
			{ item: 1 },
			{ item: 1 },
		]);
	});
});
