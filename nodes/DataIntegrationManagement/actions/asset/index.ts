import type { INodeProperties } from 'n8n-workflow';

import { resourceDescriptions } from '../operation';
import * as create from './create.operation';
import * as update from './update.operation';

/** The asset operations, by the key the Operation field stores. */
export const operations = { create, update };

export const descriptions: INodeProperties[] = resourceDescriptions('asset', operations, [
	{ name: 'Create', value: 'create', action: 'Create an asset', description: 'Create an asset' },
	{ name: 'Update', value: 'update', action: 'Update an asset', description: 'Edit an asset' },
]);
