import {
	NodeConnectionTypes,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

import { router } from './actions/router';
import { operationProperties, resourceProperty } from './actions/resources';
import * as listSearch from './methods/listSearch';
import * as loadOptions from './methods/loadOptions';

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
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'dataIntegrationManagementApi', required: true }],
		properties: [resourceProperty, ...operationProperties],
	};

	methods = {
		listSearch: { ...listSearch },
		loadOptions: { ...loadOptions },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
