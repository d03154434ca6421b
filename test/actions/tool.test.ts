import {
	NodeHelpers,
	type IDataObject,
	type INode,
	type INodeParameters,
	type INodeProperties,
} from 'n8n-workflow';

import { DataIntegrationManagement } from '../../nodes/DataIntegrationManagement/DataIntegrationManagement.node';
import { SEED, type FaultSpec } from '../emulator';
import { SUCCESS_CODE } from '../emulator/choices';
import { useEmulator } from '../helpers/emulator';
import { startRecorder } from '../helpers/network';
import {
	FOR_A_403,
	FOR_NO_ANSWER,
	FOR_THE_USER,
	TOOL_ANSWER_CHARACTERS,
} from '../../nodes/DataIntegrationManagement/actions/toolAnswer';
import { runActionNode, TOOL_NODE_TYPE, toolNode } from '../helpers/n8n';

const { emulator, credentials } = useEmulator();

const node = new DataIntegrationManagement();

/**
 * The names of the fields the editor shows for `parameters`, in the node or in its tool form,
 * with collections' options listed as `collection.option`.
 */
function shownFields(parameters: INodeParameters, asTool: boolean): string[] {
	const description = asTool ? toolNode.description : node.description;
	const instance: INode = {
		id: 'n',
		name: 'n',
		type: asTool ? TOOL_NODE_TYPE : 'x.dataIntegrationManagement',
		typeVersion: 1,
		position: [0, 0],
		parameters,
	};
	const shown = (property: INodeProperties, values: INodeParameters) =>
		NodeHelpers.displayParameter(values, property, instance, description, parameters);
	return description.properties
		.filter((property) => shown(property, parameters))
		.flatMap((property) => [
			property.name,
			...((property.type === 'collection' ? property.options : []) as INodeProperties[])
				.filter((option) => shown(option, {}))
				.map((option) => `${property.name}.${option.name}`),
		]);
}

describe('the tool form (AI agents, MCP Server Trigger)', () => {
	it('hides Options → Concurrency and Concurrency Mode, which mean nothing to a model', () => {
		const createTag = { resource: 'tag', operation: 'create' };
		expect(shownFields(createTag, false)).toEqual(
			expect.arrayContaining(['options', 'options.concurrency', 'options.concurrencyMode']),
		);
		expect(shownFields(createTag, true).filter((name) => name.startsWith('options'))).toEqual([]);

		const updateSchemas = { resource: 'integration', operation: 'updateSchemas' };
		expect(shownFields(updateSchemas, true).filter((name) => name.startsWith('options'))).toEqual(
			[],
		);
	});

	it('tells, on Update Schemas in List of Changes, to choose JSON, which one $fromAI() can fill', () => {
		const changes = { resource: 'integration', operation: 'updateSchemas', updateMode: 'changes' };
		expect(shownFields(changes, true)).toContain('toolNotice');
		expect(shownFields(changes, false)).not.toContain('toolNotice');
		expect(shownFields({ ...changes, updateMode: 'json' }, true)).not.toContain('toolNotice');
		expect(shownFields({ ...changes, updateMode: 'json' }, true)).toContain('schemas');
	});

	it('refuses Update Schemas left in List of Changes with none, telling the model to have the user set JSON', async () => {
		const { error } = await runActionNode({
			credentials: credentials(),
			parameters: {
				resource: 'integration',
				operation: 'updateSchemas',
				integrationId: SEED.integrations.ordersToSnowflake,
				updateMode: 'changes',
			},
			asTool: true,
		});
		expect(error?.message).toMatch(
			/which a model cannot fill: nothing was sent\. Tell the user to set Update Mode to JSON/,
		);
		expect(emulator().requests).toEqual([]);
	});

	it('gives what the node gives when Output is not set (Get Schemas, Audit Log → Get Many)', async () => {
		for (const parameters of [
			{
				resource: 'integration',
				operation: 'getSchemas',
				integrationId: SEED.integrations.ordersToSnowflake,
			},
			{ resource: 'auditLog', operation: 'getAll', limit: 2 },
		]) {
			const inNode = await runActionNode({ credentials: credentials(), parameters });
			const asTool = await runActionNode({ credentials: credentials(), parameters, asTool: true });
			const given = inNode.items.map(({ json }) => json);
			// Past Limit, the tool form adds a note that more match (see 'a list cut by its Limit').
			const more = 'limit' in parameters ? [expect.objectContaining({ limitReached: true })] : [];
			expect(asTool.items.map(({ json }) => json)).toEqual([...given, ...more]);
			expect(inNode.items.length).toBeGreaterThan(1);
		}
	});

	it("gives the actor's email as actorEmail in Audit Log → Get Many's Compact", async () => {
		const parameters = { resource: 'auditLog', operation: 'getAll', limit: 2 };
		const full = await runActionNode({ credentials: credentials(), parameters });
		const compact = await runActionNode({
			credentials: credentials(),
			parameters: { ...parameters, options: { output: 'compact' } },
			asTool: true,
		});
		expect(compact.items.map(({ json }) => json)).toEqual([
			...full.items.map(({ json }) => ({
				id: json.id,
				timestamp: json.timestamp,
				event: json.event,
				actorEmail: (json.actor as { email: string }).email,
			})),
			expect.objectContaining({ limitReached: true }),
		]);
	});
});

describe('the tool form with Output set', () => {
	it('Get Schemas gives the compact map (only enabled and hashed) with Compact, the whole map with Raw', async () => {
		const parameters = {
			resource: 'integration',
			operation: 'getSchemas',
			integrationId: SEED.integrations.ordersToSnowflake,
		};
		const compact = await runActionNode({
			credentials: credentials(),
			parameters: { ...parameters, options: { output: 'compact' } },
			asTool: true,
		});
		const stored = emulator().store.schemas.get(SEED.integrations.ordersToSnowflake)!;
		const customers = stored[SEED.schema].tables[SEED.table];
		expect(compact.items[0].json).toEqual({
			schemas: expect.objectContaining({
				[SEED.schema]: expect.objectContaining({
					enabled: stored[SEED.schema].enabled,
					tables: expect.objectContaining({
						[SEED.table]: {
							enabled: customers.enabled,
							columns: Object.fromEntries(
								Object.entries(customers.columns).map(([name, { enabled, hashed }]) => [
									name,
									{ enabled, hashed },
								]),
							),
						},
					}),
				}),
			}),
		});

		const raw = await runActionNode({
			credentials: credentials(),
			parameters: { ...parameters, options: { output: 'raw' } },
			asTool: true,
		});
		expect(raw.items[0].json).toEqual({ schemas: stored });
	});

	it('Audit Log → Get Many gives each entry whole with Raw', async () => {
		const parameters = { resource: 'auditLog', operation: 'getAll', limit: 2 };
		const inNode = await runActionNode({ credentials: credentials(), parameters });
		const rawAsTool = await runActionNode({
			credentials: credentials(),
			parameters: { ...parameters, options: { output: 'raw' } },
			asTool: true,
		});
		expect(rawAsTool.items.slice(0, -1)).toEqual(inNode.items);
		expect(rawAsTool.items[2].json).toMatchObject({ limitReached: true });
		expect(inNode.items[0].json).toHaveProperty('context');
	});
});

/** What a model is given for one call of the tool with `parameters`. */
const answerOf = async (parameters: INodeParameters) =>
	(await runActionNode({ credentials: credentials(), parameters, asTool: true })).items.map(
		({ json }) => json,
	);

describe('a tool answer larger than a model is given', () => {
	it('is cut within the limit, saying what was left out and the Until that gives it (Audit Log → Get Many, Return All)', async () => {
		const parameters = { resource: 'auditLog', operation: 'getAll', returnAll: true };
		const inNode = await runActionNode({ credentials: credentials(), parameters });
		const asTool = await runActionNode({ credentials: credentials(), parameters, asTool: true });
		const answer = asTool.items.map(({ json }) => json);
		const given = answer.length - 1;
		const lastGiven = Date.parse(answer[given - 1].timestamp as string);

		expect(JSON.stringify(inNode.items.map(({ json }) => json)).length).toBeGreaterThan(
			TOOL_ANSWER_CHARACTERS,
		);
		expect(JSON.stringify(answer).length).toBeLessThanOrEqual(TOOL_ANSWER_CHARACTERS);
		expect(answer.slice(0, given)).toEqual(inNode.items.slice(0, given).map(({ json }) => json));
		expect(answer[given]).toMatchObject({
			truncated: true,
			itemsGiven: given,
			itemsLeftOut: inNode.items.length - given,
			narrowWith: `set Filters → Time Range → Until to ${new Date(lastGiven + 1).toISOString()}`,
		});
		expect(
			asTool.items.every(({ pairedItem }) => (pairedItem as { item: number }).item === 0),
		).toBe(true);
	});

	it.each(['desc', 'asc'])(
		'reaches every entry by following the advice, each answer within the limit (Sort Direction %s)',
		async (sortDirection) => {
			const base = { resource: 'auditLog', operation: 'getAll', returnAll: true };
			const options = { sortDirection };
			const all = (
				await runActionNode({ credentials: credentials(), parameters: { ...base, options } })
			).items.map(({ json }) => json.id);
			const seen = new Set<unknown>();
			let timeRange: Record<string, string> = {};
			for (let call = 0; call < 20; call++) {
				const answer = await answerOf({ ...base, options, filters: { timeRange } });
				expect(JSON.stringify(answer).length).toBeLessThanOrEqual(TOOL_ANSWER_CHARACTERS);
				const note = answer[answer.length - 1];
				for (const entry of note.truncated ? answer.slice(0, -1) : answer) seen.add(entry.id);
				if (!note.truncated) break;
				const [, name, value] = /^set Filters → Time Range → (Since|Until) to (\S+)$/.exec(
					note.narrowWith as string,
				)!;
				expect(timeRange[name.toLowerCase()]).not.toBe(value);
				timeRange = { ...timeRange, [name.toLowerCase()]: value };
			}
			expect([...seen].sort()).toEqual([...all].sort());
		},
	);

	it('with the bound already set (more entries at one instant than an answer holds), proposes Compact or the bound past that instant, then the bound in Compact', async () => {
		emulator().reset({ seed: false });
		const at = '2026-10-05T10:00:00.000Z';
		emulator().addAuditEntries([
			{ timestamp: '2026-10-05T09:00:00.000Z', event: 'before' },
			...Array.from({ length: 120 }, () => ({ timestamp: at, event: 'x'.repeat(300) })),
		]);
		const until = new Date(Date.parse(at) + 1).toISOString();
		const parameters = { resource: 'auditLog', operation: 'getAll', returnAll: true };
		const raw = await answerOf({ ...parameters, filters: { timeRange: { until } } });
		expect(raw[raw.length - 1].narrowWith).toBe(
			`set Options → Output to Compact, or set Filters → Time Range → Until to ${at}, past the entries at ${at}, more than an answer holds (outside a tool the node gives them)`,
		);
		const compact = await answerOf({
			...parameters,
			filters: { timeRange: { until } },
			options: { output: 'compact' },
		});
		expect(compact[compact.length - 1]).toMatchObject({
			truncated: true,
			narrowWith: `set Filters → Time Range → Until to ${at}, past the entries at ${at}, more than an answer holds (outside a tool the node gives them)`,
		});
		const beyond = await answerOf({ ...parameters, filters: { timeRange: { until: at } } });
		expect(beyond.map(({ event }) => event)).toEqual(['before']);
	});

	it('User → Get Many: tells to set Filters → Search, which finds any user left out', async () => {
		for (let i = 0; i < 400; i++) {
			const id = `usr_extra${i}`;
			emulator().store.users.set(id, {
				id,
				name: `Extra Person ${i}`,
				email: `extra.person${i}@example.com`,
				createdAt: '2026-01-01T00:00:00.000Z',
			});
		}
		const parameters = { resource: 'user', operation: 'getAll', returnAll: true };
		const answer = await answerOf(parameters);
		const note = answer[answer.length - 1];
		expect(JSON.stringify(answer).length).toBeLessThanOrEqual(TOOL_ANSWER_CHARACTERS);
		expect(note).toMatchObject({
			truncated: true,
			narrowWith:
				'set Filters → Search to a part of the email, the name or the ID of the users you need',
		});
		expect(answer.some(({ id }) => id === 'usr_extra399')).toBe(false);

		const found = await answerOf({ ...parameters, filters: { search: 'PERSON399@' } });
		expect(found).toEqual([expect.objectContaining({ id: 'usr_extra399' })]);
		const many = await answerOf({ ...parameters, filters: { search: 'extra' } });
		expect(many[many.length - 1].narrowWith).toBe(
			'set Filters → Search to a longer part than "extra" of the email, the name or the ID of the users you need',
		);
	});
});

describe('a list cut by its Limit in the tool form', () => {
	it('User → Get Many: gives Limit users, then says more may match and how to get them; no note below Limit', async () => {
		const users = emulator().store.users.size;
		const parameters = { resource: 'user', operation: 'getAll', limit: 2 };
		const answer = await answerOf(parameters);
		expect(answer).toHaveLength(3);
		expect(answer[2]).toEqual({
			truncated: true,
			itemsGiven: 2,
			limitReached: true,
			narrowWith:
				'set Filters → Search to a part of the email, the name or the ID of the users you need',
			message:
				'Limit reached: more items may match past Limit (2). To get them, raise Limit or set Return All, or narrow the request: set Filters → Search to a part of the email, the name or the ID of the users you need.',
		});
		const whole = await answerOf({ ...parameters, limit: users + 1 });
		expect(whole).toHaveLength(users);
		expect(whole.some((item) => 'truncated' in item)).toBe(false);
	});

	it('Audit Log → Get Many: following the advice with the same Limit reaches every entry, each once', async () => {
		const base = { resource: 'auditLog', operation: 'getAll', limit: 7 };
		const all = (
			await runActionNode({ credentials: credentials(), parameters: { ...base, returnAll: true } })
		).items.map(({ json }) => json.id);
		const seen: unknown[] = [];
		let until: string | undefined;
		let limit = base.limit;
		for (let call = 0; call < 100; call++) {
			const timeRange = until ? { timeRange: { until } } : {};
			const answer = await answerOf({ ...base, limit, filters: timeRange });
			const note = answer[answer.length - 1];
			seen.push(...(note.truncated ? answer.slice(0, -1) : answer).map(({ id }) => id));
			if (!note.truncated) break;
			expect(note).toMatchObject({ itemsGiven: limit, limitReached: true });
			// Limit entries at one instant: no bound helps, the note says to raise Limit.
			if (note.narrowWith === undefined) limit *= 2;
			else until = /Until to (\S+)$/.exec(note.narrowWith as string)![1];
		}
		expect(limit).toBeGreaterThan(base.limit);
		// An entry at the instant of the last one given comes again: each is reached, none lost.
		expect([...new Set(seen)].sort()).toEqual([...all].sort());
	});
});

describe('a write in the tool form', () => {
	const wideTable = (columns: number) => {
		const schemas = emulator().store.schemas.get(SEED.integrations.ordersToSnowflake)!;
		const customers = schemas[SEED.schema].tables[SEED.table];
		for (let n = 0; n < columns; n++)
			customers.columns[`extra_column_${n}`] = {
				nameInDestination: `EXTRA_COLUMN_${n}`,
				enabled: true,
				hashed: false,
				isPrimaryKey: false,
			};
	};
	const hashEmail = {
		resource: 'integration',
		operation: 'updateSchemas',
		integrationId: SEED.integrations.ordersToSnowflake,
		updateMode: 'json',
		schemas: JSON.stringify({
			[SEED.schema]: {
				tables: { [SEED.table]: { columns: { extra_column_7: { hashed: true } } } },
			},
		}),
	};

	it('Update Schemas on a table of 400 columns: says the change was made and what it changed, leaves the map out and names the read that gives it', async () => {
		wideTable(400);
		const asTool = await runActionNode({
			credentials: credentials(),
			parameters: hashEmail,
			asTool: true,
		});
		const [answer] = asTool.items.map(({ json }) => json);

		expect(asTool.items).toHaveLength(1);
		expect(JSON.stringify(answer).length).toBeLessThanOrEqual(TOOL_ANSWER_CHARACTERS);
		expect(answer).toEqual({
			changeMade: true,
			integrationId: SEED.integrations.ordersToSnowflake,
			changed: [
				{
					schema: SEED.schema,
					table: SEED.table,
					column: 'extra_column_7',
					enabled: true,
					hashed: true,
				},
			],
			truncated: true,
			leftOut: ['schemas'],
			message: `The change was made. Left out to stay within ${TOOL_ANSWER_CHARACTERS} characters: schemas. Integration → Get Schemas with Integration ID "${SEED.integrations.ordersToSnowflake}", Schema "${SEED.schema}" and Table "${SEED.table}" gives it again.`,
		});
		const stored = emulator().store.schemas.get(SEED.integrations.ordersToSnowflake)!;
		expect(stored[SEED.schema].tables[SEED.table].columns.extra_column_7.hashed).toBe(true);

		// The read it names, narrowed as its answer tells, gives the column with its flags.
		const read = {
			resource: 'integration',
			operation: 'getSchemas',
			integrationId: SEED.integrations.ordersToSnowflake,
			schema: SEED.schema,
			table: SEED.table,
			options: { output: 'compact' },
		};
		const [whole] = await answerOf(read);
		expect(whole.narrowWith).toMatch(/^set Column to a part of the names of the columns you need/);
		const column = await answerOf({ ...read, column: 'extra_column_7' });
		expect(JSON.stringify(column)).toContain('"extra_column_7":{"enabled":true,"hashed":true}');
	});

	it('Update Schemas on a service that ignores a name it does not have: says its answer does not list it', async () => {
		const stored = structuredClone(
			emulator().store.schemas.get(SEED.integrations.ordersToSnowflake)!,
		);
		// A 200 with the map unchanged, as a service that ignores unknown names answers.
		emulator().answerWith({ body: { code: SUCCESS_CODE, data: { schemas: stored } } });
		const [answer] = await answerOf({
			...hashEmail,
			schemas: JSON.stringify({
				[SEED.schema]: { tables: { [SEED.table]: { columns: { emial: { hashed: true } } } } },
			}),
		});
		expect(answer.changed).toEqual([
			{
				schema: SEED.schema,
				table: SEED.table,
				column: 'emial',
				hashed: true,
				unconfirmed:
					"The service's answer does not list it, so this change may not have been made: check its names with Integration → Get Schemas.",
			},
		]);
	});

	it('Update Schemas on a service whose answer leaves out columns: a column not confirmed, a table it lacks maybe not made', async () => {
		const stored = structuredClone(
			emulator().store.schemas.get(SEED.integrations.ordersToSnowflake)!,
		);
		delete (stored[SEED.schema].tables[SEED.table] as { columns?: unknown }).columns;
		emulator().answerWith({ body: { code: SUCCESS_CODE, data: { schemas: stored } } });
		const [answer] = await answerOf({
			...hashEmail,
			schemas: JSON.stringify({
				[SEED.schema]: {
					tables: {
						[SEED.table]: { columns: { email: { hashed: true } } },
						ordrs: { enabled: false },
					},
				},
			}),
		});
		expect(answer.changed).toEqual([
			{
				schema: SEED.schema,
				table: 'ordrs',
				enabled: false,
				unconfirmed: expect.stringContaining('may not have been made'),
			},
			{
				schema: SEED.schema,
				table: SEED.table,
				column: 'email',
				hashed: true,
				unconfirmed:
					"The service's answer leaves out the list it would be in, so it does not confirm this change: Integration → Get Schemas shows it.",
			},
		]);
	});

	it('Update Schemas of 2,500 columns, one misspelt and one answered unhashed: both marked, first, in a cut answer', async () => {
		wideTable(2500);
		const stored = emulator().store.schemas.get(SEED.integrations.ordersToSnowflake)!;
		const answered = structuredClone(stored);
		const columns = answered[SEED.schema].tables[SEED.table].columns;
		for (let n = 0; n < 2499; n++) columns[`extra_column_${n}`].hashed = true;
		// A 200 that leaves one column unhashed and ignores the misspelt name.
		emulator().answerWith({ body: { code: SUCCESS_CODE, data: { schemas: answered } } });
		const hashed: IDataObject = {};
		for (let n = 0; n < 2500; n++) hashed[`extra_column_${n}`] = { hashed: true };
		hashed.extra_colunm_9 = { hashed: true };
		const [answer] = await answerOf({
			...hashEmail,
			schemas: JSON.stringify({ [SEED.schema]: { tables: { [SEED.table]: { columns: hashed } } } }),
		});
		expect(JSON.stringify(answer).length).toBeLessThanOrEqual(TOOL_ANSWER_CHARACTERS);
		const changed = answer.changed as IDataObject[];
		expect(changed.length).toBeLessThan(2501);
		expect(changed.slice(0, 3)).toEqual([
			expect.objectContaining({
				column: 'extra_column_2499',
				hashed: false,
				unconfirmed: expect.stringContaining(
					"hashed is false in the service's answer, true in the change",
				),
			}),
			expect.objectContaining({
				column: 'extra_colunm_9',
				unconfirmed: expect.stringContaining('does not list it'),
			}),
			{
				schema: SEED.schema,
				table: SEED.table,
				column: 'extra_column_0',
				enabled: true,
				hashed: true,
			},
		]);
		expect(answer.leftOut).toEqual([
			`${2501 - changed.length} of the 2501 entries of changed`,
			'schemas',
		]);
	});

	it('Update Schemas answered without a schemas map: each change not confirmed, beside the warning', async () => {
		emulator().answerWith({ body: { code: SUCCESS_CODE, message: 'Schema change queued' } });
		const [answer] = await answerOf(hashEmail);
		expect(answer).toMatchObject({
			changeMade: true,
			changed: [
				{
					schema: SEED.schema,
					table: SEED.table,
					column: 'extra_column_7',
					hashed: true,
					unconfirmed: expect.stringContaining('is not what the API describes (see warning)'),
				},
			],
			warning: expect.any(String),
		});
	});

	it('Update Schemas: gives the whole map too when it fits; the node gives what it gave before', async () => {
		const changes = {
			...hashEmail,
			schemas: JSON.stringify({
				[SEED.schema]: {
					enabled: true,
					tables: { [SEED.table]: { columns: { email: { enabled: false } } } },
				},
			}),
		};
		const [answer] = await answerOf(changes);
		const stored = emulator().store.schemas.get(SEED.integrations.ordersToSnowflake)!;
		const email = stored[SEED.schema].tables[SEED.table].columns.email;
		expect(answer).toEqual({
			changeMade: true,
			integrationId: SEED.integrations.ordersToSnowflake,
			changed: [
				{ schema: SEED.schema, enabled: true },
				{
					schema: SEED.schema,
					table: SEED.table,
					column: 'email',
					enabled: false,
					hashed: email.hashed,
				},
			],
			schemas: stored,
		});
		const inNode = await runActionNode({ credentials: credentials(), parameters: changes });
		expect(inNode.items.map(({ json }) => json)).toEqual([{ schemas: stored }]);
	});

	it('Tag → Create: says the change was made, then the tag as the node outputs it', async () => {
		const parameters = {
			resource: 'tag',
			operation: 'create',
			name: 'Reviewed',
			owner: { __rl: true, mode: 'id', value: SEED.users.maya },
		};
		const [answer] = await answerOf(parameters);
		expect(answer).toEqual({
			changeMade: true,
			id: expect.stringMatching(/^tag_/),
			name: 'Reviewed',
			owner: SEED.users.maya,
		});
		const inNode = await runActionNode({ credentials: credentials(), parameters });
		const { changeMade, ...record } = answer;
		expect(changeMade).toBe(true);
		expect(inNode.items.map(({ json }) => Object.keys(json))).toEqual([Object.keys(record)]);
	});
});

describe('a tool error no value of the model can change', () => {
	const users = { resource: 'user', operation: 'getAll', limit: 2 };
	const callTool = async (credentialChange: object, parameters: INodeParameters = users) =>
		(
			await runActionNode({
				credentials: { ...credentials(), ...credentialChange },
				parameters,
				asTool: true,
			})
		).error;

	it.each<[string, () => object]>([
		['a key refused (401)', () => ({ apiKey: 'wrong-key' })],
		['a Base URL nothing answers at (404)', () => ({ baseUrl: `${emulator().baseUrl}/v2` })],
		['a Base URL that is no address', () => ({ baseUrl: 'localhost:5678/v1' })],
		['an API Key of spaces only', () => ({ apiKey: '   ' })],
	])('%s: tells the model not to retry and to tell the user', async (_title, change) => {
		const error = await callTool(change());
		expect(error?.description).toContain(FOR_THE_USER);
	});

	// A query name of this package's: nothing the model gives changes it; Limit and a Time Range
	// bound carry its values, and "limit" is a word of any message: a value refused, its field named.
	it.each([
		['sortOrder', 'unknown query parameter: sortOrder', true],
		['startTime', 'unknown query parameter: startTime', true],
		['startTime', 'startTime is before the retention period', false],
		['limit', 'limit must be at most 50', false],
		['limit', 'Daily request limit exceeded for this workspace', false],
	])(
		'the audit log refusing "%s" (%s): FOR_THE_USER only for a name no value changes',
		async (name, query, forTheUser) => {
			emulator().injectFault({ kind: 'status', status: 400, message: query, path: '/audit-logs' });
			const error = await callTool({}, { resource: 'auditLog', operation: 'getAll', limit: 2 });
			expect(error?.message).toMatch(
				forTheUser
					? new RegExp(`^The service refused the audit-log query parameter "${name}"`)
					: new RegExp(`^The service refused the audit-log query: ${query}`),
			);
			expect(error?.description?.startsWith("If the service's words name a value")).toBe(
				!forTheUser,
			);
			expect(error?.description?.includes(FOR_THE_USER)).toBe(forTheUser);
		},
	);

	it.each<[string, FaultSpec, string]>([
		['a 403: another record may be allowed', { kind: 'status', status: 403 }, FOR_A_403],
		['no answer (a dropped connection): once more', { kind: 'drop' }, FOR_NO_ANSWER],
	])('%s, else tell the user', async (_title, fault, advice) => {
		emulator().injectFault(fault);
		const error = await callTool({});
		expect(error?.description?.endsWith(`\n\n${advice}`)).toBe(true);
		expect(error?.description).not.toContain(FOR_THE_USER);
	});

	// A proxy's page refusing n8n's address, nginx's to http:// on its https:// port; the API's 403;
	// a 408, 413, 414 mean the same from any server (the model's input may be too large); a 404 page
	// of a record's address says to check its ID first (the model's value); a 5xx page, nothing.
	const auditLog = { resource: 'auditLog', operation: 'getAll', limit: 2 };
	const getIntegration = {
		resource: 'integration',
		operation: 'get',
		integrationId: SEED.integrations.ordersToSnowflake,
	};
	it.each<[number, string, string | undefined, INodeParameters]>([
		[403, '<html><body><h1>403 Forbidden</h1></body></html>', FOR_THE_USER, users],
		[400, '<title>The plain HTTP request was sent to HTTPS port</title>', FOR_THE_USER, users],
		[403, '{"message":"forbidden"}', FOR_A_403, users],
		[413, '<html><body>413 Request Entity Too Large</body></html>', undefined, users],
		[404, '<html><body>404 Not Found</body></html>', undefined, getIntegration],
		[400, '<html><body>400 Bad Request</body></html>', FOR_THE_USER, auditLog],
		[408, '<html><body>408 Request Timeout</body></html>', undefined, users],
		[414, '<html><body>414 Request-URI Too Large</body></html>', undefined, users],
		[502, '<html><body>502 Bad Gateway</body></html>', undefined, users],
	])('a %s answered with %s: its advice', async (status, body, advice, parameters) => {
		const contentType = body.startsWith('<') ? 'text/html' : 'application/json';
		const page = await startRecorder({ status, contentType, body });
		try {
			const error = await callTool({ baseUrl: `${page.origin}/v1` }, parameters);
			expect(error).toMatchObject({ httpCode: String(status) });
			const said = [FOR_THE_USER, FOR_A_403, FOR_NO_ANSWER].filter((words) =>
				error?.description?.endsWith(`\n\n${words}`),
			);
			expect(said).toEqual(advice ? [advice] : []);
		} finally {
			await page.close();
		}
	});

	it('no answer to a write, which may have been made: no "try once more", its own words say to check first', async () => {
		emulator().injectFault({ kind: 'drop' });
		const error = await callTool(
			{},
			{ resource: 'tag', operation: 'create', name: 'T', owner: SEED.users.maya },
		);
		expect(error?.description).toContain('The change may have been made');
		expect(error?.description).not.toContain(FOR_NO_ANSWER);
	});

	it('outside the tool form, the same errors carry none of it', async () => {
		emulator().injectFault({ kind: 'status', status: 403 });
		const { error } = await runActionNode({ credentials: credentials(), parameters: users });
		expect(error?.description).not.toContain(FOR_A_403);
	});

	it("a value the model gave (an owner that is no user's id, 400): says nothing of the kind", async () => {
		const error = await callTool(
			{},
			{ resource: 'tag', operation: 'create', name: 'T', owner: 'usr_missing' },
		);
		expect(error).toMatchObject({ httpCode: '400' });
		expect(error?.description).not.toContain(FOR_THE_USER);
	});

	it("a create's 404 quoting a value it sent (an owner): names it, says nothing of the kind", async () => {
		emulator().injectFault({ kind: 'status', status: 404, message: "user 'usr_9' does not exist" });
		const error = await callTool(
			{},
			{ resource: 'tag', operation: 'create', name: 'T', owner: 'usr_9' },
		);
		expect(error).toMatchObject({ httpCode: '404' });
		expect(error?.description).toMatch(
			/^The service found nothing for Owner "usr_9"\. Check that the Owner names one/,
		);
		expect(error?.description).not.toContain(FOR_THE_USER);
	});

	it.each([
		[
			'the owner it sent, not the tag: names the owner',
			"user 'usr_9' does not exist",
			/^The service found nothing for Owner "usr_9"\. Check that the Owner names one/,
		],
		[
			'the tag: names the Tag ID field',
			`tag '${SEED.tags.pii}' does not exist`,
			/^The service found nothing for Tag ID "tag_\w+"\. Check that the Tag ID names one/,
		],
	])("an update's 404 quoting %s", async (_title, message, words) => {
		emulator().injectFault({ kind: 'status', status: 404, message });
		const owner = { __rl: true, mode: 'id', value: 'usr_9' };
		const error = await callTool(
			{},
			{ resource: 'tag', operation: 'update', tagId: SEED.tags.pii, updateFields: { owner } },
		);
		expect(error).toMatchObject({ httpCode: '404' });
		expect(error?.description).toMatch(words);
		expect(error?.description).not.toContain(FOR_THE_USER);
	});

	it("an update's 404 quoting its new name beside the owner: the owner, a name is no record", async () => {
		emulator().injectFault({
			kind: 'status',
			status: 404,
			message: 'Could not update tag "Customer PII": owner usr_9 not found',
		});
		const owner = { __rl: true, mode: 'id', value: 'usr_9' };
		const updateFields = { name: 'Customer PII', owner };
		const error = await callTool(
			{},
			{ resource: 'tag', operation: 'update', tagId: SEED.tags.pii, updateFields },
		);
		expect(error?.description).toMatch(
			/^The service found nothing for Owner "usr_9"\. Check that the Owner names one/,
		);
	});

	it.each([
		[
			'the resource ID: that field alone',
			"asset 'ast_9' not found",
			/^The service found nothing for Resource ID "ast_9"\. Check that the Resource ID/,
		],
		[
			'nothing sent: every field that named it',
			'no asset with that id',
			/^The service found nothing for Tag ID "tag_\w+", Resource ID "ast_9" and Resource Type "asset"/,
		],
	])("Delete Relation's 404 quoting %s", async (_title, message, words) => {
		emulator().injectFault({ kind: 'status', status: 404, message });
		const relation = { resourceId: 'ast_9', resourceType: 'asset' };
		const error = await callTool(
			{},
			{ resource: 'tag', operation: 'deleteRelation', tagId: SEED.tags.pii, ...relation },
		);
		expect(error?.description).toMatch(words);
	});

	it("a create's 404 quoting nothing it sent names the owner and the Base URL: the model's owner may be made up", async () => {
		emulator().injectFault({ kind: 'status', status: 404, message: 'Not Found' });
		const error = await callTool(
			{},
			{ resource: 'tag', operation: 'create', name: 'T', owner: 'usr_9' },
		);
		expect(error?.description).toMatch(
			/^The service found nothing for Owner "usr_9"\. Check that the Owner names one that exists, and that the Base URL/,
		);
		expect(error?.description).not.toContain(FOR_THE_USER);
	});

	it("a create's 404 naming no such route is the Base URL's: tells the model to tell the user", async () => {
		emulator().injectFault({ kind: 'status', status: 404, message: 'No route for POST /v1/tags' });
		const error = await callTool(
			{},
			{ resource: 'tag', operation: 'create', name: 'T', owner: SEED.users.maya },
		);
		expect(error?.description).toMatch(/^Nothing answers at \/tags under the Base URL/);
		expect(error?.description).toContain(FOR_THE_USER);
	});

	it('a 429 in the tool form names no concurrency, which the tool form hides, over two items too', async () => {
		emulator().injectFault({ kind: 'status', status: 429, retryAfterSeconds: 120, count: 2 });
		const { error } = await runActionNode({
			credentials: credentials(),
			parameters: users,
			asTool: true,
			items: [{}, {}],
		});
		expect(error).toMatchObject({ httpCode: '429' });
		expect(error?.description).not.toContain('Options');
	});

	it('the node outside the tool form says nothing of the kind', async () => {
		const { error } = await runActionNode({
			credentials: { ...credentials(), apiKey: 'wrong-key' },
			parameters: users,
		});
		expect(error).toMatchObject({ httpCode: '401' });
		expect(error?.description).not.toContain(FOR_THE_USER);
	});
});
