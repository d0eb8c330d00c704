#!/usr/bin/env bash
# Builds the browser playground (the sidl-wasm crate through wasm-bindgen) and serves it locally.
#   bash scripts/playground.sh            # build, then serve on http://127.0.0.1:${PORT:-8080}/
#   bash scripts/playground.sh --build    # build only (scripts/e2e.sh)
# Installs what is missing: the wasm32-unknown-unknown target and wasm-bindgen-cli at the exact
# version the crate pins (they must match).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
target_dir=${CARGO_TARGET_DIR:-$root/target}

log() { printf '==> %s\n' "$*" >&2; }

# the version pinned in wasm/Cargo.toml (`wasm-bindgen = "=X.Y.Z"`)
wb_version=$(sed -n 's/^wasm-bindgen = "=\([0-9.]*\)".*/\1/p' wasm/Cargo.toml)
[ -n "$wb_version" ] || { echo "wasm/Cargo.toml does not pin wasm-bindgen with =" >&2; exit 1; }

if ! rustup target list --installed 2>/dev/null | grep -q wasm32-unknown-unknown; then
  log "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi
if ! command -v wasm-bindgen >/dev/null 2>&1 ||
   [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" != "$wb_version" ]; then
  log "installing wasm-bindgen-cli $wb_version (a few minutes, once)"
  # not --locked: its lockfile may name dependency versions the registry no longer serves
  cargo install wasm-bindgen-cli --version "$wb_version"
fi

log "building sidl-wasm (release, wasm32)"
cargo build --release --locked --target wasm32-unknown-unknown -p sidl-wasm
rm -rf playground/pkg
wasm-bindgen --target web --remove-name-section --out-dir playground/pkg \
  "$target_dir/wasm32-unknown-unknown/release/sidl_wasm.wasm"
size=$(stat -c %s playground/pkg/sidl_wasm_bg.wasm)
gz=$(gzip -9 -c playground/pkg/sidl_wasm_bg.wasm | wc -c)
log "playground/pkg/sidl_wasm_bg.wasm: $((size / 1024)) KiB, $((gz / 1024)) KiB gzipped"

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
