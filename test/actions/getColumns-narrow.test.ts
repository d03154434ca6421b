/** Get Columns of a table larger than a tool answer: the note says how to reach every column. */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { ReceivedSchemas } from '../../nodes/DataIntegrationManagement/client/types';
import { SEED } from '../emulator';
import { useEmulator } from '../helpers/emulator';
import { runActionNode } from '../helpers/n8n';
import { largeSchemas, rl } from './support';

const { emulator, credentials } = useEmulator();

const ORDERS = SEED.integrations.ordersToSnowflake;
const table = { integrationId: ORDERS, schema: rl('name', 's0'), table: rl('name', 't0') };
const answerOf = async (operation: string, parameters: INodeParameters) =>
	(
		await runActionNode({
			credentials: credentials(),
			parameters: { resource: 'integration', operation, ...table, ...parameters },
			asTool: true,
		})
	).items.map(({ json }) => json);

describe('Get Columns of a table larger than a tool answer', () => {
	beforeEach(() => emulator().store.schemas.set(ORDERS, largeSchemas(1, 1, 600)));

	it('with Raw (one item, too large alone), tells to give one item per column, or Get Schemas narrowed', async () => {
		const [note] = await answerOf('getColumns', { options: { output: 'raw' } });
		expect(note).toMatchObject({
			truncated: true,
			itemsGiven: 0,
			narrowWith:
				'set Options → Output to One Item per Column, or use Integration → Get Schemas with Schema "s0" and Table "t0", whose Column narrows to a part of the names of the columns you need',
		});
	});

	it('one item per column: the first columns, then Get Schemas, whose Column reaches the rest', async () => {
		const answer = await answerOf('getColumns', {});
		const note = answer[answer.length - 1];
		expect(note).toMatchObject({
			truncated: true,
			itemsGiven: answer.length - 1,
			itemsLeftOut: 600 - (answer.length - 1),
			narrowWith:
				'use Integration → Get Schemas with Schema "s0" and Table "t0", whose Column narrows to a part of the names of the columns you need',
		});
		const [last] = await answerOf('getSchemas', { column: 'c599', options: { output: 'compact' } });
		const columns = (last as IDataObject & { schemas: ReceivedSchemas }).schemas.s0.tables!.t0
			.columns;
		expect(Object.keys(columns!)).toEqual(['c599']);
	});
});
