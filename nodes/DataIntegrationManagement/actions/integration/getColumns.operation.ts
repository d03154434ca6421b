import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { integrationIdField } from '../../shared/descriptions';
import { readParameter, readPathSegment } from '../readers';
import { namingFieldsIfNotFound } from '../../shared/notFound';
import { getColumns } from '../../client/integrations';
import { schemaLocator, tableLocator } from './locators';
import type { Execute } from '../operation';
import type { Advice } from '../toolAnswer';

const outputField: INodeProperties = {
	displayName: 'Output',
	name: 'output',
	type: 'options',
	default: 'columns',
	description: 'How to return the columns: one item per column, or as the service returns them',
	options: [
		{
			name: 'One Item per Column',
			value: 'columns',
			description: 'Each column as an item, with the schema, table and column names that place it',
		},
		{
			name: 'Raw',
			value: 'raw',
			description: 'One item holding the columns map as the service returns it',
		},
	],
};

export const changesData = false;

export const properties: INodeProperties[] = [integrationIdField, schemaLocator, tableLocator];

export const optionFields = [outputField];

/**
 * In the tool form, a table too large: Raw's one item gives nothing, so One Item per Column; past
 * that, Get Schemas, whose Column narrows to a part of the column names (Get Columns has none).
 */
export function narrowWith(this: IExecuteFunctions, itemIndex: number): Advice {
	const output = readParameter.call(this, itemIndex, outputField, 'options.output');
	const [schema, table] = ['schema', 'table'].map((name) =>
		JSON.stringify(readPathSegment.call(this, itemIndex, properties, name)),
	);
	const bySchemas = `use Integration → Get Schemas with Schema ${schema} and Table ${table}, whose Column narrows to a part of the names of the columns you need`;
	return () =>
		output === 'raw' ? `set Options → Output to One Item per Column, or ${bySchemas}` : bySchemas;
}

export const execute: Execute = async function (itemIndex, pacer) {
	const integrationId = readPathSegment.call(this, itemIndex, properties, 'integrationId');
	const schema = readPathSegment.call(this, itemIndex, properties, 'schema');
	const table = readPathSegment.call(this, itemIndex, properties, 'table');
	const output = readParameter.call(this, itemIndex, outputField, 'options.output') as string;
	const columns = await namingFieldsIfNotFound(
		this.getNode(),
		properties,
		{ integrationId, schema, table },
		getColumns.call(this, integrationId, schema, table, pacer),
	);
	if (output === 'raw') return { columns: columns };
	return Object.entries(columns).map(([column, entry]) => ({ schema, table, column, ...entry }));
};
