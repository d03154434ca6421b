/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * The documentation links n8n shows (the credential's "docs" link, each node's links in its codex
 * file) point at sections of the README that exist. The README's URL is set in one place, the
 * credential's documentationUrl; the codex files name only the section, and the build adds the
 * URL (gulpfile.js).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { DataIntegrationManagementApi } from '../../credentials/DataIntegrationManagementApi.credentials';

const ROOT = join(__dirname, '../..');
const NODES_DIR = join(ROOT, 'nodes/DataIntegrationManagement');

/** The anchors GitHub gives the README's headings. */
function readmeAnchors(): string[] {
	const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
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
