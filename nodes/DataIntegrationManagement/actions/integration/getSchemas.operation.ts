import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { integrationIdField, optionsCollection } from '../../shared/descriptions';
import { readParameter, readPathSegment, runsAsTool } from '../readers';
import { namingFieldsIfNotFound } from '../../shared/notFound';
import { getSchemas } from '../../client/integrations';
import { compactSchemas, flattenSchemas, type SchemaLevel } from './sourceSchemas';
import type { Pacer } from '../../transport/pacer';

const outputField: INodeProperties = {
	displayName: 'Output',
	name: 'output',
	type: 'options',
	default: 'raw',
	description:
		'Unless set here, the node gives Raw and its AI tool form gives Compact, to keep what a model reads short',
	options: [
		{
			name: 'Compact',
			value: 'compact',
			description:
				'One item holding the schemas map with only "enabled" and "hashed": the shape Update Schemas takes',
		},
		{ name: 'One Item per Column', value: 'columns' },
		{ name: 'One Item per Schema', value: 'schemas' },
		{ name: 'One Item per Table', value: 'tables' },
		{
			name: 'Raw',
			value: 'raw',
			description: 'One item holding the schemas map as the service returns it',
		},
	],
};

/** What an AI tool gives when Output is not set. */
const toolOutputField: INodeProperties = { ...outputField, default: 'compact' };

/** Only reads: runs under a read-only credential too. */
export const changesData = false;

export const properties: INodeProperties[] = [integrationIdField, optionsCollection([outputField])];

const LEVEL_OF_OUTPUT: Record<string, SchemaLevel> = {
	schemas: 'schema',
	tables: 'table',
	columns: 'column',
};

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	pacer: Pacer,
): Promise<IDataObject | IDataObject[]> {
	const integrationId = readPathSegment.call(this, itemIndex, properties, 'integrationId');
	const field = runsAsTool.call(this) ? toolOutputField : outputField;
	const output = readParameter.call(this, itemIndex, field, 'options.output') as string;
	const schemas = await namingFieldsIfNotFound(
		this.getNode(),
		properties,
		{ integrationId },
		getSchemas.call(this, integrationId, pacer),
	);
	const level = LEVEL_OF_OUTPUT[output];
	if (level) return flattenSchemas(schemas, level);
	const map = output === 'compact' ? compactSchemas(schemas) : schemas;
	return { schemas: map };
}
