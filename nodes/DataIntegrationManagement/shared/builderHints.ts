import type { IBuilderHint, UsableAsToolDescription } from 'n8n-workflow';

/**
 * What n8n's AI workflow builder reads of each node beyond its description (n8n 2.41 and later;
 * older n8n ignores these keys). In hints, `name` is a parameter or one of its values, and
 * `name: value` a parameter with one of its values; "Resource → Operation" names an operation.
 * test/package/builder-hints.test.ts checks each against the node's description.
 */

/** The type names n8n gives this package's nodes: `<package name>.<node name>`. */
const PACKAGE = 'n8n-nodes-data-integration-management';
export const ACTION_NODE_TYPE = `${PACKAGE}.dataIntegrationManagement`;
export const TRIGGER_NODE_TYPE = `${PACKAGE}.dataIntegrationManagementTrigger`;

export const actionBuilderHint: IBuilderHint = {
	searchHint:
		'Data integration service: tags, assets, connectors, integrations and their source schemas (enable, disable or hash schemas, tables and columns), users, audit log. Integration → Get Schemas reads one schema or table when `schema` and `table` are set. User → Get Many finds users by a part of their email or name (Filters → `search`). To start a workflow on each new audit log entry, use its trigger.',
	relatedNodes: [
		{
			nodeType: TRIGGER_NODE_TYPE,
			relationHint: 'Starts a workflow once for each new audit log entry of the same service',
		},
	],
};

export const triggerBuilderHint: IBuilderHint = {
	searchHint:
		'Polls the data integration audit log and emits each new entry once. `startFrom: now` skips entries already logged; `startFrom: date` with `startDate` emits them from that time on.',
	relatedNodes: [
		{
			nodeType: ACTION_NODE_TYPE,
			relationHint:
				'Acts on the same service: tags, assets, connectors, integrations, users, past audit log entries',
		},
	],
};

/** The action node's tool form (AI agents, the MCP Server Trigger): its description, for a model. */
export const toolReplacements: UsableAsToolDescription = {
	replacements: {
		description:
			'Data integration service: manages tags, assets and connectors, removes a tag from a resource, reads integrations and their source schemas (Schema, Table narrow them), enables, disables or hashes schemas, tables and columns, finds users by email or name, lists audit logs. Use IDs as results give them; write times in ISO 8601 with a zone. A cut answer says what narrows it; a change: changeMade.',
	},
};
