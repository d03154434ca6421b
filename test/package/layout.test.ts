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

/** What `source` imports: its imports, re-exports, `import()`s and `require()`s. */
function specifiersOf(source: ts.SourceFile): string[] {
	const found: string[] = [];
	const visit = (node: ts.Node): void => {
		const named =
			(ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier;
		const called =
			ts.isCallExpression(node) &&
			(node.expression.kind === ts.SyntaxKind.ImportKeyword ||
				(ts.isIdentifier(node.expression) && node.expression.text === 'require')) &&
			node.arguments[0];
		const specifier = named || called;
		if (specifier && ts.isStringLiteral(specifier)) found.push(specifier.text);
		ts.forEachChild(node, visit);
	};
	visit(source);
	return found;
}

/** Each file's imports: repository paths without `.ts` (or `.js`), or package names. */
function importsOf(
	files: string[],
	read = (file: string) => readFileSync(join(ROOT, file), 'utf8'),
) {
	const graph = new Map<string, string[]>();
	for (const file of files) {
		const source = ts.createSourceFile(file, read(file), ts.ScriptTarget.Latest);
		const from = dirname(join(ROOT, file));
		graph.set(
			file.replace(/\.ts$/, ''),
			specifiersOf(source).map((to) =>
				to.startsWith('.') ? relative(ROOT, resolve(from, to)).replace(/\.js$/, '') : to,
			),
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
			const ours = to.startsWith(NODE) || to.startsWith('credentials/');
			const allowed = ours
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
		// The graph is read: a few imports every version of the layout has.
		expect(PACKAGE.get(`${NODE}actions/router`)).toContain(`${NODE}actions/node.type`);
		expect(PACKAGE.get(`${NODE}client/tags`)).toContain(`${NODE}transport/index`);
		expect(PACKAGE.get(`${NODE}shared/timestamps`)).toContain('luxon');
		expect(wrongImports(PACKAGE)).toEqual([]);
	});

	it('no circle of imports among the package files', () => {
		expect(firstCircle(PACKAGE)).toEqual([]);
	});

	it("no circle of imports among the tests' own files", () => {
		expect(firstCircle(withIndex(importsOf(filesUnder('test'))))).toEqual([]);
	});

	it('reads imports, re-exports, import() and require(), with or without .js', () => {
		const sources: Record<string, string> = {
			[`${NODE}shared/a.ts`]: "import { b } from './b.js';\nexport * from '../client/c';",
			[`${NODE}shared/b.ts`]: "const a = require('./a');\nvoid import('../actions/router');",
		};
		const graph = withIndex(importsOf(Object.keys(sources), (file) => sources[file]));
		expect(graph.get(`${NODE}shared/a`)).toEqual([`${NODE}shared/b`, `${NODE}client/c`]);
		expect(firstCircle(graph)).toEqual([`${NODE}shared/a`, `${NODE}shared/b`, `${NODE}shared/a`]);
		expect(wrongImports(graph)).toEqual([
			`${NODE}shared/a -> ${NODE}client/c`,
			`${NODE}shared/b -> ${NODE}actions/router`,
		]);
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
