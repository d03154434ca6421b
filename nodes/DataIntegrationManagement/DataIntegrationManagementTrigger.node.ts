import {
	NodeConnectionTypes,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
	type IPollFunctions,
} from 'n8n-workflow';

import { getUserEmails } from './methods/userEmails';
import { filtersCollection, pollOptions, startDateField, startFromField } from './trigger/fields';
import { pollAuditLog } from './trigger/poll';
import { triggerBuilderHint } from './shared/builderHints';

export class DataIntegrationManagementTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Data Integration Management Trigger',
		name: 'dataIntegrationManagementTrigger',
		icon: {
			light: 'file:dataIntegrationManagement.svg',
			dark: 'file:dataIntegrationManagement.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		subtitle: 'New audit log entries',
		description: 'Starts the workflow for each new entry of the audit log',
		defaults: { name: 'Data Integration Management Trigger' },
		polling: true,
		builderHint: triggerBuilderHint,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'dataIntegrationManagementApi', required: true }],
		properties: [startFromField, startDateField, filtersCollection, pollOptions],
	};

	methods = { loadOptions: { getUserEmails } };

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await pollAuditLog.call(this);
	}
}
