import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { SEED } from '../emulator';
import { useEmulator } from '../helpers/emulator';
import { runActionNode } from '../helpers/n8n';
import { rl, sent } from './support';

const { emulator, credentials } = useEmulator();

const run = (parameters: INodeParameters, items?: IDataObject[]) =>
	runActionNode({
		credentials: credentials(),
		parameters: { resource: 'tag', ...parameters },
		items,
	});

describe('tag create', () => {
	it('sends name, owner from a list-mode locator and description, and returns the tag as created', async () => {
		const result = await run({
			operation: 'create',
			name: 'Customer data',
			owner: rl('list', SEED.users.aiko),
			additionalFields: { description: 'Rows about customers' },
		});

		expect(result.error).toBeUndefined();
		expect(sent(emulator())).toEqual([
			{
				method: 'POST',
				path: '/tags',
				query: {},
				body: {
					name: 'Customer data',
					owner: SEED.users.aiko,
					description: 'Rows about customers',
				},
			},
		]);
		expect(emulator().requests[0].headers['x-api-key']).toBe(emulator().apiKey);
		expect(result.items).toHaveLength(1);
		const id = result.items[0].json.id as string;
		expect(result.items[0].json).toEqual({
			id: expect.stringMatching(/^tag_/),
			name: 'Customer data',
			owner: SEED.users.aiko,
			description: 'Rows about customers',
		});
		expect(Object.keys(result.items[0].json)).toEqual(['id', 'name', 'owner', 'description']);
		expect(result.items[0].pairedItem).toEqual({ item: 0 });
		expect(emulator().store.tags.get(id)).toMatchObject({
			name: 'Customer data',
			owner: SEED.users.aiko,
		});
	});

	it.each([
		['an id-mode locator', rl('id', SEED.users.priya)],
		['a plain string', SEED.users.priya],
	])('accepts the owner as %s', async (_label, owner) => {
		const result = await run({ operation: 'create', name: 'Plain', owner });

		expect(result.error).toBeUndefined();
		expect(sent(emulator())[0].body).toEqual({ name: 'Plain', owner: SEED.users.priya });
	});

	it('creates one tag per input item, each output paired to its input', async () => {
		const result = await run(
			{ operation: 'create', name: 'Batch', owner: rl('list', SEED.users.maya) },
			[{ n: 1 }, { n: 2 }, { n: 3 }],
		);

		expect(sent(emulator()).map((r) => r.method + ' ' + r.path)).toEqual([
			'POST /tags',
			'POST /tags',
			'POST /tags',
		]);
		expect(result.items.map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
		]);
		const ids = result.items.map((item) => item.json.id);
		expect(new Set(ids).size).toBe(3);
		for (const id of ids) expect(emulator().store.tags.has(id as string)).toBe(true);
	});

	it('fails without a request when the owner is blank', async () => {
		const result = await run({ operation: 'create', name: 'No owner', owner: rl('id', '   ') });

		expect(result.error).toMatchObject({ name: 'NodeOperationError', context: { itemIndex: 0 } });
		expect(result.error?.message).toBe('The field "Owner" is blank (item 0)');
		expect(emulator().requests).toHaveLength(0);
	});

	it.each([
		['gives nothing', '={{ $json.nobody }}', 'no value'],
		['gives spaces', "={{ '  ' }}", 'only spaces'],
	])("says so, without a request, when the owner's expression %s", async (_title, owner, gave) => {
		const result = await run({ operation: 'create', name: 'No owner', owner: rl('id', owner) });

		expect(result.error).toMatchObject({
			message: `The field "Owner" is empty: its expression gave ${gave} (item 0)`,
			description: 'Check that the expression finds a value for this item, or type the value.',
		});
		expect(emulator().requests).toHaveLength(0);
	});

	it('names the Owner field when a 404 quotes the owner sent', async () => {
		const message = "user 'usr_zz99' not found";
		emulator().injectFault({ kind: 'status', status: 404, message, method: 'POST' });

		const result = await run({ operation: 'create', name: 'Lost', owner: rl('id', 'usr_zz99') });

		expect(result.error).toMatchObject({ name: 'NodeApiError', httpCode: '404' });
		expect(result.error?.description).toBe(
			'The service found nothing for Owner "usr_zz99". Check that the Owner names one that exists, and that the Base URL in the credential is the API\'s address, ending in /v1.',
		);
	});

	it.each([
		['"Owner not found" (the field, not the value)', 'Owner not found', 'usr_zz99'],
		['words in another language', 'Propriétaire introuvable', 'usr_zz99'],
		['an owner of 2 characters, quoted', "user 'u9' not found", 'u9'],
		['no words at all', undefined, 'usr_zz99'],
	])(
		'names the Owner field, not the Base URL alone, when a 404 says %s',
		async (_title, message, owner) => {
			// POST /tags has no ID: the owner is the one value sent that names another record.
			emulator().answerWith({ status: 404, body: message ? { message } : {}, path: '/tags' });

			const result = await run({ operation: 'create', name: 'Lost', owner: rl('id', owner) });

			expect(result.error?.description).toBe(
				`The service found nothing for Owner "${owner}". Check that the Owner names one that exists, and that the Base URL in the credential is the API's address, ending in /v1. If both are right, the service may not offer this operation.`,
			);
		},
	);

	it("points at the Base URL alone when a 404 is a web page (a proxy's), not the service's words", async () => {
		emulator().answerWith({
			status: 404,
			body: '<!DOCTYPE html><p>Cannot POST</p>',
			path: '/tags',
		});

		const result = await run({ operation: 'create', name: 'Lost', owner: rl('id', 'usr_zz99') });

		expect(result.error?.description).toMatch(/^Nothing answers at \/tags under the Base URL/);
	});

	it('is stopped by n8n before it runs when the owner is empty', async () => {
		await expect(
			run({ operation: 'create', name: 'No owner', owner: rl('list', '') }),
		).rejects.toThrow('Parameter "Owner" is required');
		expect(emulator().requests).toHaveLength(0);
	});
});

describe('tag update', () => {
	it('sends only the fields given and returns the edited tag', async () => {
		const result = await run({
			operation: 'update',
			tagId: SEED.tags.finance,
			updateFields: { name: 'Finance & billing' },
		});

		expect(sent(emulator())).toEqual([
			{
				method: 'PUT',
				path: `/tags/${SEED.tags.finance}`,
				query: {},
				body: { name: 'Finance & billing' },
			},
		]);
		expect(result.items).toEqual([
			{
				json: expect.objectContaining({
					id: SEED.tags.finance,
					name: 'Finance & billing',
					owner: SEED.users.daniel,
					origin: 'api',
				}),
				pairedItem: { item: 0 },
			},
		]);
	});

	it.each([
		['a list-mode locator', rl('list', SEED.users.lucas)],
		['an id-mode locator', rl('id', SEED.users.lucas)],
		['a plain string', SEED.users.lucas],
	])('sends the owner given as %s', async (_label, owner) => {
		const result = await run({
			operation: 'update',
			tagId: SEED.tags.gdpr,
			updateFields: { owner, description: 'EU requests' },
		});

		expect(result.error).toBeUndefined();
		expect(sent(emulator())[0].body).toEqual({
			owner: SEED.users.lucas,
			description: 'EU requests',
		});
		expect(emulator().store.tags.get(SEED.tags.gdpr)?.owner).toBe(SEED.users.lucas);
		expect(result.items[0].json.owner).toBe(SEED.users.lucas);
	});

	it('fails with a clear error and sends nothing when no field is given', async () => {
		const result = await run({ operation: 'update', tagId: SEED.tags.pii, updateFields: {} });

		expect(result.error?.message).toBe(
			'Set at least one of Description, Name, Owner under "Update Fields" (item 0)',
		);
		expect(result.items).toEqual([]);
		expect(emulator().requests).toHaveLength(0);
	});

	it('refuses an Owner added and left empty, rather than dropping it unsaid', async () => {
		const result = await run({
			operation: 'update',
			tagId: SEED.tags.pii,
			updateFields: { owner: rl('list', '') },
		});

		expect(result.error?.message).toBe(
			'The field "Owner" is empty: pick one, or remove the field (item 0)',
		);
		expect(emulator().requests).toHaveLength(0);
	});

	it.each([
		[
			'quoting the owner sent names the Owner field alone',
			"user 'usr_zz99' not found",
			'The service found nothing for Owner "usr_zz99". Check that the Owner names one',
		],
		[
			'quoting the tag names the Tag ID alone',
			`tag '${SEED.tags.pii}' does not exist`,
			`The service found nothing for Tag ID "${SEED.tags.pii}". Check that the Tag ID names one`,
		],
		[
			'quoting the tag and the owner names both',
			`owner usr_zz99 of tag ${SEED.tags.pii} not found`,
			`The service found nothing for Tag ID "${SEED.tags.pii}" and Owner "usr_zz99". Check that each of Tag ID and Owner names one`,
		],
		[
			'quoting nothing sent names the Tag ID and the Owner: either may be missing',
			'not found',
			`The service found nothing for Tag ID "${SEED.tags.pii}" and Owner "usr_zz99". Check that each of Tag ID and Owner names one`,
		],
	])('a 404 %s', async (_title, message, words) => {
		emulator().injectFault({ kind: 'status', status: 404, message, method: 'PUT' });

		const result = await run({
			operation: 'update',
			tagId: SEED.tags.pii,
			updateFields: { owner: rl('id', 'usr_zz99') },
		});

		expect(result.error).toMatchObject({ name: 'NodeApiError', httpCode: '404' });
		expect(result.error?.description).toContain(words);
	});

	it('encodes the tag id in the path', async () => {
		const result = await run({ operation: 'update', tagId: 'a/b c', updateFields: { name: 'x' } });

		expect(emulator().requests[0].path).toBe('/tags/a%2Fb%20c');
		expect(result.error).toMatchObject({ name: 'NodeApiError', httpCode: '404' });
	});
});

describe('tag deleteRelation', () => {
	it('sends DELETE with the relation as its body and reports what was removed', async () => {
		const result = await run({
			operation: 'deleteRelation',
			tagId: SEED.tags.pii,
			resourceId: SEED.piiRelation.resourceId,
			resourceType: SEED.piiRelation.resourceType,
		});

		expect(sent(emulator())).toEqual([
			{
				method: 'DELETE',
				path: `/tags/${SEED.tags.pii}/relation`,
				query: {},
				body: SEED.piiRelation,
			},
		]);
		expect(result.items).toEqual([
			{
				json: {
					deleted: true,
					tagId: SEED.tags.pii,
					...SEED.piiRelation,
					message: 'Tag relation deleted',
				},
				pairedItem: { item: 0 },
			},
		]);
		expect(emulator().store.tagRelations.get(SEED.tags.pii)).not.toContainEqual(SEED.piiRelation);
	});

	it('reports a relation that does not exist as a 404 of that item', async () => {
		const result = await run({
			operation: 'deleteRelation',
			tagId: SEED.tags.finance,
			resourceId: 'ast_missing',
			resourceType: 'asset',
		});

		expect(result.error).toMatchObject({
			name: 'NodeApiError',
			httpCode: '404',
			context: { itemIndex: 0 },
		});
		expect(result.error?.message).toContain("has no relation to asset 'ast_missing'");
		// Run twice (the example workflow, a re-run after a failure): the second says why.
		expect(result.error?.description).toBe(
			`The service found nothing for Tag ID "${SEED.tags.finance}", Resource ID "ast_missing" and Resource Type "asset". Check that each of Tag ID, Resource ID and Resource Type names one that exists, and that the Base URL in the credential is the API's address, ending in /v1. If they are right, the tag may no longer be on that resource (an earlier run may have removed it): nothing is left to delete.`,
		);
	});
});
