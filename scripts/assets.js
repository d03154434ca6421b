// The build's asset step, what tsc does not emit: icons and the editor's output schemas, copied into
// dist/ keeping their paths; and the nodes' codex files (.node.json), whose documentation links
// name only a README section (`#operations`) in the source and get the README's URL from the built
// credential's documentationUrl, the one place it is set. Plain Node, no dependencies: gulpfile.js
// runs it in `npm run build`, scripts/tarball.js in `npm run tarball`.
const { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } = require('node:fs');
const { dirname, join } = require('node:path');

/** The files under `folder` of `root`, as `folder/…` paths; dot names left out, as gulp's globs did. */
function filesUnder(root, folder) {
	const found = [];
	const walk = (path) => {
		for (const entry of readdirSync(join(root, path), { withFileTypes: true })) {
			if (entry.name.startsWith('.')) continue;
			const child = `${path}/${entry.name}`;
			if (entry.isDirectory()) walk(child);
			else if (entry.isFile()) found.push(child);
		}
	};
	walk(folder);
	return found.sort();
}

/** Copied as they are: nodes/**\/*.svg, credentials/**\/*.svg, nodes/**\/__schema__/**\/*.json. */
const isCopied = (path) =>
	path.endsWith('.svg') ||
	(path.startsWith('nodes/') && path.includes('/__schema__/') && path.endsWith('.json'));

/** The README's URL: the built credential's documentationUrl without its section. */
function readmeUrl(root) {
	const built = join(root, 'dist/credentials/DataIntegrationManagementApi.credentials.js');
	const { DataIntegrationManagementApi } = require(built);
	const url = new URL(new DataIntegrationManagementApi().documentationUrl);
	url.hash = '';
	return url.href;
}

/** A codex file with each documentation link (a README section) made a full URL. */
function completedCodex(text, readme) {
	const codex = JSON.parse(text);
	for (const links of Object.values(codex.resources ?? {}))
		for (const link of links) link.url = `${readme}${link.url}`;
	return `${JSON.stringify(codex, null, '\t')}\n`;
}

/** Writes the assets of the package in `root` into root/dist, after tsc; returns their paths. */
function buildAssets(root) {
	const readme = readmeUrl(root);
	const sources = [...filesUnder(root, 'nodes'), ...filesUnder(root, 'credentials')];
	const written = [];
	for (const path of sources) {
		const isCodex = path.startsWith('nodes/') && path.endsWith('.node.json');
		if (!isCodex && !isCopied(path)) continue;
		const target = join(root, 'dist', path);
		mkdirSync(dirname(target), { recursive: true });
		if (isCodex)
			writeFileSync(target, completedCodex(readFileSync(join(root, path), 'utf8'), readme));
		else copyFileSync(join(root, path), target);
		written.push(`dist/${path}`);
	}
	return written;
}

module.exports = { buildAssets };
