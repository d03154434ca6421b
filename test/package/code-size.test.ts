/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * The size limits of the code: no file over 300 lines, no function, method or arrow function
 * over 60 (from its first line to its last, comments before it not counted), as the TypeScript
 * compiler parses them. They hold for the package (nodes/, credentials/) and for the tooling
 * under test/ (the emulator, the helpers, the end-to-end run, the benchmark), but not for the
 * test files themselves (*.test.ts), whose describe blocks hold many cases by nature. And the
 * package's weight: its lines of code, and its comment lines per line of code.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

import * as ts from 'typescript';

const ROOT = join(__dirname, '../..');
const MAX_FILE_LINES = 300;
const MAX_FUNCTION_LINES = 60;
/** The package's code lines (nodes/, credentials/): new capability is paid for with code removed. */
const MAX_PACKAGE_CODE_LINES = 5694;
/** Comment lines (with no code on them) per code line: the package, and transport/ and pacing/. */
const MAX_COMMENT_RATIO = 0.25;
const MAX_TRANSPORT_COMMENT_RATIO = 0.3;
/** The README is for n8n users, read in minutes; development goes in CONTRIBUTING.md. */
const MAX_DOC_LINES = { 'README.md': 200, 'CONTRIBUTING.md': 400 };

function sourceFiles(folder: string): string[] {
	return readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
		.filter((path) => path.endsWith('.ts') && !path.endsWith('.d.ts'))
		.map((path) => join(ROOT, folder, path))
		.sort();
}

const isTestFile = (path: string) => path.endsWith('.test.ts');
const FILES = [
	...sourceFiles('nodes'),
	...sourceFiles('credentials'),
	...sourceFiles('test').filter((path) => !isTestFile(path)),
];

/** What a function is called where it is defined: its name, or what it is assigned to. */
function nameOf(node: ts.FunctionLikeDeclaration): string {
	if (node.name) return node.name.getText();
	const parent = node.parent;
	if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) {
		return parent.name.getText();
	}
	return ts.isConstructorDeclaration(node) ? 'constructor' : '(anonymous)';
}

/** Every function in `source` longer than the limit, as "path:line name (n lines)". */
function longFunctions(path: string, source: ts.SourceFile): string[] {
	const found: string[] = [];
	const visit = (node: ts.Node): void => {
		if (ts.isFunctionLike(node) && 'body' in node && node.body) {
			const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
			const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
			const lines = last - first + 1;
			if (lines > MAX_FUNCTION_LINES) {
				const name = nameOf(node as ts.FunctionLikeDeclaration);
				found.push(`${path}:${first + 1} ${name} (${lines} lines)`);
			}
		}
		ts.forEachChild(node, visit);
	};
	visit(source);
	return found;
}

/** The lines of `source` with code (a token on them), and those with only comments. */
function lineCounts(source: ts.SourceFile): { code: number; comment: number } {
	const code = new Set<number>();
	const comment = new Set<number>();
	const mark = (lines: Set<number>, from: number, to: number) => {
		const last = source.getLineAndCharacterOfPosition(to).line;
		for (let line = source.getLineAndCharacterOfPosition(from).line; line <= last; line++)
			lines.add(line);
	};
	const visit = (node: ts.Node): void => {
		if (ts.isJSDoc(node)) return;
		const children = node.getChildren(source);
		if (children.length > 0) return children.forEach(visit);
		for (const range of ts.getLeadingCommentRanges(source.text, node.pos) ?? [])
			mark(comment, range.pos, range.end - 1);
		if (node.getEnd() > node.getStart(source)) mark(code, node.getStart(source), node.getEnd() - 1);
	};
	visit(source);
	return { code: code.size, comment: [...comment].filter((line) => !code.has(line)).length };
}

const parsed = FILES.map((file) => {
	const text = readFileSync(file, 'utf8');
	const path = relative(ROOT, file);
	return { path, text, source: ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true) };
});

describe('the size of the code', () => {
	it('reads the package and the test tooling, not the test files', () => {
		const paths = parsed.map(({ path }) => path);
		expect(paths).toEqual(
			expect.arrayContaining([
				'credentials/DataIntegrationManagementApi.credentials.ts',
				'nodes/DataIntegrationManagement/DataIntegrationManagement.node.ts',
				'test/emulator/server.ts',
				'test/e2e/e2e.ts',
				'test/bench/bench.ts',
			]),
		);
		expect(paths.filter(isTestFile)).toEqual([]);
	});

	it(`no file is over ${MAX_FILE_LINES} lines`, () => {
		const long = parsed
			.map(({ path, text }) => ({ path, lines: text.replace(/\n$/, '').split('\n').length }))
			.filter(({ lines }) => lines > MAX_FILE_LINES)
			.map(({ path, lines }) => `${path} (${lines} lines)`);
		expect(long).toEqual([]);
	});

	it(`no function is over ${MAX_FUNCTION_LINES} lines`, () => {
		expect(parsed.flatMap(({ path, source }) => longFunctions(path, source))).toEqual([]);
	});

	it('counts a function from its first line to its last', () => {
		const body = Array.from({ length: MAX_FUNCTION_LINES - 2 }, () => '\tstep();').join('\n');
		const code = (extra: string) =>
			`// comment\nconst f = () => {\n${body}${extra}\n};\nclass C {\n\tm() {\n${body}${extra}\n\t}\n}\n`;
		const found = (text: string) =>
			longFunctions('x.ts', ts.createSourceFile('x.ts', text, ts.ScriptTarget.Latest, true));
		expect(found(code(''))).toEqual([]);
		expect(found(code('\n\tstep();'))).toEqual(['x.ts:2 f (61 lines)', 'x.ts:64 m (61 lines)']);
	});

	it(`the package is at most ${MAX_PACKAGE_CODE_LINES} lines of code, with few comments per line of code`, () => {
		const counted = (prefix: string) =>
			parsed
				.filter(({ path }) => path.startsWith(prefix))
				.map(({ source }) => lineCounts(source))
				.reduce((sum, { code, comment }) => ({
					code: sum.code + code,
					comment: sum.comment + comment,
				}));
		const all = [counted('nodes/'), counted('credentials/')].reduce((a, b) => ({
			code: a.code + b.code,
			comment: a.comment + b.comment,
		}));
		const [transport, pacing] = ['transport/', 'pacing/'].map((folder) =>
			counted(`nodes/DataIntegrationManagement/${folder}`),
		);
		expect(all.code).toBeLessThanOrEqual(MAX_PACKAGE_CODE_LINES);
		expect(all.comment / all.code).toBeLessThanOrEqual(MAX_COMMENT_RATIO);
		expect(transport.comment / transport.code).toBeLessThanOrEqual(MAX_TRANSPORT_COMMENT_RATIO);
		expect(pacing.comment / pacing.code).toBeLessThanOrEqual(MAX_TRANSPORT_COMMENT_RATIO);
	});

	it('counts a line with a token as code, and a line with only comments as a comment', () => {
		const text = '/**\n * Doc.\n */\nconst a = `x\n// y`; // why\n\n// note\nf(/* b */ 1);\n';
		expect(lineCounts(ts.createSourceFile('x.ts', text, ts.ScriptTarget.Latest, true))).toEqual({
			code: 3,
			comment: 4,
		});
	});

	it.each(Object.entries(MAX_DOC_LINES))('%s is at most %i lines', (file, max) => {
		const text = readFileSync(join(ROOT, file), 'utf8');
		expect(text.replace(/\n$/, '').split('\n').length).toBeLessThanOrEqual(max);
	});
});
