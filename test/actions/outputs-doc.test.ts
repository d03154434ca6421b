/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * docs/outputs.md: what each operation outputs, in each Options → Output mode, what the tool form
 * answers for a write, and what the trigger emits, each with one item the nodes gave in this test,
 * run through n8n-core against the seeded emulator. The test writes the page
 * (`UPDATE_OUTPUTS_DOC=1 npx jest test/actions/outputs-doc.test.ts`) and fails when an output
 * changed and the page did not; ids the emulator makes anew and the time of an edit differ from run
 * to run, so they are compared as placeholders. Each shape line names every field of its example,
 * and (for the action node) only fields its output schema describes.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type { IDataObject, INodeParameters, INodeProperties } from 'n8n-workflow';

import { DataIntegrationManagement } from '../../nodes/DataIntegrationManagement/DataIntegrationManagement.node.ts';
import type { Operation } from '../../nodes/DataIntegrationManagement/actions/operation';
import { operationsByResource } from '../../nodes/DataIntegrationManagement/actions/router';
import { SEED } from '../emulator';
import { useEmulator } from '../helpers/emulator';
import { pollTrigger, runActionNode } from '../helpers/n8n';
import { rl } from './support';
import { outputModesOf, WORKING_PARAMETERS } from './working-parameters';

const ROOT = join(__dirname, '../..');
const PAGE = join(ROOT, 'docs/outputs.md');

/** What an operation (in one Output mode) gives per input item, and each item's fields. */
interface Shape {
	items: string;
	/** Top-level fields; `?`: only when set; a nested object's own fields follow its name. */
	fields: string[];
}

const RECORD = 'one item per input item';
const TAG = ['id', 'name', 'owner', 'description?'];
const COLUMN = [
	'schema',
	'table',
	'column',
	'nameInDestination',
	'enabled',
	'hashed',
	'isPrimaryKey',
];
const ENTRY = [
	'id',
	'timestamp',
	'event',
	'actor { type, email }',
	'context { ipAddress, userAgent }',
];

/** By `resource.operation`, and ` mode` for each Output mode. */
const SHAPES: Record<string, Shape> = {
	'tag.create': { items: RECORD, fields: TAG },
	'tool tag.create': { items: RECORD, fields: ['changeMade', ...TAG] },
	'tag.update': {
		items: RECORD,
		fields: ['id', 'name', 'description', 'owner', 'origin', 'createdAt', 'lastUpdatedAt'],
	},
	'tag.deleteRelation': {
		items: RECORD,
		fields: ['deleted', 'tagId', 'resourceId', 'resourceType', 'message'],
	},
	'asset.create': { items: RECORD, fields: ['id', 'name', 'type', 'description?', 'connection?'] },
	'asset.update': {
		items: `${RECORD}: the id and only the fields sent`,
		fields: ['id', 'name?', 'description?', 'connection?'],
	},
	'connector.create': {
		items: RECORD,
		fields: ['id', 'name', 'type', 'connectionType', 'authMethod', 'description?', 'connection?'],
	},
	'integration.get': {
		items: RECORD,
		fields: [
			'id',
			'name',
			'createdAt',
			'paused',
			'source { id, name, type }',
			'destination { id, name, type }',
			'latestRunId',
		],
	},
	'integration.getSchemas columns': { items: 'one item per column', fields: COLUMN },
	'integration.getSchemas compact': {
		items: 'one item',
		fields: [
			'schemas { <schema>: { enabled, tables: { <table>: { enabled, columns: { <column>: { enabled, hashed } } } } } }',
		],
	},
	'integration.getSchemas schemas': {
		items: 'one item per schema',
		fields: ['schema', 'nameInDestination', 'enabled'],
	},
	'integration.getSchemas tables': {
		items: 'one item per table',
		fields: ['schema', 'table', 'nameInDestination', 'enabled', 'syncMode', 'cursorField?'],
	},
	'integration.getSchemas raw': {
		items: 'one item, as the service answers',
		fields: [
			'schemas { <schema>: { …, tables: { <table>: { …, columns: { <column>: { … } } } } } }',
		],
	},
	'integration.updateSchemas': {
		items: `${RECORD}: the whole source schema after the change, as Get Schemas' Raw`,
		fields: ['schemas'],
	},
	'integration.getColumns columns': { items: 'one item per column', fields: COLUMN },
	'integration.getColumns raw': {
		items: 'one item, as the service answers',
		fields: ['columns { <column>: { nameInDestination, enabled, hashed, isPrimaryKey } }'],
	},
	'user.getAll': { items: 'one item per user', fields: ['id', 'email', 'createdAt', 'name'] },
	'auditLog.getAll raw': { items: 'one item per entry, as the service answers', fields: ENTRY },
	'auditLog.getAll compact': {
		items: 'one item per entry',
		fields: ['id', 'timestamp', 'event', 'actorEmail'],
	},
	trigger: { items: 'one item per new entry, oldest first, as the service answers', fields: ENTRY },
};

/** Parameters that make a telling example, over the working ones. */
const EXAMPLE_PARAMETERS: Record<string, INodeParameters> = {
	'tag.create': {
		name: 'Customer data',
		owner: rl('id', SEED.users.maya),
		additionalFields: { description: 'Tables that hold customer records' },
	},
	'tag.update': { tagId: SEED.tags.pii, updateFields: { description: 'Personal data (reviewed)' } },
	'asset.create': {
		name: 'Clickstream bucket',
		type: 's3',
		additionalFields: {
			description: 'Raw web events',
			connection: { bucket: 'clickstream-raw', region: 'eu-west-1' },
		},
	},
	'asset.update': { assetId: SEED.assets.ordersDb, updateFields: { name: 'Orders DB (EU)' } },
	'connector.create': {
		name: 'Orders replica',
		type: 'postgres',
		connectionType: 'source',
		authMethod: 'direct',
		additionalFields: { connection: { host: 'orders-replica.internal', port: 5432 } },
	},
	'integration.getSchemas': {
		integrationId: SEED.integrations.ordersToSnowflake,
		schema: rl('name', SEED.schema),
		table: rl('name', SEED.table),
		column: 'mail',
	},
};

const { emulator, credentials } = useEmulator();

/** The field names a shape line lists, without `?` and a nested object's fields. */
const namesOf = (shape: Shape) => shape.fields.map((field) => field.replace(/[ ?].*$/, ''));

const isRecord = (value: unknown): value is IDataObject =>
	typeof value === 'object' && value !== null && !Array.isArray(value);
const isLeaf = (value: unknown) =>
	!Array.isArray(value) && (!isRecord(value) || !Object.values(value).some(isRecord));

/**
 * JSON on one line where it fits in `width` or is a nested object of no objects, else each entry
 * on its own line; with `cut`, a map (an object of objects) keeps its first entry, and "…" says
 * how many it left out.
 */
function jsonText(value: unknown, cut: boolean, indent = '', width = 116): string {
	const line = JSON.stringify(value, null, 1).replace(/\n\s*/g, ' ');
	if ((indent && isLeaf(value)) || indent.length + line.length <= width) return line;
	const inner = `${indent}  `;
	const text = (entry: unknown) => jsonText(entry, cut, inner, width);
	if (Array.isArray(value))
		return `[\n${value.map((entry) => `${inner}${text(entry)}`).join(',\n')}\n${indent}]`;
	let entries = Object.entries(value as IDataObject);
	if (cut && entries.length > 1 && entries.every(([, entry]) => isRecord(entry)))
		entries = [entries[0], ['…', `${entries.length - 1} more`]];
	const lines = entries.map(([key, entry]) => `${inner}${JSON.stringify(key)}: ${text(entry)}`);
	return `{\n${lines.join(',\n')}\n${indent}}`;
}

/** At most this many lines of JSON an example shows; past them, its maps are cut. */
const EXAMPLE_LINES = 30;

/** An item as the page shows it, and whether maps were cut. */
function exampleText(item: IDataObject): { text: string; cut: boolean } {
	const whole = jsonText(item, false);
	if (whole.split('\n').length <= EXAMPLE_LINES) return { text: whole, cut: false };
	return { text: jsonText(item, true), cut: true };
}

/** The node's display names: resources and each resource's operations, and Output's modes. */
const { properties } = new DataIntegrationManagement().description;
const optionName = (field: INodeProperties | undefined, value: string) =>
	(field?.options as Array<{ name: string; value: string }>).find((o) => o.value === value)!.name;
const resourceField = properties.find(({ name }) => name === 'resource');
const operationField = (resource: string) =>
	properties.find(
		({ name, displayOptions }) =>
			name === 'operation' && displayOptions?.show?.resource?.includes(resource),
	);
const outputName = (resource: string, operation: string, mode: string) =>
	optionName(
		(operationsByResource as unknown as Record<string, Record<string, Operation>>)[resource][
			operation
		].optionFields?.find(({ name }) => name === 'output'),
		mode,
	);

/** One run of the page: its operation, its Output mode, its shape's key, and the items given. */
interface Example {
	heading: string;
	/** The Output mode's name, "(default)" after the default's. */
	mode?: string;
	key: string;
	items: IDataObject[];
	/** The output schema that describes it, as `resource/operation`. */
	schema?: string;
}

/** The items `resource` → `operation` gives for one input item, in `output`, in the tool form. */
async function run(resource: string, operation: string, output?: string, asTool = false) {
	emulator().reset();
	const key = `${resource}.${operation}`;
	const parameters = {
		resource,
		operation,
		...(EXAMPLE_PARAMETERS[key] ?? WORKING_PARAMETERS[key]),
		...(output && { options: { output } }),
	};
	const { items, error } = await runActionNode({ credentials: credentials(), parameters, asTool });
	expect(error).toBeUndefined();
	return items.map(({ json }) => json);
}

/** Every example, in the order of the README's table of operations, the trigger last. */
async function examples(): Promise<Example[]> {
	const found: Example[] = [];
	for (const key of Object.keys(WORKING_PARAMETERS)) {
		const [resource, operation] = key.split('.');
		const heading = `${optionName(resourceField, resource)} → ${optionName(operationField(resource), operation)}`;
		const modes = outputModesOf(resource, operation);
		for (const [index, mode] of modes.entries()) {
			found.push({
				heading,
				mode: mode && `${outputName(resource, operation, mode)}${index ? '' : ' (default)'}`,
				key: mode ? `${key} ${mode}` : key,
				items: await run(resource, operation, mode),
				schema: `${resource}/${operation}`,
			});
		}
	}
	found.push({
		heading: 'Tag → Create as an AI tool (every write: `changeMade: true`, then its item)',
		key: 'tool tag.create',
		items: await run('tag', 'create', undefined, true),
	});
	emulator().reset();
	const { items } = await pollTrigger({
		credentials: credentials(),
		parameters: {},
		mode: 'manual',
	});
	const entries = (items ?? []).map(({ json }) => json);
	found.push({
		heading: 'Audit Log Trigger (Fetch Test Event: the newest entry)',
		key: 'trigger',
		items: entries,
	});
	return found;
}

/** An example's shape: its fields, and how many items. */
const shapeOf = ({ key }: Example) =>
	`\`{ ${SHAPES[key].fields.join(', ')} }\`, ${SHAPES[key].items}`;

/** One operation's section: the shape of each of its modes, then the first item of the first. */
function section(runs: Example[]): string {
	const [shown] = runs;
	const { text, cut } = exampleText(shown.items[0]);
	const count = shown.items.length;
	const notes = [count > 1 && ` (the first of ${count})`, cut && ' ("…": entries left out)'];
	const lead = shown.mode
		? `${runs.map((run) => `- Output ${run.mode}: ${shapeOf(run)}`).join('\n')}\n\nAn item of the default`
		: shapeOf(shown);
	return `### ${shown.heading}\n\n${lead}${notes.filter(Boolean).join('')}:\n\`\`\`json\n${text}\n\`\`\`\n`;
}

/** The page: a section per operation, the tool form and the trigger last. */
function page(found: Example[]): string {
	const headings = [...new Set(found.map(({ heading }) => heading))];
	const sections = headings.map((heading) =>
		section(found.filter((run) => run.heading === heading)),
	);
	return `${HEAD}\n${sections.join('\n')}`;
}

const HEAD = `# What each operation outputs

What the Data Integration Management node outputs for each operation and Options → Output mode,
and what its trigger emits: each shape, then one item the node gave against the emulator's sample
data (\`npm run emulator\`). \`?\`: only when the field was set. \`test/actions/outputs-doc.test.ts\`
writes this page and fails when an output changes and the page does not. Every item is paired to
the input item it came from; with "On Error: Continue", a failed item gives
\`{ error, httpCode?, code?, description? }\` instead (\`httpCode\` and the service's \`code\` when it
answered); with "Continue (using error output)", it goes to the error output as n8n shapes it,
\`{ error }\` with the error beside it.

A write whose answer is not what the API describes (the change was made, so it does not fail) gives
its item with what the service sent over it, and a \`warning\` naming the request and what differs.
`;

/** The page with what differs from run to run (new ids, the time of an edit) as placeholders. */
const stable = (text: string) =>
	text
		.replace(/\b(tag|ast|con)_[0-9a-f]{12}\b/g, '$1_<id>')
		.replace(/"lastUpdatedAt": "[^"]*"/g, '"lastUpdatedAt": "<time>"');

/** The output schema's top-level field names. */
const schemaFields = (schema: string) =>
	Object.keys(
		(
			JSON.parse(
				readFileSync(
					join(ROOT, 'nodes/DataIntegrationManagement/__schema__/v1.0.0', `${schema}.json`),
					'utf8',
				),
			) as { properties: IDataObject }
		).properties,
	);

describe('docs/outputs.md', () => {
	let found: Example[];
	beforeAll(async () => {
		emulator().reset();
		found = await examples();
	});

	test('holds what the nodes output now (UPDATE_OUTPUTS_DOC=1 writes it)', () => {
		const written = page(found);
		if (process.env.UPDATE_OUTPUTS_DOC) writeFileSync(PAGE, written);
		expect(stable(readFileSync(PAGE, 'utf8'))).toBe(stable(written));
		expect(written.split('\n').length).toBeLessThan(250);
	});

	test('has a shape for every example, and none left over', () => {
		expect(found.map(({ key }) => key).sort()).toEqual(Object.keys(SHAPES).sort());
		expect(found.filter(({ items }) => items.length === 0).map(({ key }) => key)).toEqual([]);
	});

	test('each shape names every field of its example, and only fields its schema describes', () => {
		for (const { key, items, schema } of found) {
			const names = namesOf(SHAPES[key]);
			expect({
				key,
				missing: Object.keys(items[0]).filter((name) => !names.includes(name)),
			}).toEqual({ key, missing: [] });
			if (!schema) continue;
			const described = schemaFields(schema);
			expect({ key, undescribed: names.filter((name) => !described.includes(name)) }).toEqual({
				key,
				undescribed: [],
			});
		}
	});
});
