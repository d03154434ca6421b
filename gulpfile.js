// `npm run build`'s asset step (after tsc): icons, output schemas, the codex's documentation
// links. Its one implementation is scripts/assets.js, plain Node, which `npm run tarball` runs
// without gulp.
const { buildAssets } = require('./scripts/assets');

async function assets() {
	buildAssets(__dirname);
}

exports['build:assets'] = assets;
exports.default = assets;
