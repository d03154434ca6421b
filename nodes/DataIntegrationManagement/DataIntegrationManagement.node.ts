import {
	NodeConnectionTypes,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
	type INodePropertyOptions,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

import * as asset from './actions/asset';
import * as auditLog from './actions/auditLog';
import * as connector from './actions/connector';
import * as integration from './actions/integration';
import type { Resource } from './actions/node.type';
import { router } from './actions/router';
import * as tag from './actions/tag';
import * as user from './actions/user';
import * as listSearch from './methods/listSearch';
import { getUserEmails } from './methods/userEmails';
import { actionBuilderHint, toolReplacements } from './shared/builderHints';

export class DataIntegrationManagement implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Data Integration Management',
		name: 'dataIntegrationManagement',
		icon: {
			light: 'file:dataIntegrationManagement.svg',
			dark: 'file:dataIntegrationManagement.dark.svg',
		},
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			'Manage tags, assets, connectors, integrations and their source schemas, users and audit logs',
		defaults: { name: 'Data Integration Management' },
		usableAsTool: toolReplacements,
		builderHint: actionBuilderHint,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'dataIntegrationManagementApi', required: true }],
		properties: [
			{
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
			} satisfies INodeProperties & {
				options: Array<INodePropertyOptions & { value: Resource }>;
				default: Resource;
			},
			...tag.descriptions,
			...asset.descriptions,
			...connector.descriptions,
			...integration.descriptions,
			...user.descriptions,
			...auditLog.descriptions,
		],
	};

	methods = { listSearch: { ...listSearch }, loadOptions: { getUserEmails } };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
