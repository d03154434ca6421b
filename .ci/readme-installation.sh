#!/usr/bin/env bash
# The README's Installation commands as written (its first sh block: `npm run tarball`, then the
# tarball installed into n8n's nodes folder), run as a new user runs them: in a copy of this
# clone's files without node_modules or dist/, with HOME a temporary folder (npm's cache and user
# config kept). Twice: on the Node .ci/run uses, n8n's user folder the default (~/.n8n); and on the
# lowest Node package.json's engines allows, with the npm it shipped, N8N_USER_FOLDER set (to a
# path with a space). docs/installation.md must hold the same block. After each run it checks:
# - the nodes and the credential are installed, with no copy of n8n-workflow beside them;
# - the nodes folder records the tarball as file:../packages/<file>, and npm install there
#   installs it again once the clone, node_modules and npm's cache are gone;
# - the tarball holds the same files, byte for byte (modes too), as `npm run build && npm pack`
#   here, which needs node_modules (.ci/run's npm ci).
# README=<file> takes the block from another file (to try a block before README.md has it).
set -euo pipefail
cd "$(dirname "$0")/.."

LOWEST_NODE=18.17.0 # package.json's engines (checked below), and the npm that Node shipped
LOWEST_NPM=9.6.7
readme=${README:-README.md}

# The first sh block under the level-2 heading $2 of the Markdown file $1.
sh_block() {
	awk -v heading="## $2" '/^## / { section = $0 } section == heading && /^```sh$/ { on = 1; next }
		on && /^```$/ { exit } on' "$1"
}
commands=$(sh_block "$readme" Installation)
[ -n "$commands" ] || { echo "$readme: no sh block under \"## Installation\""; exit 1; }
docs_heading="The tarball, from a clone"
if [ "$commands" != "$(sh_block docs/installation.md "$docs_heading")" ]; then
	echo "docs/installation.md (\"## $docs_heading\") must hold the block of $readme's Installation:"
	diff <(echo "$commands") <(sh_block docs/installation.md "$docs_heading") || true
	exit 1
fi
engines=$(node -p 'require("./package.json").engines.node')
[ "$engines" = ">=${LOWEST_NODE%.0}" ] || { echo "engines is $engines: update LOWEST_NODE, LOWEST_NPM here"; exit 1; }

name=$(node -p 'require("./package.json").name')
file="$name-$(node -p 'require("./package.json").version').tgz"
declared=$(node -p 'const { n8n } = require("./package.json"); [...n8n.nodes, ...n8n.credentials].join(" ")')
cache=$(npm config get cache)
userconfig=$(npm config get userconfig)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "== the tarball to compare with: npm run build && npm pack, here"
npm run build >"$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
mkdir "$work/reference"
npm pack --silent --pack-destination "$work/reference" >/dev/null
reference="$work/reference/$file"

# Whether tarballs $1 and $2 hold the same files (names, modes, sizes) with the same bytes.
same_files() {
	local listing='{ print $1, $3, $6 }' a="$work/unpacked-a" b="$work/unpacked-b"
	rm -rf "$a" "$b" && mkdir "$a" "$b" && tar -xzf "$1" -C "$a" && tar -xzf "$2" -C "$b"
	diff <(tar -tvzf "$1" | awk "$listing" | sort -k3) <(tar -tvzf "$2" | awk "$listing" | sort -k3) &&
		diff -r "$a" "$b"
}

# Runs the block on the Node and npm in PATH $2, N8N_USER_FOLDER $3 (none if empty); checks.
run_block() {
	local label=$1 path=$2 user_folder=$3
	local home="$work/$label/home" clone="$work/$label/clone"
	mkdir -p "$home" "$clone"
	git ls-files -z --cached --others --exclude-standard |
		tar --null --files-from=- --ignore-failed-read -cf - | tar -xf - -C "$clone"
	local env_args=(-u N8N_USER_FOLDER PATH="$path" HOME="$home" npm_config_cache="$cache"
		npm_config_userconfig="$userconfig")
	[ -z "$user_folder" ] || env_args+=(N8N_USER_FOLDER="$user_folder")
	echo "== $label: Node $(env "${env_args[@]}" node --version), npm $(env "${env_args[@]}" npm --version), N8N_USER_FOLDER ${user_folder:-unset}"
	sed 's/^/$ /' <<<"$commands"
	(cd "$clone" && env "${env_args[@]}" bash -euo pipefail -c "$commands")

	local n8n_folder="${user_folder:-$home}/.n8n"
	local installed="$n8n_folder/nodes/node_modules"
	for entry in $declared; do
		[ -f "$installed/$name/$entry" ] || { echo "not installed: $installed/$name/$entry"; exit 1; }
	done
	[ ! -e "$installed/n8n-workflow" ] || { echo "a copy of n8n-workflow was installed beside the nodes"; exit 1; }
	echo "the nodes and the credential are in $installed, without n8n-workflow"

	local recorded
	recorded=$(NODES="$n8n_folder/nodes" NAME="$name" node -p \
		'require(`${process.env.NODES}/package.json`).dependencies[process.env.NAME]')
	[ "$recorded" = "file:../packages/$file" ] || { echo "the nodes folder records $recorded"; exit 1; }
	# An empty npm cache: npm would take the tarball's files from its cache when the path is gone.
	rm -rf "$clone" "$installed"
	(cd "$n8n_folder/nodes" && env "${env_args[@]}" npm_config_cache="$work/$label/empty-cache" \
		npm install --legacy-peer-deps --no-audit --no-fund --loglevel=error)
	[ -f "$installed/$name/package.json" ] || { echo "npm install did not install $name again"; exit 1; }
	echo "the nodes folder records $recorded; with the clone, node_modules and npm's cache gone, npm install there installs it again"

	same_files "$reference" "$n8n_folder/packages/$file" || { echo "the tarball differs from npm run build && npm pack's"; exit 1; }
	local identical="the .tgz differs only in how this npm compresses it"
	cmp -s "$reference" "$n8n_folder/packages/$file" && identical="the .tgz is identical, so is its checksum"
	echo "the tarball holds the same $(tar -tzf "$reference" | wc -l) files, byte for byte, as npm run build && npm pack ($identical)"
}

run_block "node-$(node --version)" "$PATH" ""
lowest=$(bash .ci/install-node.sh "$LOWEST_NODE" "$LOWEST_NPM")
run_block "node-v$LOWEST_NODE" "$lowest:$PATH" "$work/n8n user folder"
