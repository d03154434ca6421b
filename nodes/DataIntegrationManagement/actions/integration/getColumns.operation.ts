import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { Operation } from '../operation';
import { withDisplay } from '../operation';
import { integrationIdField, optionsCollection } from '../fields';
import { readRequired } from '../parameters';
import { fetchColumns } from './requests';

/** A schema or table picked from the integration's source schema, or typed by name. */
function nameLocator(
	displayName: string,
	name: string,
	searchListMethod: string,
	example: string,
): INodeProperties {
	return {
		displayName,
		name,
		type: 'resourceLocator',
		required: true,
		default: { mode: 'list', value: '' },
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: { searchListMethod, searchable: true },
			},
			{ displayName: 'By Name', name: 'name', type: 'string', placeholder: `e.g. ${example}` },
		],
	};
}

const fields: INodeProperties[] = [
	integrationIdField,
	nameLocator('Schema', 'schema', 'searchSchemas', 'public'),
	nameLocator('Table', 'table', 'searchTables', 'orders'),
	optionsCollection([
		{
			displayName: 'Output',
			name: 'output',
			type: 'options',
			default: 'columns',
			options: [
				{ name: 'One Item per Column', value: 'columns' },
				{
					name: 'Raw',
					value: 'raw',
					description: 'One item holding the columns map as the API returns it',
				},
			],
		},
	]),
];

async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<IDataObject | IDataObject[]> {
	const integrationId = readRequired.call(this, 'integrationId', itemIndex, 'Integration ID');
	const schema = readRequired.call(this, 'schema', itemIndex, 'Schema');
	const table = readRequired.call(this, 'table', itemIndex, 'Table');
	const columns = await fetchColumns.call(this, integrationId, schema, table);
	if (this.getNodeParameter('options.output', itemIndex, 'columns') === 'raw') {
		return { columns: columns as unknown as IDataObject };
	}
	return Object.entries(columns).map(([column, entry]) => ({ schema, table, column, ...entry }));
}

export const getColumns: Operation = {
	description: withDisplay('integration', 'getColumns', fields),
	execute,
};
