/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * Keeps the editor's output schemas (nodes/DataIntegrationManagement/__schema__) honest: each
 * operation runs through n8n-core against the emulator in every output mode it has (Options →
 * Output), and every output item must match its schema file, which describes them all. The set
 * of files must be exactly the node's operations, in the folder of the node's version.
 *
 * The schemas are checked with ajv in strict mode, so a keyword, type or format it does not know,
 * or a required field the schema does not describe, is an error in the file itself. The check is
 * stricter than JSON Schema in one way: a field that the schema does not describe is an error,
 * because the editor would not show it before a run.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

import Ajv, { type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { DataIntegrationManagement } from '../../nodes/DataIntegrationManagement/DataIntegrationManagement.node.ts';
import { operationsByResource } from '../../nodes/DataIntegrationManagement/actions/router';
import { SEED } from '../emulator/seed';
import { useEmulator } from '../helpers/emulator';
import { runActionNode } from '../helpers/n8n';
import { outputModesOf, WORKING_PARAMETERS, workingParametersOf } from './working-parameters';

// ----- Checking values against the schema files -----

interface JsonSchema {
	type?: string;
	properties?: Record<string, JsonSchema>;
	required?: string[];
	items?: JsonSchema;
	additionalProperties?: JsonSchema | boolean;
	format?: string;
}

const ajv = new Ajv({ allErrors: true, strict: true });
addFormats(ajv, ['date-time', 'email']);

/** The schema with every object that does not say otherwise closed to undescribed fields. */
function closed(schema: JsonSchema): JsonSchema {
	const { properties, additionalProperties, items } = schema;
	return {
		...schema,
		...(properties && {
			properties: Object.fromEntries(
				Object.entries(properties).map(([name, property]) => [name, closed(property)]),
			),
		}),
		...(schema.type === 'object' && {
			additionalProperties:
				typeof additionalProperties === 'object'
					? closed(additionalProperties)
					: (additionalProperties ?? false),
		}),
		...(items && { items: closed(items) }),
	};
}

/** One of ajv's errors as a line: where, what, and which field for an undescribed one. */
const errorLine = ({ instancePath, message, params }: ErrorObject) =>
	`${instancePath || '/'}: ${message}` +
	('additionalProperty' in params ? ` "${String(params.additionalProperty)}"` : '');

/** Every way `value` fails `schema`, one line each; empty when it matches. */
function validate(value: unknown, schema: JsonSchema): string[] {
	const check = ajv.compile(closed(schema));
	return check(value) ? [] : (check.errors ?? []).map(errorLine);
}

/** What ajv's strict mode finds wrong with a schema itself (it stops at the first problem). */
function schemaProblems(schema: JsonSchema): string[] {
	try {
		ajv.compile(closed(schema));
		return [];
	} catch (error) {
		return [(error as Error).message];
	}
}

// ----- The schema files -----

const NODE_DIR = join(__dirname, '..', '..', 'nodes', 'DataIntegrationManagement');
const SCHEMA_ROOT = join(NODE_DIR, '__schema__');

/** The 12 operations of the node, as resource/operation. */
const OPERATIONS = [
	'tag/create',
	'tag/update',
	'tag/deleteRelation',
	'asset/create',
	'asset/update',
	'connector/create',
	'integration/get',
	'integration/getSchemas',
	'integration/updateSchemas',
	'integration/getColumns',
	'user/getAll',
	'auditLog/getAll',
];

/** n8n looks schemas up by node version as semver: version 1 -> v1.0.0. */
const { version } = new DataIntegrationManagement().description;
const VERSION_FOLDER = `v${String(version).split('.').concat('0', '0').slice(0, 3).join('.')}`;

function listFiles(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		return statSync(path).isDirectory() ? listFiles(path) : [path];
	});
}

function loadSchema(operation: string): JsonSchema {
	return JSON.parse(
		readFileSync(join(SCHEMA_ROOT, VERSION_FOLDER, `${operation}.json`), 'utf8'),
	) as JsonSchema;
}

/** The values of the operation's Options → Output (none: one mode). */
function outputModes(operation: string): Array<string | undefined> {
	const [resource, name] = operation.split('/');
	return outputModesOf(resource, name);
}

// ----- Each operation, run with its default options -----

const { emulator, credentials } = useEmulator();

/** How many items each operation's default output mode yields for one input item (default 1). */
const EXPECTED_ITEMS: Record<string, () => number> = {
	'integration/getSchemas': () =>
		Object.values(emulator().store.getSchemas(SEED.integrations.ordersToSnowflake)).flatMap(
			({ tables }) => Object.values(tables).flatMap(({ columns }) => Object.keys(columns)),
		).length,
	'integration/getColumns': () =>
		Object.keys(
			emulator().store.getSchemas(SEED.integrations.ordersToSnowflake)[SEED.schema].tables[
				SEED.table
			].columns,
		).length,
	'user/getAll': () => Math.min(5, emulator().store.users.size),
	'auditLog/getAll': () => Math.min(5, SEED.audit.count),
};

async function runOperation(
	operation: string,
	extra: INodeParameters = {},
): Promise<IDataObject[]> {
	const [resource, name] = operation.split('/');
	const { items, error } = await runActionNode({
		credentials: credentials(),
		parameters: { ...workingParametersOf(resource, name), ...extra },
	});
	expect(error).toBeUndefined();
	return items.map((item) => item.json);
}

describe('the schema files', () => {
	test("are exactly one per operation of the node, under the folder of the node's version", () => {
		const files = listFiles(SCHEMA_ROOT)
			.map((file) => relative(SCHEMA_ROOT, file).split(sep).join('/'))
			.sort();
		expect(files).toEqual(
			OPERATIONS.map((operation) => `${VERSION_FOLDER}/${operation}.json`).sort(),
		);
	});

	test('cover every operation the node dispatches, and the test runs each of them', () => {
		const dispatched = Object.entries(operationsByResource).flatMap(([resource, operations]) =>
			Object.keys(operations).map((operation) => `${resource}/${operation}`),
		);
		expect(dispatched.sort()).toEqual([...OPERATIONS].sort());
		expect(
			Object.keys(WORKING_PARAMETERS)
				.map((key) => key.replace('.', '/'))
				.sort(),
		).toEqual([...OPERATIONS].sort());
	});

	test.each(OPERATIONS)(
		'%s describes one object item, and ajv in strict mode finds nothing wrong with it',
		(operation) => {
			const schema = loadSchema(operation);
			expect(schema.type).toBe('object');
			expect(Object.keys(schema.properties ?? {}).length).toBeGreaterThan(0);
			expect(schemaProblems(schema)).toEqual([]);
		},
	);
});

/** Every item's ways of failing `schema`, each naming the item. */
const errorsOf = (items: IDataObject[], schema: JsonSchema) =>
	items.flatMap((item, index) => validate(item, schema).map((error) => `item ${index}: ${error}`));

describe('each operation with its default options', () => {
	test.each(OPERATIONS)('%s: every output item matches its schema', async (operation) => {
		const items = await runOperation(operation);
		expect(items).toHaveLength(EXPECTED_ITEMS[operation]?.() ?? 1);
		expect(errorsOf(items, loadSchema(operation))).toEqual([]);
	});
});

describe('each operation in every output mode', () => {
	const modes = OPERATIONS.flatMap((operation) =>
		outputModes(operation)
			.filter((mode) => mode !== undefined)
			.map((mode) => [operation, mode] as const),
	);

	test('are the modes of Get Schemas, Get Columns and Audit Log → Get Many', () => {
		expect(modes.map(([operation]) => operation)).toEqual([
			...Array(5).fill('integration/getSchemas'),
			...Array(2).fill('integration/getColumns'),
			...Array(2).fill('auditLog/getAll'),
		]);
	});

	test.each(modes)(
		'%s with output "%s": every item matches its schema',
		async (operation, output) => {
			const items = await runOperation(operation, { options: { output: output! } });
			expect(items.length).toBeGreaterThan(0);
			expect(errorsOf(items, loadSchema(operation))).toEqual([]);
		},
	);
});

describe('the check', () => {
	const schemasFile = loadSchema('integration/getSchemas');
	const validSchemas = {
		schemas: {
			public: {
				nameInDestination: 'orders_public',
				enabled: true,
				tables: {
					customers: {
						nameInDestination: 'customers',
						enabled: true,
						syncMode: 'incremental',
						columns: {
							id: { nameInDestination: 'id', enabled: true, hashed: false, isPrimaryKey: true },
						},
					},
				},
			},
		},
	};

	test('accepts a matching value', () => {
		expect(validate(validSchemas, schemasFile)).toEqual([]);
	});

	test('reports a wrong type', () => {
		const tag = { id: 7, name: 'PII', owner: 'usr_1' };
		expect(validate(tag, loadSchema('tag/create'))).toEqual(['/id: must be string']);
	});

	test('reports a missing required field', () => {
		expect(validate({}, loadSchema('asset/update'))).toEqual([
			"/: must have required property 'id'",
		]);
	});

	test('reports a field the schema does not describe', () => {
		expect(validate({ id: 'ast_1', extra: 1 }, loadSchema('asset/update'))).toEqual([
			'/: must NOT have additional properties "extra"',
		]);
	});

	test('accepts any object as a connection, which the service leaves free-form', () => {
		const connection = { host: 'db.internal', port: 5432, tls: { verify: true } };
		expect(validate({ id: 'ast_1', connection }, loadSchema('asset/update'))).toEqual([]);
		expect(validate({ id: 'ast_1', connection: 'x' }, loadSchema('asset/update'))).toEqual([
			'/connection: must be object',
		]);
	});

	test('checks each entry of a map against additionalProperties', () => {
		const broken = structuredClone(validSchemas);
		(broken.schemas.public.tables.customers.columns.id as IDataObject).hashed = 'no';
		expect(validate(broken, schemasFile)).toEqual([
			'/schemas/public/tables/customers/columns/id/hashed: must be boolean',
		]);
	});

	test('checks each element against items, and additionalProperties: false', () => {
		const schema: JsonSchema = {
			type: 'array',
			items: {
				type: 'object',
				properties: { a: { type: 'integer' } },
				additionalProperties: false,
			},
		};
		expect(validate([{ a: 1 }, { a: 1.5 }, { b: 2 }], schema)).toEqual([
			'/1/a: must be integer',
			'/2: must NOT have additional properties "b"',
		]);
	});

	test('checks the date-time and email formats', () => {
		const user = { id: 'usr_1', email: 'not-an-email', createdAt: '2026-13-01', name: 'A' };
		expect(validate(user, loadSchema('user/getAll'))).toEqual([
			'/email: must match format "email"',
			'/createdAt: must match format "date-time"',
		]);
	});

	test('refuses schemas with unknown types, keywords or formats, or undescribed required fields', () => {
		expect(
			schemaProblems({
				type: 'object',
				properties: { a: { type: 'object', additionalProperties: { type: 'text' } } },
			}),
		).toEqual([expect.stringContaining('additionalProperties/type must be equal to one of')]);
		expect(schemaProblems({ type: 'string', minLen: 2 } as JsonSchema)).toEqual([
			'strict mode: unknown keyword: "minLen"',
		]);
		expect(schemaProblems({ type: 'string', format: 'uri' })).toEqual([
			'unknown format "uri" ignored in schema at path "#"',
		]);
		expect(schemaProblems({ type: 'object', properties: {}, required: ['a'] })).toEqual([
			'strict mode: required property "a" is not defined at "#" (strictRequired)',
		]);
	});
});
