/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * The documentation links n8n shows (the credential's "docs" link, each node's links in its codex
 * file) point at sections of the README that exist. The README's URL is set in one place, the
 * credential's documentationUrl; the codex files name only the section, and the build adds the
 * URL (gulpfile.js).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';

import { DataIntegrationManagementApi } from '../../credentials/DataIntegrationManagementApi.credentials';

const ROOT = join(__dirname, '../..');
const NODES_DIR = join(ROOT, 'nodes/DataIntegrationManagement');

/** The anchors GitHub gives the headings of the Markdown file at `path` (the README's by default). */
function readmeAnchors(path = 'README.md'): string[] {
	const readme = readFileSync(join(ROOT, path), 'utf8');
	return [...readme.matchAll(/^#{1,6} (.+)$/gm)].map(([, heading]) =>
		heading
			.trim()
			.toLowerCase()
			.replace(/[^\p{L}\p{N} _-]/gu, '')
			.replace(/ /g, '-'),
	);
}

interface Codex {
	resources?: Record<string, Array<{ url: string }>>;
}

const codexLinks = readdirSync(NODES_DIR)
	.filter((file) => file.endsWith('.node.json'))
	.flatMap((file) => {
		const codex = JSON.parse(readFileSync(join(NODES_DIR, file), 'utf8')) as Codex;
		return Object.values(codex.resources ?? {}).flatMap((links) =>
			links.map(({ url }) => ({ file, url })),
		);
	});

describe('documentation links', () => {
	it('has codex files with links', () => {
		expect(codexLinks.length).toBeGreaterThanOrEqual(4);
	});

	it.each(codexLinks)('$file links to $url, a section the README has', ({ url }) => {
		expect(url).toMatch(/^#[a-z0-9-]+$/);
		expect(readmeAnchors()).toContain(url.slice(1));
	});

	it("the credential links to the README's Credentials section", () => {
		const url = new URL(new DataIntegrationManagementApi().documentationUrl);
		expect(url.protocol).toBe('https:');
		expect(url.hash).toBe('#credentials');
		expect(readmeAnchors()).toContain('credentials');
	});
});

/** The project's documents, whose links to each other must lead somewhere. */
const DOCUMENTS = [
	'README.md',
	'CONTRIBUTING.md',
	'CHANGELOG.md',
	...readdirSync(join(ROOT, 'docs'))
		.filter((file) => file.endsWith('.md'))
		.map((file) => `docs/${file}`),
];

/** Every relative link of each document: the file it names (from the repository's root) and its anchor. */
const relativeLinks = DOCUMENTS.flatMap((document) =>
	[...readFileSync(join(ROOT, document), 'utf8').matchAll(/\]\(([^)\s]+)\)/g)]
		.map(([, target]) => target)
		.filter((target) => !/^[a-z]+:/.test(target))
		.map((target) => {
			const [file, anchor] = target.split('#');
			const path = file ? normalize(join(dirname(document), file)) : document;
			return { document, target, path, anchor };
		}),
);

describe('links between the documents', () => {
	it('are there to check', () => {
		expect(relativeLinks.length).toBeGreaterThan(20);
	});

	it.each(relativeLinks)('$document → $target: the file exists', ({ path }) => {
		expect(existsSync(join(ROOT, path))).toBe(true);
	});

	it.each(relativeLinks.filter(({ anchor, path }) => anchor && path.endsWith('.md')))(
		'$document → $target: the section exists',
		({ path, anchor }) => {
			expect(readmeAnchors(path)).toContain(anchor);
		},
	);
});

describe('the n8n releases the documents name', () => {
	const pinned = readFileSync(join(ROOT, 'test/e2e/n8n-version'), 'utf8').trim();
	const scripts = (
		JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
			scripts: Record<string, string>;
		}
	).scripts;
	const [, oneX] = /N8N_VERSION=(\d+\.\d+\.\d+)/.exec(scripts['test:e2e:all'])!;

	it('has a pinned release and the 1.x release CI runs', () => {
		expect([pinned, oneX]).toEqual([
			expect.stringMatching(/^2\.\d+\.\d+$/),
			expect.stringMatching(/^1\./),
		]);
	});

	// The pinned release is set in test/e2e/n8n-version alone; a document naming another is stale.
	it.each(DOCUMENTS.filter((document) => document !== 'CHANGELOG.md'))(
		'%s names, as "n8n x.y.z", only the releases CI runs',
		(document) => {
			const text = readFileSync(join(ROOT, document), 'utf8');
			const named = [...text.matchAll(/\bn8n \**(\d+\.\d+\.\d+)/g)].map(([, release]) => release);
			expect(named.filter((release) => release !== pinned && release !== oneX)).toEqual([]);
		},
	);

	it('the README says which release the suite and the screenshots come from', () => {
		expect(readFileSync(join(ROOT, 'README.md'), 'utf8')).toContain(`pins (${pinned})`);
	});
});
