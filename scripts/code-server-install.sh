#!/usr/bin/env bash
# Installs code-server (VS Code in the browser, from the npm registry) for the extension's end-to-end
# test (vscode-extension/test/e2e/), without anything from outside the package registries:
# the npm packages are installed with --ignore-scripts (their install scripts download prebuilt
# binaries), ripgrep comes from Debian, and the native modules are rebuilt against the system
# Node.js headers.
#
#   bash scripts/code-server-install.sh        # prints the path of the code-server entry point
#
# The install is cached outside the repository, keyed by version, in
# ${SIDL_CODE_SERVER_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sidl}/code-server-$VERSION, and skipped
# when it is already complete (a stamp file written last): CI pays for it once per machine
# (about 5 minutes on 2 cores). Needs Debian's ripgrep, libkrb5-dev (the kerberos module), g++,
# make and python3 (node-gyp), and Node.js 20 with its headers (/usr/include/node).
set -euo pipefail

version="${CODE_SERVER_VERSION:-4.100.3}" # the last code-server 4 whose engines accept Node.js 20
cache="${SIDL_CODE_SERVER_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sidl}"
dir="$cache/code-server-$version"
entry="$dir/node_modules/code-server/out/node/entry.js"
stamp="$dir/.sidl-installed"

if [ -f "$stamp" ] && [ -f "$entry" ]; then
  echo "$entry"
  exit 0
fi

log() { printf '==> code-server %s: %s\n' "$version" "$*" >&2; }

. "$(dirname "${BASH_SOURCE[0]}")/apt-install.sh"
if command -v dpkg >/dev/null 2>&1; then
  apt_install ripgrep libkrb5-dev g++ make python3
fi
nodedir="${npm_config_nodedir:-/usr}"
[ -f "$nodedir/include/node/node.h" ] || {
  echo "code-server-install: no Node.js headers in $nodedir/include/node (set npm_config_nodedir)" >&2
  exit 1
}

# A half-finished install (no stamp) is started again from scratch.
rm -rf "$dir"
mkdir -p "$dir"
cd "$dir"
export npm_config_fund=false npm_config_audit=false npm_config_update_notifier=false
export npm_config_loglevel=error npm_config_nodedir="$nodedir"
# node-pty's rebuild asks before running npx; prebuild-install (kerberos) and node-pre-gyp (argon2)
# would first try to download prebuilt binaries from GitHub: build from source straight away.
export npm_config_yes=true npm_config_build_from_source=true

log "npm install code-server@$version --ignore-scripts (in $dir)"
echo '{ "name": "sidl-code-server", "private": true }' >package.json
npm install --no-save "code-server@$version" --ignore-scripts >&2
cs="$dir/node_modules/code-server"
vs="$cs/lib/vscode"

log "lib/vscode: npm install --omit=dev --ignore-scripts"
(cd "$vs" && npm install --omit=dev --ignore-scripts >&2)

# @vscode/ripgrep's postinstall downloads rg from GitHub: use Debian's.
log "ripgrep from Debian"
mkdir -p "$vs/node_modules/@vscode/ripgrep/bin"
cp "$(command -v rg)" "$vs/node_modules/@vscode/ripgrep/bin/rg"

log "lib/vscode: npm rebuild (native modules against $nodedir/include/node)"
(cd "$vs" && npm rebuild >&2)

# What code-server's postinstall.sh does besides the npm installs: node_modules.asar (VS Code and
# extensions look there for ripgrep and the oniguruma wasm) and the `code-server` command of the
# integrated terminal (plus the browser helper).
log "postinstall links"
ln -sfn node_modules "$vs/node_modules.asar"
ln -sfn code-linux.sh "$vs/bin/remote-cli/code-server"
ln -sfn browser-linux.sh "$vs/bin/helpers/browser.sh"

log "lib/vscode/extensions: npm install --omit=dev"
(cd "$vs/extensions" && npm install --omit=dev >&2)

log "npm rebuild argon2 (code-server loads it even with --auth none)"
npm rebuild argon2 >&2

[ -f "$entry" ] || {
  echo "code-server-install: $entry is missing after the install" >&2
  exit 1
}
date -u +%FT%TZ >"$stamp"
log "installed"
echo "$entry"
