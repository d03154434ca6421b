/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * What each sample action workflow must produce when n8n runs it against the freshly seeded
 * emulator: every node's output items, and exactly the requests the emulator received (method,
 * path, query, body, in order, each with the API key). The same checks serve the run through
 * `n8n execute` and the run on a queue-mode worker.
 */
import assert from 'node:assert/strict';

import { API_KEY_HEADER } from '../../../credentials/DataIntegrationManagementApi.credentials';
import { TAG_ORIGIN_API } from '../../emulator/choices';
import { SEED } from '../../emulator/seed';
import type { RecordedRequest } from '../../emulator/types';
import type { RunData } from './n8n';
import type { Check } from './steps';

type Json = Record<string, unknown>;

/** The output items of a node that ran once and succeeded. */
export function outputOf(runData: RunData, node: string): Json[] {
	const runs = runData[node];
	assert.ok(runs?.length, `node "${node}" did not run`);
	const [task] = runs;
	assert.ok(!task.error, `node "${node}" failed: ${task.error?.message}`);
	return (task.data?.main[0] ?? []).map((item) => item.json);
}

type Call = Pick<RecordedRequest, 'method' | 'path' | 'query' | 'body'>;

function call(
	method: string,
	path: string,
	body?: unknown,
	query: RecordedRequest['query'] = {},
): Call {
	return { method, path, query, body };
}

/** Asserts the emulator received exactly `expected`, in order, each request with the API key. */
function assertCalls(requests: RecordedRequest[], expected: Call[], check: Check): void {
	const received = requests.map(({ method, path, query, body }) => ({ method, path, query, body }));
	assert.deepEqual(received, expected);
	// The emulator redacts the key it logs; a request without one would have no header at all.
	assert.ok(
		requests.every((request) => request.headers[API_KEY_HEADER] === '[redacted]'),
		`a request went without the ${API_KEY_HEADER} header`,
	);
	check(
		`emulator received exactly: ${expected.map(({ method, path }) => `${method} ${path}`).join(', ')} (all with the API key)`,
	);
}

export interface ActionExpectation {
	verify(runData: RunData, requests: RecordedRequest[], check: Check): void;
}

const { maya, aiko } = SEED.users;
const integrationId = SEED.integrations.ordersToSnowflake;

/** Keyed by the workflow file name under examples/. */
export const ACTION_EXPECTATIONS: Record<string, ActionExpectation> = {
	'tag.json': {
		verify(runData, requests, check) {
			const [created] = outputOf(runData, 'Create tag');
			assert.match(String(created.id), /^tag_/);
			assert.deepEqual(created, {
				id: created.id,
				name: 'Customer data',
				owner: maya,
				description: 'Tables that hold customer records',
			});
			check(
				`Create tag output the tag as created: { id: ${created.id}, name, owner, description }`,
			);

			const [updated] = outputOf(runData, 'Update tag');
			assert.ok(Date.parse(String(updated.lastUpdatedAt)) >= Date.parse(String(updated.createdAt)));
			assert.deepEqual(updated, {
				id: created.id,
				name: 'Customer data',
				description: 'Tables that hold customer records (reviewed)',
				owner: aiko,
				origin: TAG_ORIGIN_API,
				createdAt: updated.createdAt,
				lastUpdatedAt: updated.lastUpdatedAt,
			});
			check('Update tag output the edited tag: new description and owner, origin "api"');

			assert.deepEqual(outputOf(runData, 'Delete tag relation'), [
				{
					deleted: true,
					tagId: SEED.tags.pii,
					...SEED.piiRelation,
					message: 'Tag relation deleted',
				},
			]);
			check(
				'Delete tag relation output { deleted: true, tagId, resourceId, resourceType, message }',
			);

			assertCalls(
				requests,
				[
					call('POST', '/tags', {
						name: 'Customer data',
						owner: maya,
						description: 'Tables that hold customer records',
					}),
					call('PUT', `/tags/${created.id}`, {
						description: 'Tables that hold customer records (reviewed)',
						owner: aiko,
					}),
					call('DELETE', `/tags/${SEED.tags.pii}/relation`, SEED.piiRelation),
				],
				check,
			);
		},
	},

	'asset.json': {
		verify(runData, requests, check) {
			const [created] = outputOf(runData, 'Create asset');
			assert.match(String(created.id), /^ast_/);
			assert.deepEqual(created, {
				id: created.id,
				name: 'Clickstream bucket',
				type: 's3',
				description: 'Raw web events',
				connection: { bucket: 'clickstream-raw', region: 'eu-west-1' },
			});
			check(
				`Create asset output the asset as created: { id: ${created.id}, name, type, description, connection }`,
			);

			assert.deepEqual(outputOf(runData, 'Update asset'), [
				{
					id: created.id,
					name: 'Clickstream bucket (EU)',
					connection: { bucket: 'clickstream-raw', region: 'eu-central-1' },
				},
			]);
			check('Update asset output the same asset id with the fields it changed (name, connection)');

			assertCalls(
				requests,
				[
					call('POST', '/assets', {
						name: 'Clickstream bucket',
						type: 's3',
						description: 'Raw web events',
						connection: { bucket: 'clickstream-raw', region: 'eu-west-1' },
					}),
					call('PATCH', `/assets/${created.id}`, {
						name: 'Clickstream bucket (EU)',
						connection: { bucket: 'clickstream-raw', region: 'eu-central-1' },
					}),
				],
				check,
			);
		},
	},

	'connector.json': {
		verify(runData, requests, check) {
			const [created] = outputOf(runData, 'Create connector');
			assert.match(String(created.id), /^con_/);
			assert.deepEqual(created, {
				id: created.id,
				name: 'Orders replica',
				type: 'postgres',
				connectionType: 'source',
				authMethod: 'direct',
				description: 'Read replica of the orders database',
				connection: { host: 'orders-replica.internal', port: 5432, database: 'orders' },
			});
			check(
				`Create connector output the connector as created: { id: ${created.id}, name, type, connectionType, authMethod, description, connection }`,
			);

			assertCalls(
				requests,
				[
					call('POST', '/connectors', {
						name: 'Orders replica',
						type: 'postgres',
						connectionType: 'source',
						authMethod: 'direct',
						description: 'Read replica of the orders database',
						connection: { host: 'orders-replica.internal', port: 5432, database: 'orders' },
					}),
				],
				check,
			);
		},
	},

	'integration.json': {
		verify(runData, requests, check) {
			const [integration] = outputOf(runData, 'Get integration');
			assert.equal(integration.id, integrationId);
			assert.equal(integration.name, 'Orders Postgres to Snowflake');
			check(`Get integration output ${integrationId} "${integration.name}"`);

			const fullName = (schemas: unknown) =>
				(schemas as Record<string, { tables: Record<string, { columns: Record<string, Json> }> }>)
					.public.tables.customers.columns.full_name;
			const [before] = outputOf(runData, 'Get schemas');
			assert.deepEqual(Object.keys(before.schemas as Json), ['public', 'billing', 'audit']);
			assert.equal(fullName(before.schemas).hashed, false);
			check(
				'Get schemas output the seeded schemas (public, billing, audit); public.customers.full_name not hashed',
			);

			const [after] = outputOf(runData, 'Hash a column');
			assert.equal(fullName(after.schemas).hashed, true);
			check('Update schemas ("Hash a column") output public.customers.full_name hashed');

			const columns = outputOf(runData, 'Get columns');
			assert.deepEqual(
				columns.map(({ column }) => column),
				['id', 'email', 'full_name', 'phone', 'country', 'internal_notes', 'updated_at'],
			);
			assert.ok(columns.every(({ schema, table }) => schema === 'public' && table === 'customers'));
			assert.deepEqual(
				columns.filter(({ hashed }) => hashed).map(({ column }) => column),
				['email', 'full_name', 'phone'],
			);
			check(
				'Get columns output one item per column of public.customers; full_name now hashed with email and phone',
			);

			const base = `/integrations/${integrationId}`;
			assertCalls(
				requests,
				[
					call('GET', base),
					call('GET', `${base}/schemas`),
					call('PATCH', `${base}/schemas`, {
						schemas: {
							public: { tables: { customers: { columns: { full_name: { hashed: true } } } } },
						},
					}),
					call('GET', `${base}/schemas/public/tables/customers/columns`),
				],
				check,
			);
		},
	},

	'user.json': {
		verify(runData, requests, check) {
			const users = outputOf(runData, 'Get users');
			assert.deepEqual(
				users.map(({ id }) => id),
				Object.values(SEED.users),
			);
			assert.equal(users[0].email, 'maya.patel@northwind-data.example');
			check(`Get users output all ${users.length} seeded users, one item each`);

			assertCalls(requests, [call('GET', '/users')], check);
		},
	},

	'audit-log.json': {
		verify(runData, requests, check) {
			const since = '2026-10-01T00:00:00.000Z';
			const until = '2026-10-08T00:00:00.000Z';
			const entries = outputOf(runData, 'Get audit log entries');
			const timestamps = entries.map(({ timestamp }) => Date.parse(String(timestamp)));
			assert.equal(entries.length, 5);
			assert.ok(timestamps.every((time) => time >= Date.parse(since) && time < Date.parse(until)));
			assert.deepEqual(
				timestamps,
				[...timestamps].sort((a, b) => a - b),
			);
			check(
				'Get audit log entries output 5 entries (the limit), oldest first, all in [since, until)',
			);

			// Get Many asks for its Limit (5), not a whole page.
			const query = {
				limit: '5',
				offset: '0',
				sortBy: 'timestamp',
				sortOrder: 'asc',
				startTime: since,
				endTime: until,
			};
			assertCalls(requests, [call('GET', '/audit-logs', undefined, query)], check);
		},
	},
};
