/** The spec's 12 operations: each reads its input, asks the store, and returns its envelope. */
import type { HTTPMethods } from 'fastify';
import type { Envelope } from '../../nodes/DataIntegrationManagement/client/types';
import { SUCCESS_CODE } from './choices';
import type { Store } from './store';
import { answerAuditLog } from './variants';
import {
	parseAssetChanges,
	parseNewAsset,
	parseNewConnector,
	parseNewTag,
	parseSchemasPatch,
	parseTagChanges,
	parseTagRelation,
} from './validation';
import type { QueryParams } from './query';

export interface OperationInput {
	/** Path parameters, already URL-decoded. */
	params: Record<string, string>;
	query: QueryParams;
	body: unknown;
}

export interface Operation {
	method: HTTPMethods;
	/** Relative to /v1. */
	url: string;
	/** Only GET /audit-logs has query parameters; the others reject any. */
	takesQuery?: boolean;
	run(store: Store, input: OperationInput): Envelope<unknown>;
}

function success(data?: unknown, message?: string): Envelope<unknown> {
	return {
		code: SUCCESS_CODE,
		...(message !== undefined && { message }),
		...(data !== undefined && { data }),
	};
}

const INTEGRATION = '/integrations/:id';

export const OPERATIONS: Operation[] = [
	{
		method: 'POST',
		url: '/tags',
		run: (store, { body }) => success({ id: store.createTag(parseNewTag(body)).id }, 'Tag created'),
	},
	{
		method: 'PUT',
		url: '/tags/:id',
		run: (store, { params, body }) =>
			success({ ...store.updateTag(params.id, parseTagChanges(body)) }),
	},
	{
		method: 'DELETE',
		url: '/tags/:id/relation',
		run: (store, { params, body }) => {
			store.deleteTagRelation(params.id, parseTagRelation(body));
			return success(undefined, 'Tag relation deleted');
		},
	},
	{
		method: 'POST',
		url: '/assets',
		run: (store, { body }) => {
			const { id, name, type } = store.createAsset(parseNewAsset(body));
			return success({ id, name, type });
		},
	},
	{
		method: 'PATCH',
		url: '/assets/:id',
		run: (store, { params, body }) =>
			success({ id: store.updateAsset(params.id, parseAssetChanges(body)).id }),
	},
	{
		method: 'POST',
		url: '/connectors',
		run: (store, { body }) => {
			const { id, name, type } = store.createConnector(parseNewConnector(body));
			return success({ id, name, type }, 'Connector created');
		},
	},
	{
		method: 'GET',
		url: INTEGRATION,
		run: (store, { params }) => success({ integration: store.getIntegration(params.id) }),
	},
	{
		method: 'GET',
		url: `${INTEGRATION}/schemas`,
		run: (store, { params }) => success({ schemas: store.getSchemas(params.id) }),
	},
	{
		method: 'PATCH',
		url: `${INTEGRATION}/schemas`,
		run: (store, { params, body }) =>
			success({ schemas: store.updateSchemas(params.id, parseSchemasPatch(body)) }),
	},
	{
		method: 'GET',
		url: `${INTEGRATION}/schemas/:schema/tables/:table/columns`,
		run: (store, { params }) =>
			success({ columns: store.getColumns(params.id, params.schema, params.table) }),
	},
	{
		method: 'GET',
		url: '/users',
		run: (store) => success({ items: store.listUsers() }, 'Users retrieved'),
	},
	{
		method: 'GET',
		url: '/audit-logs',
		takesQuery: true,
		run: (store, { query }) => success(answerAuditLog(store, query)),
	},
];
