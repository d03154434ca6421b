import type { INodeProperties } from 'n8n-workflow';

import { resourceDescriptions } from '../operation';
import * as create from './create.operation';

/** The connector operations, by the key the Operation field stores. */
export const operations = { create };

export const descriptions: INodeProperties[] = resourceDescriptions('connector', operations, [
	{
		name: 'Create',
		value: 'create',
		action: 'Create a connector',
		description: 'Create a connector',
	},
]);
