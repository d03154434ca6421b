// `npm run tarball [-- <folder>]`: the package's tarball from a clone, with Node 18.17 or later and
// npm only, no node_modules. Into a throwaway folder it installs the compiler alone, at the version
// package-lock.json pins; tsc emits without type checking (n8n-workflow's types change no emitted
// line: CI compares this tarball with `npm run build && npm pack`'s, .ci/readme-installation.sh);
// then the asset step (scripts/assets.js) and npm pack, into <folder>, by default
// ${N8N_USER_FOLDER:-~}/.n8n/packages, a folder that outlives the clone, so that a later
// `npm install` in n8n's nodes folder, which records the tarball's path, finds it again. Prints the
// tarball's path as its last line on stdout; what it does goes to stderr.
const { spawnSync } = require('node:child_process');
const {
	lstatSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
	writeFileSync,
} = require('node:fs');
const { homedir, tmpdir } = require('node:os');
const { join, resolve } = require('node:path');
const { buildAssets } = require('./assets');

const ROOT = join(__dirname, '..');
const COMPILER = 'typescript';

const log = (line) => process.stderr.write(`tarball: ${line}\n`);
const writeJson = (path, value) => writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);
const seconds = (since) => Math.round((Date.now() - since) / 1000);

/** The folder given, else `.n8n/packages` in n8n's user folder (N8N_USER_FOLDER, else home). */
function destination() {
	if (process.argv[2]) return resolve(process.argv[2]);
	return join(process.env.N8N_USER_FOLDER || homedir(), '.n8n', 'packages');
}

/** Runs npm in `cwd` (the npm that runs this script, if it is npm); returns what it printed on stdout. */
function npm(args, cwd, { quiet = false } = {}) {
	const npmCli = process.env.npm_execpath ?? '';
	const viaNode = /npm-cli\.js$/.test(npmCli);
	const result = spawnSync(viaNode ? process.execPath : 'npm', viaNode ? [npmCli, ...args] : args, {
		cwd,
		encoding: 'utf8',
		stdio: ['ignore', quiet ? 'pipe' : 'inherit', 'inherit'],
		shell: !viaNode && process.platform === 'win32',
	});
	if (result.status !== 0)
		throw new Error(
			`npm ${args.join(' ')} failed in ${cwd} (${result.error ?? `exit ${result.status}`})`,
		);
	return result.stdout;
}

/** The size of a folder's files, in MB. */
function megabytes(path) {
	const bytes = (at) =>
		readdirSync(at, { withFileTypes: true }).reduce((sum, entry) => {
			const child = join(at, entry.name);
			return sum + (entry.isDirectory() ? bytes(child) : lstatSync(child).size);
		}, 0);
	return Math.round(bytes(path) / 1e6);
}

/** The compiler, exactly as package-lock.json pins it (version, address, checksum), into `tools`. */
function installCompiler(tools) {
	const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8'));
	const { dev, ...locked } = lock.packages[`node_modules/${COMPILER}`];
	const name = 'n8n-nodes-tarball-tools';
	const dependencies = { [COMPILER]: locked.version };
	writeJson(join(tools, 'package.json'), { name, private: true, dependencies });
	writeJson(join(tools, 'package-lock.json'), {
		name,
		lockfileVersion: 3,
		requires: true,
		packages: { '': { name, dependencies }, [`node_modules/${COMPILER}`]: locked },
	});
	const started = Date.now();
	npm(['ci', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], tools, {
		quiet: true,
	});
	const modules = join(tools, 'node_modules');
	const packages = readdirSync(modules).filter((entry) => !entry.startsWith('.')).length;
	log(
		`${COMPILER} ${locked.version}: ${packages} package, ${megabytes(modules)} MB, installed in ${seconds(started)} s into ${tools} (deleted at the end)`,
	);
}

/** dist/ emptied, then tsc with the project's tsconfig.json, emitting without type checking. */
function compile(tools) {
	rmSync(join(ROOT, 'dist'), { recursive: true, force: true });
	const tsconfig = join(tools, 'tsconfig.json');
	writeJson(tsconfig, {
		extends: join(ROOT, 'tsconfig.json'),
		compilerOptions: { noCheck: true, types: [] },
	});
	const tsc = join(tools, 'node_modules', COMPILER, 'bin', 'tsc');
	const started = Date.now();
	const result = spawnSync(process.execPath, [tsc, '-p', tsconfig], {
		cwd: ROOT,
		stdio: 'inherit',
	});
	if (result.status !== 0) throw new Error(`tsc failed (exit ${result.status})`);
	log(`tsc: dist/ in ${seconds(started)} s`);
}

/** npm pack of the clone into `folder`; the tarball's path. */
function pack(folder) {
	mkdirSync(folder, { recursive: true });
	const packArgs = ['pack', '--json', '--ignore-scripts', '--pack-destination', folder];
	const [packed] = JSON.parse(npm(packArgs, ROOT, { quiet: true }));
	log(`npm pack: ${packed.entryCount} files, ${packed.size} bytes, ${packed.integrity}`);
	return join(folder, packed.filename);
}

function main() {
	const started = Date.now();
	const folder = destination();
	const tools = mkdtempSync(join(tmpdir(), 'n8n-nodes-tarball-'));
	let tarball;
	try {
		installCompiler(tools);
		compile(tools);
		log(`assets: ${buildAssets(ROOT).length} files (scripts/assets.js)`);
		tarball = pack(folder);
	} finally {
		rmSync(tools, { recursive: true, force: true });
	}
	log(`done in ${seconds(started)} s; install it in n8n's nodes folder from where it is:`);
	process.stdout.write(`${tarball}\n`);
}

try {
	main();
} catch (error) {
	log(error instanceof Error ? error.message : String(error));
	process.exitCode = 1;
}
