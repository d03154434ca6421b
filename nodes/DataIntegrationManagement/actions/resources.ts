import type { INodeProperties } from 'n8n-workflow';

import type { Operation } from './operation';
import { assetDescription, assetOperations } from './asset';
import { auditLogDescription, auditLogOperations } from './auditLog';
import { connectorDescription, connectorOperations } from './connector';
import { integrationDescription, integrationOperations } from './integration';
import { tagDescription, tagOperations } from './tag';
import { userDescription, userOperations } from './user';

/** Every operation, by resource and operation value: what the router dispatches on. */
export const operationsByResource: Record<string, Record<string, Operation>> = {
	tag: tagOperations,
	asset: assetOperations,
	connector: connectorOperations,
	integration: integrationOperations,
	user: userOperations,
	auditLog: auditLogOperations,
};

export const resourceProperty: INodeProperties = {
	displayName: 'Resource',
	name: 'resource',
	type: 'options',
	noDataExpression: true,
	options: [
		{ name: 'Asset', value: 'asset' },
		{ name: 'Audit Log', value: 'auditLog' },
		{ name: 'Connector', value: 'connector' },
		{ name: 'Integration', value: 'integration' },
		{ name: 'Tag', value: 'tag' },
		{ name: 'User', value: 'user' },
	],
	default: 'tag',
};

export const operationProperties: INodeProperties[] = [
	...tagDescription,
	...assetDescription,
	...connectorDescription,
	...integrationDescription,
	...userDescription,
	...auditLogDescription,
];
