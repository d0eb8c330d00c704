#!/usr/bin/env bash
# Builds the browser playground (the sidl-wasm crate through wasm-bindgen) and serves it locally.
#   bash scripts/playground.sh            # build, then serve on http://127.0.0.1:${PORT:-8080}/
#   bash scripts/playground.sh --build    # build only (scripts/e2e.sh)
# The WASM build is scripts/wasm-build.sh (it installs the wasm32 target and the pinned
# wasm-bindgen-cli if missing).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
target_dir=${CARGO_TARGET_DIR:-$root/target}

log() { printf '==> %s\n' "$*" >&2; }

# the engine: sidl-wasm through wasm-bindgen into playground/pkg/ (installs the wasm32 target and the
# pinned wasm-bindgen-cli if missing; prints the size), without the Analyse panel's API
bash scripts/wasm-build.sh playground/pkg --no-analyse
# the same engine with the Analyse panel's API (the extensive form and its solvers), which the
# worker loads only when Analyse is pressed (docs/wasm.md "Two builds")
bash scripts/wasm-build.sh playground/pkg-analyse

# the example games, and their list
rm -rf playground/games
mkdir -p playground/games
cp games/*.sidl playground/games/
(cd playground/games && ls *.sidl | python3 -c 'import json,sys; print(json.dumps([l.strip() for l in sys.stdin if l.strip()]))' > index.json)

# the editor and chart libraries (CodeMirror 6, uPlot from npm, pinned by playground/package-lock.json)
# bundled by esbuild into playground/vendor/; `npm ci` only when the lockfile changed
if ! cmp -s playground/package-lock.json playground/node_modules/.sidl-lock 2>/dev/null; then
  log "installing the playground's npm packages (npm ci)"
  (cd playground && npm ci --no-audit --no-fund --loglevel=error && cp package-lock.json node_modules/.sidl-lock)
fi
log "bundling playground/vendor/ (esbuild)"
(cd playground && node build.mjs)

if [ "${1:-}" = "--build" ]; then exit 0; fi

port=${PORT:-8080}
echo
echo "sidl playground: http://127.0.0.1:$port/   (Ctrl+C stops it)"
exec python3 -m http.server --bind 127.0.0.1 --directory playground "$port"
