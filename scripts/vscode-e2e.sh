#!/usr/bin/env bash
# The VS Code extension in a real VS Code: installs code-server (scripts/code-server-install.sh,
# cached outside the repository), installs the packaged .vsix (scripts/vscode.sh makes it) into a
# fresh extensions folder, opens a workspace with the test games in code-server on a free local
# port, and runs vscode-extension/test/e2e/code-server.test.mjs (playwright-core, Debian's
# headless Chromium): a squiggle after non-ASCII text, a hover, a quick fix, typing a block comment,
# the hidden-information report and its links. Prints `ok - …` per check and `N passed, N failed`.
# Screenshots: target/vscode-e2e-artifacts/. Called by scripts/test.sh after scripts/vscode.sh;
# by hand: `bash scripts/vscode-e2e.sh [path/to.vsix]`.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
ext="$root/vscode-extension"

log() { printf '\n==> vscode e2e: %s\n' "$*"; }

vsix="${1:-}"
if [ -z "$vsix" ]; then
  shopt -s nullglob
  found=("$ext"/sidl-*.vsix)
  shopt -u nullglob
  [ ${#found[@]} -eq 1 ] || {
    echo "vscode-e2e: expected one vscode-extension/sidl-*.vsix (run scripts/vscode.sh), found ${#found[@]}" >&2
    exit 1
  }
  vsix="${found[0]}"
fi
[ -x /usr/bin/chromium ] || [ -n "${CHROMIUM:-}" ] || {
  echo "vscode-e2e: no /usr/bin/chromium (Debian package chromium; scripts/setup.sh installs it)" >&2
  exit 1
}
[ -d "$ext/node_modules/playwright-core" ] || {
  echo "vscode-e2e: no vscode-extension/node_modules/playwright-core (scripts/vscode.sh runs npm ci)" >&2
  exit 1
}

log "code-server (scripts/code-server-install.sh)"
entry=$(bash scripts/code-server-install.sh)

tmp=$(mktemp -d "${TMPDIR:-/tmp}/sidl-vscode-e2e.XXXXXX")
server=""
cleanup() {
  if [ -n "$server" ]; then
    # code-server's extension host and watcher are its children: stop them first, or they may
    # still write logs under $tmp while it is removed
    pkill -TERM -P "$server" 2>/dev/null || true
    kill "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
  fi
  rm -rf "$tmp" 2>/dev/null || { sleep 2; rm -rf "$tmp" 2>/dev/null || true; }
}
trap cleanup EXIT

mkdir -p "$tmp/user/User" "$tmp/extensions" "$tmp/workspace"
cp "$ext"/test/e2e/workspace/*.sidl games/nim.sidl tests/analysis/kuhn_leaky.sidl "$tmp/workspace/"
cat >"$tmp/user/User/settings.json" <<'JSON'
{
  "files.autoSave": "off",
  "workbench.startupEditor": "none",
  "workbench.tips.enabled": false,
  "telemetry.telemetryLevel": "off",
  "extensions.autoCheckUpdates": false,
  "extensions.autoUpdate": false
}
JSON
: >"$tmp/config.yaml"
common=(--config "$tmp/config.yaml" --user-data-dir "$tmp/user" --extensions-dir "$tmp/extensions")

log "install $(basename "$vsix")"
node "$entry" "${common[@]}" --install-extension "$vsix" >"$tmp/install.log" 2>&1 || {
  cat "$tmp/install.log" >&2
  exit 1
}
grep -q "successfully installed" "$tmp/install.log" || {
  cat "$tmp/install.log" >&2
  exit 1
}

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
log "code-server on 127.0.0.1:$port"
node "$entry" "${common[@]}" --auth none --bind-addr "127.0.0.1:$port" --disable-workspace-trust \
  --disable-telemetry --disable-update-check "$tmp/workspace" >"$tmp/code-server.log" 2>&1 &
server=$!
for _ in $(seq 600); do
  python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/healthz')" 2>/dev/null && break
  kill -0 "$server" 2>/dev/null || {
    cat "$tmp/code-server.log" >&2
    exit 1
  }
  sleep 0.1
done

artifacts="$root/target/vscode-e2e-artifacts"
rm -rf "$artifacts"
status=0
CODE_SERVER_URL="http://127.0.0.1:$port/" WORKSPACE="$tmp/workspace" ARTIFACTS="$artifacts" \
  node "$ext/test/e2e/code-server.test.mjs" || status=$?
if [ "$status" -ne 0 ]; then
  echo "--- code-server log ---" >&2
  tail -50 "$tmp/code-server.log" >&2
  for f in "$tmp"/user/logs/*/exthost*/remoteexthost.log "$tmp"/user/logs/*/exthost*/output_logging_*/*SIDL*; do
    [ -f "$f" ] && { echo "--- $f ---" >&2; tail -50 "$f" >&2; }
  done
fi
exit "$status"
