#!/usr/bin/env bash
# Tests of the WASM build (scripts/test.sh runs this after cargo test; a few minutes):
#   1. wasm-bindgen-test tests of the JavaScript API (wasm/tests/web.rs) in Node,
#   2. the same tests in headless Chromium through Debian's chromedriver (wasm/webdriver.json),
#   3. native-vs-WASM parity: every scripted trajectory and random plays of every game, printed by
#      `sidl trace` and by the WASM `trace`, must be identical, and so must the diagnostics of
#      `sidl check` and of the WASM `check` for every game and analysis test (wasm/tests/parity.mjs).
# Installs what is missing: Debian chromium and chromium-driver, and (through scripts/wasm-build.sh)
# the wasm32 target and the pinned wasm-bindgen-cli, whose wasm-bindgen-test-runner runs the tests.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
target_dir=${CARGO_TARGET_DIR:-$root/target}

log() { printf '\n==> %s\n' "$*"; }

missing=()
for pkg in chromium chromium-driver; do dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg"); done
command -v node >/dev/null 2>&1 || missing+=(nodejs)
if [ ${#missing[@]} -gt 0 ]; then
  log "installing Debian packages: ${missing[*]}"
  sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

log "WASM build for Node (--target nodejs), for the parity test"
bash scripts/wasm-build.sh "$target_dir/wasm-node" --target nodejs

export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner
log "wasm-bindgen tests of the JavaScript API in Node"
cargo test --locked --target wasm32-unknown-unknown -p sidl-wasm --test web

log "wasm-bindgen tests of the JavaScript API in headless Chromium (chromedriver)"
WASM_BINDGEN_USE_BROWSER=1 CHROMEDRIVER=/usr/bin/chromedriver \
  WASM_BINDGEN_TEST_WEBDRIVER_JSON="$root/wasm/webdriver.json" \
  cargo test --locked --target wasm32-unknown-unknown -p sidl-wasm --test web

log "native sidl trace vs WASM trace"
# SIDL_BIN: a sidl built already (scripts/test.sh: the one `cargo test` built)
sidl=${SIDL_BIN:-}
if [ -z "$sidl" ]; then
  cargo build --locked -p sidl-cli
  sidl="$target_dir/debug/sidl"
fi
node wasm/tests/parity.mjs "$target_dir/wasm-node" "$sidl"
