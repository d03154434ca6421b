/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * What docs/installation.md tells a user to type, against what the package is: the credential's
 * import file (the one the end-to-end tests import into a real n8n) has the credential type, the
 * examples' credential ID and name, and every field by its name with a value of its type; the
 * fields table and the environment's example name the same fields; every N8N_COMMUNITY_PACKAGES
 * example gives the package's name, version and a checksum.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { DataIntegrationManagementApi } from '../../credentials/DataIntegrationManagementApi.credentials';
import { documentedCredentialFile } from '../e2e/lib/workflows';

const ROOT = join(__dirname, '../..');
const docs = readFileSync(join(ROOT, 'docs/installation.md'), 'utf8');
const credential = new DataIntegrationManagementApi();
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
	name: string;
	version: string;
};

/** The credential each example names for the type, as `id "name"`. */
const examplesCredentials = new Set(
	readdirSync(join(ROOT, 'examples'))
		.filter((file) => file.endsWith('.json'))
		.flatMap((file) => [
			...readFileSync(join(ROOT, 'examples', file), 'utf8').matchAll(
				new RegExp(`"${credential.name}": \\{\\s*"id": "([^"]+)",\\s*"name": "([^"]+)"`, 'g'),
			),
		])
		.map(([, id, name]) => `${id} "${name}"`),
);

test("the import file: the type, the examples' credential, every field with a value of its type", () => {
	const entries = documentedCredentialFile();

	expect(entries).toHaveLength(1);
	const [{ id, name, type, data }] = entries;
	expect(type).toBe(credential.name);
	expect([...examplesCredentials]).toEqual([`${id} "${name}"`]);
	expect(Object.keys(data)).toEqual(credential.properties.map((property) => property.name));
	for (const property of credential.properties)
		expect([property.name, typeof data[property.name]]).toEqual([property.name, property.type]);
});

test.each(credential.properties.map((property) => [property.name, property] as const))(
	"the fields table gives %s with its type and the editor's label",
	(name, { displayName, type }) => {
		const row = docs.split('\n').find((line) => line.includes(`| \`${name}\` |`));

		expect(row).toMatch(
			new RegExp(`^\\| ${displayName.replace(/[()]/g, '\\$&')} \\| \`${name}\` \\| ${type} \\|`),
		);
	},
);

test('the environment example sets fields the credential type has', () => {
	const [, json] = /^CREDENTIALS_OVERWRITE_DATA='(.+)'$/m.exec(docs) ?? [];
	const overwrites = JSON.parse(json) as Record<string, Record<string, unknown>>;
	const names = credential.properties.map((property) => property.name);

	expect(Object.keys(overwrites)).toEqual([credential.name]);
	expect(
		Object.keys(overwrites[credential.name]).filter((field) => !names.includes(field)),
	).toEqual([]);
});

test('every N8N_COMMUNITY_PACKAGES example names the package, its version and a checksum', () => {
	const examples = [...docs.matchAll(/^N8N_COMMUNITY_PACKAGES='(.+)'$/gm)].map(
		([, json]) => JSON.parse(json) as unknown,
	);

	expect(examples.length).toBeGreaterThan(0);
	for (const example of examples)
		expect(example).toEqual([
			{ name: pkg.name, version: pkg.version, checksum: expect.stringMatching(/^sha512-/) },
		]);
});
