/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * The documentation links n8n shows (the credential's "docs" link, each node's links in its codex
 * file) point at sections of the README that exist. The README's URL is set in one place, the
 * credential's documentationUrl; the codex files name only the section, and the build adds the
 * URL (scripts/assets.js). The documents' links to each other lead to files and sections that
 * exist, and so does every section the nodes, their errors, the examples and the documents send
 * a user or a model to by name ("see the README, "Errors"").
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';

import * as ts from 'typescript';

import { DataIntegrationManagementApi } from '../../credentials/DataIntegrationManagementApi.credentials';
import { action, trigger } from './hints';

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
	const [, oneX] = /\b(\d+\.\d+\.\d+)\b/.exec(scripts['test:e2e:all'])!;

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
		expect(readFileSync(join(ROOT, 'README.md'), 'utf8')).toContain(
			`tested end to end in ${oneX} and ${pinned} ([screenshots]`,
		);
	});

	// "n8n 1.x or later" in any form: the oldest release the README supports is one CI runs.
	it('the README names as the oldest it supports the 1.x release CI runs, and no other', () => {
		const text = readFileSync(join(ROOT, 'README.md'), 'utf8');
		const oldest = [...text.matchAll(/\bn8n \**(\d+(?:\.\d+)+)\** or later/g)].map(
			([, release]) => release,
		);
		expect(oldest.length).toBeGreaterThan(0);
		expect(new Set(oldest)).toEqual(new Set([oneX]));
		expect(text).not.toMatch(/\bn8n 1\.\d+(?!\.\d)\b/);
	});
});

/**
 * Every section a user or a model is sent to by name, as this package writes such references:
 * `README (Section)`, `the README, "Section"`, `the README's "Section"`, `docs/design.md
 * ("Section")`, `"Section" in CONTRIBUTING.md`. Read in the nodes' and the credential's source
 * (error texts, descriptions, hints and comments), in both nodes' descriptions as n8n loads them,
 * in the examples (sticky notes, node notes) and in the documents; each must name a heading of
 * that document.
 */
const DOCUMENT_NAME = String.raw`(?:README|CONTRIBUTING|CHANGELOG)(?:\.md)?|(?:docs/)?[a-z][a-z0-9-]*\.md`;
const REFERENCES = [
	new RegExp(String.raw`\b(${DOCUMENT_NAME})(?:'s|’s)?[,:]?\s+\(?["“]([^"”]{1,80})["”]`, 'g'),
	new RegExp(String.raw`["“]([^"”]{1,80})["”],?\s+in\s+(?:the\s+)?(${DOCUMENT_NAME})\b`, 'g'),
	new RegExp(String.raw`\b(${DOCUMENT_NAME})\s+\(([A-Z][^()"“]{0,60})\)`, 'g'),
];

/** The file a reference names: README → README.md, design.md → docs/design.md. */
function documentPath(name: string): string {
	if (/^[A-Z]/.test(name)) return name.endsWith('.md') ? name : `${name}.md`;
	return name.startsWith('docs/') ? name : `docs/${name}`;
}

/** A heading or a name as words, without Markdown's marks, spaces or case. */
const asWords = (text: string) =>
	text
		.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
		.replace(/[`*_]/g, '')
		.replace(/\s+/g, ' ')
		.trim()
		.toLowerCase();

function headings(path: string): string[] {
	const text = readFileSync(join(ROOT, path), 'utf8').replace(/^```[\s\S]*?^```/gm, '');
	return [...text.matchAll(/^#{1,6} (.+)$/gm)].map(([, heading]) => asWords(heading));
}

interface Reference {
	where: string;
	path: string;
	section: string;
}

/** The references to a section in `text`, found where `where` says. */
function referencesIn(where: string, text: string): Reference[] {
	const flat = text.replace(/\n[ \t]*(?:\*(?!\/)|\/\/)?[ \t]*/g, ' ');
	return REFERENCES.flatMap((pattern, index) =>
		[...flat.matchAll(pattern)].map((match) => {
			const [document, section] = index === 1 ? [match[2], match[1]] : [match[1], match[2]];
			return { where, path: documentPath(document), section: section.trim() };
		}),
	);
}

/** Every string inside a JSON value (an example's notes, a node's description). */
function stringsOf(value: unknown): string[] {
	if (typeof value === 'string') return [value];
	if (Array.isArray(value)) return value.flatMap(stringsOf);
	if (typeof value === 'object' && value !== null) return Object.values(value).flatMap(stringsOf);
	return [];
}

const sourceFiles = ['nodes', 'credentials'].flatMap((folder) =>
	readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
		.filter((file) => file.endsWith('.ts'))
		.map((file) => `${folder}/${file}`),
);

const exampleFiles = readdirSync(join(ROOT, 'examples'))
	.filter((file) => file.endsWith('.json'))
	.map((file) => `examples/${file}`);

/** What users and models read: the nodes' descriptions as n8n loads them, and the examples. */
const readTexts = [
	...[action, trigger].map((description) => ({
		where: `the ${description.name} node's description`,
		text: stringsOf(description).join('\n\n'),
	})),
	...exampleFiles.flatMap((file) =>
		stringsOf(JSON.parse(readFileSync(join(ROOT, file), 'utf8'))).map((text) => ({
			where: file,
			text,
		})),
	),
];

/** The string literals of the nodes' and the credential's source: error texts among them. */
function literalsOf(file: string): string[] {
	const source = ts.createSourceFile(
		file,
		readFileSync(join(ROOT, file), 'utf8'),
		ts.ScriptTarget.ES2022,
	);
	const found: string[] = [];
	const visit = (node: ts.Node): void => {
		if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) found.push(node.text);
		else if (ts.isTemplateExpression(node))
			found.push(
				[node.head.text, ...node.templateSpans.map((span) => span.literal.text)].join('…'),
			);
		ts.forEachChild(node, visit);
	};
	visit(source);
	return found;
}

const sectionReferences = [
	...sourceFiles.flatMap((file) => referencesIn(file, readFileSync(join(ROOT, file), 'utf8'))),
	...readTexts.flatMap(({ where, text }) => referencesIn(where, text)),
	...DOCUMENTS.flatMap((document) =>
		referencesIn(document, readFileSync(join(ROOT, document), 'utf8')),
	),
];

describe('sections the texts send users and models to by name', () => {
	it('are there to check', () => {
		expect(sectionReferences.length).toBeGreaterThanOrEqual(15);
	});

	it.each(sectionReferences)(
		'$where → $path, "$section": the section exists',
		({ path, section }) => {
			expect(existsSync(join(ROOT, path))).toBe(true);
			expect(headings(path)).toContain(asWords(section));
		},
	);

	// A mention of a document in what users and models read names its section as above, or a
	// reference the check cannot read could lead nowhere.
	it.each(
		[
			...readTexts,
			...sourceFiles.flatMap((file) => literalsOf(file).map((text) => ({ where: file, text }))),
		].filter(({ text }) => new RegExp(DOCUMENT_NAME).test(text)),
	)('$where: each document it mentions, it mentions with a section', ({ where, text }) => {
		const mentions = text.match(new RegExp(DOCUMENT_NAME, 'g')) ?? [];
		expect(referencesIn(where, text)).toHaveLength(mentions.length);
	});

	it.each([
		['the README (AI agents and MCP clients)', 'README.md', 'AI agents and MCP clients'],
		['see the README, "Compatibility".', 'README.md', 'Compatibility'],
		['the README\'s "Versioning" says', 'README.md', 'Versioning'],
		['docs/design.md\n * ("Why a request failed") gives', 'docs/design.md', 'Why a request failed'],
		['(see "Publishing a release" in CONTRIBUTING.md)', 'CONTRIBUTING.md', 'Publishing a release'],
	])('reads a reference written as: %s', (text, path, section) => {
		expect(referencesIn('here', text)).toEqual([{ where: 'here', path, section }]);
	});
});
