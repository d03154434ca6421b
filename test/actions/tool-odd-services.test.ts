/**
 * The tool form against services that answer in unusual ways, run through n8n-core against the
 * emulator: what a model is given must still say what the promises in README's "AI agents and
 * MCP clients" say.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { SEED } from '../emulator';
import { SUCCESS_CODE } from '../emulator/choices';
import { useEmulator } from '../helpers/emulator';
import { runActionNode } from '../helpers/n8n';
import { TOOL_ANSWER_CHARACTERS } from '../../nodes/DataIntegrationManagement/actions/toolAnswer';

const { emulator, credentials } = useEmulator();

/** What a model is given for one call of the tool with `parameters`. */
async function answerOf(parameters: INodeParameters): Promise<IDataObject[]> {
	const { items, error } = await runActionNode({
		credentials: credentials(),
		parameters,
		asTool: true,
	});
	expect(error).toBeUndefined();
	return items.map(({ json }) => json);
}

const createTag = {
	resource: 'tag',
	operation: 'create',
	name: 'Reviewed',
	owner: { __rl: true, mode: 'id', value: SEED.users.maya },
};

describe("a write's tool answer, whatever the service's answer holds", () => {
	it('says changeMade: true when the service answers with a field of that name', async () => {
		emulator().answerWith({
			body: { code: SUCCESS_CODE, data: { id: 'tag_1', changeMade: false } },
		});

		const [answer] = await answerOf(createTag);

		expect(answer).toMatchObject({ changeMade: true, id: 'tag_1' });
		expect(Object.keys(answer)[0]).toBe('changeMade');
	});

	it('stays within the limit, with changeMade and the id, when the answer has thousands of fields', async () => {
		const fields = Object.fromEntries(
			Array.from({ length: 3_000 }, (_, n) => [`field_number_${n}`, 'v'.repeat(10)]),
		);
		emulator().answerWith({ body: { code: SUCCESS_CODE, data: { id: 'tag_2', ...fields } } });

		const [answer] = await answerOf(createTag);

		expect(JSON.stringify([answer]).length).toBeLessThanOrEqual(TOOL_ANSWER_CHARACTERS);
		expect(answer).toMatchObject({ changeMade: true, id: 'tag_2', truncated: true });
		expect(answer.message).toMatch(
			/^The change was made\. Left out to stay within 20000 characters: .* and \d+ more fields\.$/,
		);
	});

	it("lists a service's own message as left out rather than overwrite it unsaid", async () => {
		emulator().answerWith({
			body: {
				code: SUCCESS_CODE,
				data: { id: 'tag_3', message: 'Tag queued for review', blob: 'x'.repeat(30_000) },
			},
		});

		const [answer] = await answerOf(createTag);

		expect(answer).toMatchObject({ changeMade: true, id: 'tag_3', leftOut: ['message', 'blob'] });
		expect(answer.message).toBe(
			`The change was made. Left out to stay within ${TOOL_ANSWER_CHARACTERS} characters: message; blob.`,
		);
	});
});

describe('Audit Log → Get Many, an entry larger than an answer alone in Compact', () => {
	const huge = '2026-10-05T10:00:00.000Z';
	beforeEach(() => {
		emulator().reset({ seed: false });
		emulator().addAuditEntries([
			{ timestamp: '2026-10-05T09:00:00.000Z', event: 'before' },
			{ timestamp: huge, event: 'x'.repeat(25_000) },
			{ timestamp: '2026-10-05T11:00:00.000Z', event: 'after' },
		]);
	});
	const base = { resource: 'auditLog', operation: 'getAll', returnAll: true };

	it.each([
		['desc', { until: '2026-10-05T10:30:00.000Z' }, 'Until', huge, 'before'],
		['asc', { since: huge }, 'Since', '2026-10-05T10:00:00.001Z', 'after'],
	])(
		'first of the answer (%s): tells the bound that goes past it, which reaches the entries beyond',
		async (sortDirection, timeRange, name, bound, beyond) => {
			const options = { output: 'compact', sortDirection };
			const answer = await answerOf({ ...base, options, filters: { timeRange } });
			expect(answer).toHaveLength(1);
			expect(answer[0]).toMatchObject({ truncated: true, itemsGiven: 0, itemsLeftOut: 2 });
			expect(answer[0].narrowWith).toBe(
				`set Filters → Time Range → ${name} to ${bound}, past the first entry, which is larger than an answer alone (outside a tool the node gives them)`,
			);

			const rest = await answerOf({
				...base,
				options,
				filters: { timeRange: { ...timeRange, [name.toLowerCase()]: bound } },
			});
			expect(rest.map(({ event }) => event)).toEqual([beyond]);
		},
	);

	it.each([
		['desc', { since: huge, until: '2026-10-05T10:30:00.000Z' }],
		['asc', { since: huge, until: '2026-10-05T10:00:00.001Z' }],
	])(
		'alone in the range (%s): no bound past it, which would leave no range, only what was left out',
		async (sortDirection, timeRange) => {
			const options = { output: 'compact', sortDirection };
			const [note] = await answerOf({ ...base, options, filters: { timeRange } });
			expect(note).toMatchObject({ truncated: true, itemsGiven: 0, itemsLeftOut: 1 });
			expect(note).not.toHaveProperty('narrowWith');
		},
	);
});
