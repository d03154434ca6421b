#!/usr/bin/env bash
# The README's Installation commands as written (its first sh block: npm ci, the build, npm pack,
# and the tarball installed into ~/.n8n/nodes), run in this clone with HOME a temporary folder
# (npm's cache and user config kept); then checks that the nodes and the credential n8n loads are
# installed there, with no copy of n8n-workflow beside them. .ci/run's install and build step.
set -euo pipefail
cd "$(dirname "$0")/.."

commands=$(awk '/^## / { section = $0 } section == "## Installation" && /^```sh$/ { on = 1; next }
	on && /^```$/ { exit } on' README.md)
[ -n "$commands" ] || { echo "README.md: no sh block under \"## Installation\""; exit 1; }
home=$(mktemp -d)
trap 'rm -rf "$home" n8n-nodes-data-integration-management-*.tgz' EXIT

sed 's/^/$ /' <<<"$commands"
npm_config_cache=$(npm config get cache) npm_config_userconfig=$(npm config get userconfig) \
	HOME="$home" bash -euo pipefail -c "$commands"

installed="$home/.n8n/nodes/node_modules"
package="$installed/$(node -p 'require("./package.json").name')"
for file in $(node -p 'const { n8n } = require("./package.json"); [...n8n.nodes, ...n8n.credentials].join(" ")'); do
	[ -f "$package/$file" ] || { echo "not installed: $package/$file"; exit 1; }
done
[ ! -e "$installed/n8n-workflow" ] || { echo "a copy of n8n-workflow was installed beside the nodes"; exit 1; }
echo "the nodes and the credential are in ~/.n8n/nodes/node_modules, without n8n-workflow"
