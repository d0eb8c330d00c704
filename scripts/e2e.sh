#!/usr/bin/env bash
# The playground's browser test: builds the wasm, type-checks the page's modules (tsc over
# playground/tsconfig.json, against the sidl_wasm.d.ts of the build), serves playground/ on a free
# local port, runs the Playwright (playwright-core) test in Debian's headless Chromium, stops the server.
# The test prints `ok - …` per check and closes with `N passed, N failed`. Then tests/e2e/stats.test.mjs
# (the Statistics panel against the `sidl` it builds).
# Screenshots: target/e2e-artifacts/. Called by scripts/test.sh (scripts/setup.sh installs chromium first).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

bash scripts/playground.sh --build
# the type check of the playground's JavaScript (// @ts-check, JSDoc types): TypeScript is pinned by
# playground/package-lock.json, installed by playground.sh with the page's libraries
echo "==> type-checking playground/ (tsc --noEmit)" >&2
(cd playground && node node_modules/typescript/bin/tsc -p tsconfig.json)
# playwright-core, pinned by tests/e2e/package-lock.json; `npm ci` only when the lockfile changed
if ! cmp -s tests/e2e/package-lock.json tests/e2e/node_modules/.sidl-lock 2>/dev/null; then
  (cd tests/e2e && npm ci --no-audit --no-fund --loglevel=error && cp package-lock.json node_modules/.sidl-lock)
fi

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
python3 -m http.server --bind 127.0.0.1 --directory playground "$port" >/dev/null 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true' EXIT
for _ in $(seq 50); do
  python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/')" 2>/dev/null && break
  sleep 0.1
done
BASE_URL="http://127.0.0.1:$port/" ARTIFACTS="$root/target/e2e-artifacts" node tests/e2e/playground.test.mjs
# the Statistics panel and the playground's records, checked against `sidl stats` and `sidl trace --replay`
# (SIDL_BIN: a sidl built already, as scripts/test.sh passes the one `cargo test` built)
sidl=${SIDL_BIN:-}
if [ -z "$sidl" ]; then
  cargo build --locked -p sidl-cli --bin sidl
  sidl="${CARGO_TARGET_DIR:-$root/target}/debug/sidl"
fi
SIDL="$sidl" BASE_URL="http://127.0.0.1:$port/" \
  ARTIFACTS="$root/target/e2e-artifacts" node tests/e2e/stats.test.mjs
# the Analyse panel (its own file: it builds and solves game trees, so it runs on its own)
BASE_URL="http://127.0.0.1:$port/" ARTIFACTS="$root/target/e2e-artifacts" node tests/e2e/analyse.test.mjs
