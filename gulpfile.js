// What tsc does not emit: icons and the editor's output schemas, copied into dist/ keeping their
// paths; and the nodes' codex files (.node.json), whose documentation links name only a README
// section (`#operations`) in the source and get the README's URL from the built credential's
// documentationUrl, the one place it is set.
const { Transform } = require('node:stream');
const { parallel, src, dest } = require('gulp');

function copyAssets() {
	return src(['nodes/**/*.svg', 'nodes/**/__schema__/**/*.json', 'credentials/**/*.svg'], {
		base: '.',
		encoding: false,
	}).pipe(dest('dist'));
}

/** The README's URL: the credential's documentationUrl without its section. */
function readmeUrl() {
	const credentials = require('./dist/credentials/DataIntegrationManagementApi.credentials.js');
	const url = new URL(new credentials.DataIntegrationManagementApi().documentationUrl);
	url.hash = '';
	return url.href;
}

function codexWithDocumentationUrl() {
	const readme = readmeUrl();
	const completeLinks = new Transform({
		objectMode: true,
		transform(file, _encoding, done) {
			const codex = JSON.parse(file.contents.toString());
			for (const links of Object.values(codex.resources ?? {}))
				for (const link of links) link.url = `${readme}${link.url}`;
			file.contents = Buffer.from(`${JSON.stringify(codex, null, '\t')}\n`);
			done(null, file);
		},
	});
	return src('nodes/**/*.node.json', { base: '.' }).pipe(completeLinks).pipe(dest('dist'));
}

exports['build:assets'] = parallel(copyAssets, codexWithDocumentationUrl);
exports.default = exports['build:assets'];
