import type { INodeProperties } from 'n8n-workflow';

import { resourceDescriptions } from '../operation';
import * as get from './get.operation';
import * as getColumns from './getColumns.operation';
import * as getSchemas from './getSchemas.operation';
import * as updateSchemas from './updateSchemas.operation';

/** The integration operations, by the key the Operation field stores. */
export const operations = { get, getSchemas, updateSchemas, getColumns };

export const descriptions: INodeProperties[] = resourceDescriptions('integration', operations, [
	{
		name: 'Get',
		value: 'get',
		action: 'Get an integration',
		description: 'Get the details of an integration',
	},
	{
		name: 'Get Columns',
		value: 'getColumns',
		action: 'Get the columns of a source table',
		description: 'Get the column configuration of one source table',
	},
	{
		name: 'Get Schemas',
		value: 'getSchemas',
		action: 'Get the source schema of an integration',
		description:
			'Get which schemas, tables and columns are enabled or hashed: of the whole source, or of one schema or table',
	},
	{
		name: 'Update Schemas',
		value: 'updateSchemas',
		action: 'Update the source schema of an integration',
		description: 'Enable or disable schemas, tables and columns, and hash columns',
	},
]);
