/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * The Layout of CONTRIBUTING.md, kept true: who may import whom among the package's folders, what
 * the package imports from outside (only what n8n provides), and no circle of imports among the
 * package's files, nor among the tests' own files.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

import * as ts from 'typescript';

const ROOT = join(__dirname, '../..');
const NODE = 'nodes/DataIntegrationManagement/';

/** CONTRIBUTING.md's table: what each part may import besides its own folder (prefixes). */
const MAY_IMPORT: Record<string, string[]> = {
	node: ['actions/', 'methods/', 'trigger/', 'shared/'],
	actions: ['client/', 'shared/', 'pacing/'],
	methods: [
		'client/',
		'shared/notFound',
		'shared/descriptions',
		'shared/listReads',
		'shared/filters',
		'shared/checks',
	],
	trigger: ['client/', 'shared/'],
	client: ['transport', 'pacing/', 'shared/timestamps', 'shared/failures', 'shared/checks'],
	transport: ['pacing/'],
	pacing: [],
	shared: [],
	credentials: ['transport/credential'],
};
/** What the package imports from outside: n8n's own package, luxon (which n8n provides), Node's. */
const OUTSIDE: Record<string, string[]> = {
	'n8n-workflow': [],
	luxon: ['shared/timestamps'],
	'node:crypto': ['client/auditLogEntryKey', 'pacing/shared-pace'],
};

const filesUnder = (folder: string) =>
	readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
		.filter((path) => path.endsWith('.ts') && !path.endsWith('.d.ts'))
		.map((path) => join(folder, path));

/** Each file's imports (and re-exports): repository paths without `.ts`, or package names. */
function importsOf(files: string[]): Map<string, string[]> {
	const graph = new Map<string, string[]>();
	for (const file of files) {
		const source = ts.createSourceFile(
			file,
			readFileSync(join(ROOT, file), 'utf8'),
			ts.ScriptTarget.Latest,
		);
		const specifiers = source.statements.flatMap((statement) =>
			(ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) &&
			statement.moduleSpecifier &&
			ts.isStringLiteral(statement.moduleSpecifier)
				? [statement.moduleSpecifier.text]
				: [],
		);
		const from = dirname(join(ROOT, file));
		graph.set(
			file.replace(/\.ts$/, ''),
			specifiers.map((to) => (to.startsWith('.') ? relative(ROOT, resolve(from, to)) : to)),
		);
	}
	return graph;
}

/** A file's part of the package: its folder under the node, `node` for a node's file, or `credentials`. */
const partOf = (path: string) =>
	path.startsWith('credentials/')
		? 'credentials'
		: (/^([^/]+)\//.exec(path.slice(NODE.length))?.[1] ?? 'node');

/** The first circle of imports among the graph's own files, as the paths around it; none: []. */
function firstCircle(graph: Map<string, string[]>): string[] {
	const done = new Set<string>();
	const visit = (file: string, path: string[]): string[] => {
		if (path.includes(file)) return [...path.slice(path.indexOf(file)), file];
		if (done.has(file) || !graph.has(file)) return [];
		for (const to of graph.get(file)!) {
			const circle = visit(to, [...path, file]);
			if (circle.length) return circle;
		}
		done.add(file);
		return [];
	};
	for (const file of graph.keys()) {
		const circle = visit(file, []);
		if (circle.length) return circle;
	}
	return [];
}

/** A specifier of a folder (`../transport`) names its index file. */
const withIndex = (graph: Map<string, string[]>) =>
	new Map(
		[...graph].map(([file, imports]) => [
			file,
			imports.map((to) => (graph.has(to) || !graph.has(`${to}/index`) ? to : `${to}/index`)),
		]),
	);

/** The imports of `graph` the table does not let: "file -> import". */
function wrongImports(graph: Map<string, string[]>): string[] {
	const wrong: string[] = [];
	for (const [file, imports] of graph) {
		const part = partOf(file);
		for (const to of imports) {
			const only = OUTSIDE[to];
			const allowed = graph.has(to)
				? partOf(to) === part ||
					MAY_IMPORT[part].some((prefix) => to.slice(NODE.length).startsWith(prefix))
				: only !== undefined && (!only.length || only.some((path) => file === NODE + path));
			if (!allowed) wrong.push(`${file} -> ${to}`);
		}
	}
	return wrong;
}

const PACKAGE = withIndex(importsOf([...filesUnder('nodes'), ...filesUnder('credentials')]));

describe('the Layout of CONTRIBUTING.md', () => {
	it('each part of the package imports only what the table lets it', () => {
		expect(wrongImports(PACKAGE)).toEqual([]);
	});

	it('no circle of imports among the package files', () => {
		expect(firstCircle(PACKAGE)).toEqual([]);
	});

	it("no circle of imports among the tests' own files", () => {
		expect(firstCircle(withIndex(importsOf(filesUnder('test'))))).toEqual([]);
	});

	it('finds what breaks the layout where there is some', () => {
		const [router, controller, pacer] = ['actions/router', 'pacing/controller', 'pacing/pacer'];
		const graph = new Map([
			[NODE + controller, [NODE + router, NODE + pacer, 'luxon', 'n8n-workflow']],
			[NODE + router, [NODE + controller]],
			[NODE + pacer, []],
		]);
		expect(wrongImports(graph)).toEqual([
			`${NODE + controller} -> ${NODE + router}`,
			`${NODE + controller} -> luxon`,
		]);
		expect(firstCircle(graph)).toEqual([NODE + controller, NODE + router, NODE + controller]);
		expect(partOf(`${NODE}DataIntegrationManagement.node`)).toBe('node');
		expect(partOf('credentials/DataIntegrationManagementApi.credentials')).toBe('credentials');
	});
});
