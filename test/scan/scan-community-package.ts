/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, no-console -- test tooling: runs under Node in this repo only and is never part of the published package */
/**
 * `npm run scan`: n8n's community-package scanner (`@n8n/scan-community-package`, the gate a
 * package passes to be verified) on this package, before it is published.
 *
 * The scanner's CLI takes a published package: it checks the npm provenance attestation, fetches
 * the source commit the attestation names and the tarball from the registry, then lints both
 * with one ESLint rule set (`@n8n/eslint-plugin-community-nodes` recommended,
 * `eslint-plugin-n8n-nodes-base` community/credentials/nodes, `no-console`; inline
 * `eslint-disable` comments ignored). Nothing is published here, so this calls the scanner's
 * own `analyzePackage` on the same two inputs:
 * - the source: this repository, with the scanner's SOURCE_FILE_PATTERNS (package.json,
 *   nodes/ and credentials/);
 * - the tarball: `npm run build && npm pack`, unpacked as the scanner unpacks it, with the
 *   patterns its CLI uses for that leg (compiled `.js` and package.json).
 * Only the provenance check is left out; it can only pass for a version published from the
 * GitHub Actions workflow (.github/workflows/publish.yml). A `console.log` planted in a copy of
 * each input must fail the scan, so a scanner that lints nothing there cannot pass.
 *
 * The scanner (with its own ESLint and TypeScript) installs into a cache folder outside the
 * work tree on first use, never into this package's dependencies.
 */
import {
	appendFileSync,
	cpSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { REPO_ROOT } from '../e2e/lib/n8n';
import { buildAndPack } from '../e2e/lib/package';
import { runCommand } from '../e2e/lib/processes';

const SCANNER = '@n8n/scan-community-package';
const SCANNER_VERSION = '0.32.0';
/** What the scanner's CLI lints in the published tarball (analyzePackageByName in scanner.mjs). */
const TARBALL_PATTERNS = ['**/*.js', 'package.json'];

interface Analysis {
	passed: boolean;
	message?: string;
	details?: string;
}

/** The part of scanner/scanner.mjs this uses. */
interface Scanner {
	analyzePackage(packageDir: string, filePatterns: string[]): Promise<Analysis>;
	SOURCE_FILE_PATTERNS: string[];
}

async function installScanner(): Promise<Scanner> {
	const cacheRoot = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
	const folder = join(
		cacheRoot,
		'n8n-nodes-data-integration-management',
		`scan-community-package-${SCANNER_VERSION}`,
	);
	const marker = join(folder, '.installed');
	if (!existsSync(marker)) {
		console.log(`Installing ${SCANNER}@${SCANNER_VERSION} into ${folder} (about 30 s, once)`);
		rmSync(folder, { recursive: true, force: true });
		mkdirSync(folder, { recursive: true });
		writeFileSync(
			join(folder, 'package.json'),
			JSON.stringify({ name: 'scan-community-package-runtime', private: true }),
		);
		await runCommand(
			'npm',
			[
				'install',
				`${SCANNER}@${SCANNER_VERSION}`,
				'--ignore-scripts',
				'--no-audit',
				'--no-fund',
				'--loglevel=error',
			],
			{ cwd: folder, timeoutMs: 10 * 60_000 },
		);
		writeFileSync(marker, '');
	}
	const entry = join(folder, 'node_modules', SCANNER, 'scanner', 'scanner.mjs');
	return (await import(pathToFileURL(entry).href)) as Scanner;
}

function report(what: string, result: Analysis): boolean {
	console.log(`${result.passed ? '✓' : '✗'} ${what}${result.passed ? '' : `: ${result.message}`}`);
	if (result.details) console.log(result.details);
	return result.passed;
}

/**
 * Scans a copy of `dir` with a console.log appended to `file`: the scan must fail on it, or the
 * scanner lints nothing there.
 */
async function failsWithPlanted(
	scanner: Scanner,
	dir: string,
	patterns: string[],
	file: string,
): Promise<Analysis> {
	const copy = mkdtempSync(join(tmpdir(), 'n8n-nodes-dim-scan-planted-'));
	try {
		cpSync(dir, copy, {
			recursive: true,
			filter: (path) => !/(^|\/)(node_modules|\.git)$/.test(path),
		});
		appendFileSync(join(copy, file), '\nconsole.log("planted by npm run scan");\n');
		const result = await scanner.analyzePackage(copy, patterns);
		const caught = !result.passed && (result.details ?? '').includes('no-console');
		return { passed: caught, message: 'the scanner did not report the planted console.log' };
	} finally {
		rmSync(copy, { recursive: true, force: true });
	}
}

async function scan(): Promise<boolean> {
	const scanner = await installScanner();
	const workDir = mkdtempSync(join(tmpdir(), 'n8n-nodes-dim-scan-'));
	try {
		const packed = await buildAndPack(workDir);
		const unpacked = join(workDir, 'package');
		mkdirSync(unpacked);
		await runCommand('tar', ['-xzf', packed.tarball, '-C', unpacked, '--strip-components=1']);

		const source = await scanner.analyzePackage(REPO_ROOT, scanner.SOURCE_FILE_PATTERNS);
		const tarball = await scanner.analyzePackage(unpacked, TARBALL_PATTERNS);

		const [nodeJs] = packed.files.filter((file) => file.endsWith('.node.js'));
		const plantedInTarball = await failsWithPlanted(scanner, unpacked, TARBALL_PATTERNS, nodeJs);
		const nodeTs = nodeJs.replace(/^dist\//, '').replace(/\.js$/, '.ts');
		const plantedInSource = await failsWithPlanted(
			scanner,
			REPO_ROOT,
			scanner.SOURCE_FILE_PATTERNS,
			nodeTs,
		);

		console.log(`${SCANNER}@${SCANNER_VERSION} rules (provenance check left out: not published)`);
		const results = [
			report(`source: ${scanner.SOURCE_FILE_PATTERNS.join(', ')}`, source),
			report(`tarball ${basename(packed.tarball)}: ${TARBALL_PATTERNS.join(', ')}`, tarball),
			report(`a console.log planted in a copy of ${nodeTs} fails the source scan`, plantedInSource),
			report(
				`a console.log planted in a copy of ${nodeJs} fails the tarball scan`,
				plantedInTarball,
			),
		];
		return results.every(Boolean);
	} finally {
		rmSync(workDir, { recursive: true, force: true });
	}
}

scan().then(
	(ok) => {
		console.log(ok ? '\nScan passed' : '\nScan FAILED');
		process.exit(ok ? 0 : 1);
	},
	(error) => {
		console.error(error);
		process.exit(1);
	},
);
