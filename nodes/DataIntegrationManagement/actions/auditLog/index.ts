import type { INodeProperties } from 'n8n-workflow';

import { resourceDescriptions } from '../operation';
import * as getAll from './getAll.operation';

/** The auditLog operations, by the key the Operation field stores. */
export const operations = { getAll };

export const descriptions: INodeProperties[] = resourceDescriptions('auditLog', operations, [
	{
		name: 'Get Many',
		value: 'getAll',
		action: 'Get many audit log entries',
		description: 'List audit log entries (a beta feature of the service)',
	},
]);
