/**
 * The one table of working parameters, shared by the tests that run every operation (the error
 * walk, the read-only check, the output schemas, the parameter properties).
 */
import type { INodeParameters } from 'n8n-workflow';

import type { Operation } from '../../nodes/DataIntegrationManagement/actions/operation';
import { operationsByResource } from '../../nodes/DataIntegrationManagement/actions/router';
import { SEED } from '../emulator';
import { rl } from './support';

const ORDERS = SEED.integrations.ordersToSnowflake;

/**
 * Parameters with which each operation succeeds against the seeded emulator, by
 * "resource.operation": what a test runs an operation with when its input is not the point.
 */
export const WORKING_PARAMETERS: Record<string, INodeParameters> = {
	'tag.create': { name: 'Walk', owner: rl('id', SEED.users.maya) },
	'tag.update': { tagId: SEED.tags.pii, updateFields: { description: 'walked' } },
	'tag.deleteRelation': { tagId: SEED.tags.pii, ...SEED.piiRelation },
	'asset.create': { name: 'Walk', type: 's3' },
	'asset.update': { assetId: SEED.assets.ordersDb, updateFields: { description: 'walked' } },
	'connector.create': {
		name: 'Walk',
		type: 'postgres',
		connectionType: 'source',
		authMethod: 'direct',
	},
	'integration.get': { integrationId: ORDERS },
	'integration.getSchemas': { integrationId: ORDERS },
	'integration.updateSchemas': {
		integrationId: ORDERS,
		changes: {
			change: [
				{
					level: 'column',
					schema: SEED.schema,
					table: SEED.table,
					column: SEED.hashedColumn,
					hashed: 'hash',
				},
			],
		},
	},
	'integration.getColumns': {
		integrationId: ORDERS,
		schema: rl('name', SEED.schema),
		table: rl('name', SEED.table),
	},
	'user.getAll': { returnAll: false, limit: 5 },
	'auditLog.getAll': { returnAll: false, limit: 5 },
};

/** The parameters of `resource` → `operation`: its working ones, `resource` and `operation`. */
export function workingParametersOf(resource: string, operation: string): INodeParameters {
	return { resource, operation, ...WORKING_PARAMETERS[`${resource}.${operation}`] };
}

/** The values of `resource` → `operation`'s Options → Output, its default first; none: [undefined]. */
export function outputModesOf(resource: string, operation: string): Array<string | undefined> {
	const operations = operationsByResource as unknown as Record<string, Record<string, Operation>>;
	const output = operations[resource][operation].optionFields?.find(
		({ name }) => name === 'output',
	);
	if (!output) return [undefined];
	const values = (output.options as Array<{ value: string }>).map(({ value }) => value);
	return [output.default as string, ...values.filter((value) => value !== output.default)];
}
