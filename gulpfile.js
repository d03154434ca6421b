// Copies what tsc does not emit (icons and the editor's output schemas) into dist/, keeping paths.
const { src, dest } = require('gulp');

function copyAssets() {
	return src(['nodes/**/*.svg', 'nodes/**/__schema__/**/*.json', 'credentials/**/*.svg'], {
		base: '.',
		encoding: false,
	}).pipe(dest('dist'));
}

exports['build:assets'] = copyAssets;
exports.default = copyAssets;
