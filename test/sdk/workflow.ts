/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * A workflow written with n8n's own SDK (@n8n/workflow-sdk), as n8n's AI workflow builder writes
 * one: the audit-log trigger, then one operation of every resource of the action node. Each node
 * is typed by the node definitions the SDK generates from the built package
 * (test/sdk/node-definitions.ts): test/sdk/workflow-sdk.test.ts type-checks this file against
 * them, and the end-to-end run imports its JSON into n8n and runs it against the emulator.
 */
import { node, trigger, workflow, type WorkflowJSON } from '@n8n/workflow-sdk';
import type {
	DataIntegrationManagementTriggerV1Node,
	DataIntegrationManagementV1AssetCreateNode,
	DataIntegrationManagementV1AuditLogGetAllNode,
	DataIntegrationManagementV1ConnectorCreateNode,
	DataIntegrationManagementV1IntegrationGetNode,
	DataIntegrationManagementV1TagCreateNode,
	DataIntegrationManagementV1UserGetAllNode,
} from '@node-definitions';

import { SEED } from '../emulator/seed';

/** At most 16 characters: n8n 1.x keeps no static data (the trigger's cursor) for longer ids. */
export const SDK_WORKFLOW_ID = 'dimSdkWorkflow';

/** The placeholder credential the examples name (the e2e run imports one with this id). */
const credentials = {
	dataIntegrationManagementApi: {
		id: 'dataIntegrationManagementCredential',
		name: 'Data Integration Management API account',
	},
};

const TYPE = 'n8n-nodes-data-integration-management.dataIntegrationManagement';

const auditEntries = trigger({
	type: 'n8n-nodes-data-integration-management.dataIntegrationManagementTrigger',
	version: 1,
	isTrigger: true,
	config: {
		name: 'New audit log entry',
		parameters: {
			startFrom: 'date',
			startDate: '2020-01-01T00:00:00Z',
			options: { maxItemsPerPoll: 1 },
		},
		credentials,
	},
} satisfies DataIntegrationManagementTriggerV1Node);

const createTag = node({
	type: TYPE,
	version: 1,
	config: {
		name: 'Create tag',
		parameters: {
			resource: 'tag',
			operation: 'create',
			name: 'Reviewed',
			owner: { __rl: true, mode: 'id', value: SEED.users.maya },
			additionalFields: { description: '={{ "After " + $json.event }}' },
		},
		credentials,
	},
} satisfies DataIntegrationManagementV1TagCreateNode);

const createAsset = node({
	type: TYPE,
	version: 1,
	config: {
		name: 'Create asset',
		parameters: {
			resource: 'asset',
			operation: 'create',
			name: 'Orders replica',
			type: 'postgres',
		},
		credentials,
	},
} satisfies DataIntegrationManagementV1AssetCreateNode);

const createConnector = node({
	type: TYPE,
	version: 1,
	config: {
		name: 'Create connector',
		parameters: {
			resource: 'connector',
			operation: 'create',
			name: 'Orders replica source',
			type: 'postgres',
			connectionType: 'source',
			authMethod: 'direct',
		},
		credentials,
	},
} satisfies DataIntegrationManagementV1ConnectorCreateNode);

const getIntegration = node({
	type: TYPE,
	version: 1,
	config: {
		name: 'Get integration',
		parameters: {
			resource: 'integration',
			operation: 'get',
			integrationId: SEED.integrations.ordersToSnowflake,
		},
		credentials,
	},
} satisfies DataIntegrationManagementV1IntegrationGetNode);

const getUsers = node({
	type: TYPE,
	version: 1,
	config: {
		name: 'Get users',
		parameters: { resource: 'user', operation: 'getAll', returnAll: false, limit: 1 },
		credentials,
	},
} satisfies DataIntegrationManagementV1UserGetAllNode);

const getAuditLog = node({
	type: TYPE,
	version: 1,
	config: {
		name: 'Get audit log',
		parameters: {
			resource: 'auditLog',
			operation: 'getAll',
			returnAll: false,
			limit: 1,
			filters: { timeRange: { since: '2020-01-01T00:00:00Z' } },
			options: { sortDirection: 'asc', output: 'compact' },
		},
		credentials,
	},
} satisfies DataIntegrationManagementV1AuditLogGetAllNode);

/** The nodes in the order they run, each feeding the next one item. */
export const SDK_WORKFLOW_NODES = [
	auditEntries,
	createTag,
	createAsset,
	createConnector,
	getIntegration,
	getUsers,
	getAuditLog,
].map(({ name }) => name);

/** The workflow as n8n imports it. */
export function sdkWorkflowJson(): WorkflowJSON {
	return workflow(SDK_WORKFLOW_ID, 'Data Integration Management: written with the workflow SDK')
		.add(auditEntries)
		.to(createTag)
		.to(createAsset)
		.to(createConnector)
		.to(getIntegration)
		.to(getUsers)
		.to(getAuditLog)
		.toJSON();
}
