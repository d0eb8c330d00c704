#!/usr/bin/env bash
# `sidl serve` in headless Chromium: builds sidl-serve, starts it on a free local port with its
# database in a temporary folder, runs tests/e2e/serve.test.mjs and tests/e2e/serve-lab.test.mjs
# (three participants and the experimenter; playwright-core, Debian's chromium), stops the server; then tests/e2e/embed-serve.test.mjs (the <sidl-game server link>
# element on pages of other origins; it starts its own server and static servers). Prints `ok - …` per check and `N passed, N failed`.
# Called by scripts/test.sh (scripts/setup.sh installs chromium first).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

# SIDL_SERVE_BIN: a sidl-serve built already (scripts/test.sh passes the one `cargo test` built)
serve=${SIDL_SERVE_BIN:-}
if [ -z "$serve" ]; then
  cargo build --locked -p sidl-server --bin sidl-serve
  serve="${CARGO_TARGET_DIR:-$root/target}/debug/sidl-serve"
fi
if ! cmp -s tests/e2e/package-lock.json tests/e2e/node_modules/.sidl-lock 2>/dev/null; then
  (cd tests/e2e && npm ci --no-audit --no-fund --loglevel=error && cp package-lock.json node_modules/.sidl-lock)
fi

data=$(mktemp -d)
token=$(python3 -c 'import secrets; print(secrets.token_hex(16))')
SIDL_ADMIN_TOKEN="$token" "$serve" --data "$data" --port 0 >"$data/out.log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true; rm -rf "$data"' EXIT
url=""
for _ in $(seq 100); do
  url=$(sed -n 's/^sidl serve: listening on //p' "$data/out.log")
  [ -n "$url" ] && break
  sleep 0.1
done
[ -n "$url" ] || { cat "$data/out.log"; echo "sidl-serve did not start"; exit 1; }
BASE_URL="$url" ADMIN_TOKEN="$token" ARTIFACTS="$root/target/e2e-artifacts" node tests/e2e/serve.test.mjs
BASE_URL="$url" ADMIN_TOKEN="$token" ARTIFACTS="$root/target/e2e-artifacts" node tests/e2e/serve-lab.test.mjs
SIDL_SERVE="$serve" ARTIFACTS="$root/target/e2e-artifacts" node tests/e2e/embed-serve.test.mjs
