import type { INodeProperties } from 'n8n-workflow';

import { resourceDescriptions } from '../operation';
import * as getAll from './getAll.operation';

/** The user operations, by the key the Operation field stores. */
export const operations = { getAll };

export const descriptions: INodeProperties[] = resourceDescriptions('user', operations, [
	{
		name: 'Get Many',
		value: 'getAll',
		action: 'Get many users',
		description: 'List the users of the workspace',
	},
]);
