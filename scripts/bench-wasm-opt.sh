#!/usr/bin/env bash
# The wasm build's optimisation level (issue 17): builds the page's engine (`--no-analyse`, as
# scripts/wasm-build.sh does: fat LTO, one codegen unit) in several opt-level variants, prints each
# one's .wasm size raw and gzipped, then times them side by side in headless Chromium
# (scripts/bench-wasm/opt.mjs: one page per variant, the variants interleaved run by run, the
# playground's API loop and `bench()`, median of RUNS).
# Usage: bash scripts/bench-wasm-opt.sh [CHRONONS] [RUNS]        (3000, 5)
#   VARIANTS="NAME:LEVEL[:ENGINE_LEVEL[:WASM_LEVEL]] ..." (default below): LEVEL for every crate
#   (CARGO_PROFILE_RELEASE_OPT_LEVEL), ENGINE_LEVEL for sidl-engine, WASM_LEVEL for sidl-wasm
#   (`--config profile.release.package.NAME.opt-level=...`); "-" leaves one at LEVEL.
#   GAMES="nim kuhn ..." (names under games/, without .sidl); BUILD_ONLY=1 stops after the sizes.
#   WASM_RUSTFLAGS: the wasm target's rustflags (default "-C target-feature=+simd128", as
#   scripts/wasm-build.sh; "" builds without SIMD).
#   Builds made otherwise (two commits, say) are timed the same way by the driver itself:
#   node scripts/bench-wasm/opt.mjs "$PWD" CHRONONS RUNS "GAME ..." NAME=WEB_PKG_DIR ...
# Needs what scripts/bench-wasm.sh installs (run it once). Not part of scripts/test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
target_dir=${CARGO_TARGET_DIR:-$root/target}
n=${1:-3000}
runs=${2:-5}
variants=${VARIANTS:-"s:s e3s:s:3 e2s:s:2 e3z:z:3 e2z:z:2"}
games=${GAMES:-"nim kuhn tictactoe connect4 chess kalah go"}
out_root=$target_dir/bench-wasm-opt

log() { printf '==> %s\n' "$*" >&2; }

level() { case "$1" in s | z) printf '"%s"' "$1" ;; *) printf '%s' "$1" ;; esac; }
pairs=()
for v in $variants; do
  IFS=: read -r name base engine wasm <<<"$v"
  config=()
  [ -n "${engine:-}" ] && [ "$engine" != - ] &&
    config+=(--config "profile.release.package.sidl-engine.opt-level=$(level "$engine")")
  [ -n "${wasm:-}" ] && [ "$wasm" != - ] &&
    config+=(--config "profile.release.package.sidl-wasm.opt-level=$(level "$wasm")")
  log "variant $name: opt-level $base, sidl-engine ${engine:--}, sidl-wasm ${wasm:--}"
  CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS=${WASM_RUSTFLAGS-"-C target-feature=+simd128"} \
    CARGO_PROFILE_RELEASE_OPT_LEVEL=$base CARGO_PROFILE_RELEASE_LTO=fat CARGO_PROFILE_RELEASE_CODEGEN_UNITS=1 \
    cargo build -q --release --locked --target wasm32-unknown-unknown -p sidl-wasm --no-default-features \
    ${config[@]+"${config[@]}"}
  rm -rf "${out_root:?}/$name"
  mkdir -p "$out_root/$name"
  wasm-bindgen --target web --remove-name-section --out-dir "$out_root/$name" \
    "$target_dir/wasm32-unknown-unknown/release/sidl_wasm.wasm"
  wasm=$out_root/$name/sidl_wasm_bg.wasm
  printf 'size %s: %s bytes raw, %s gzipped (gzip -9)\n' "$name" "$(stat -c %s "$wasm")" "$(gzip -9 -c "$wasm" | wc -c)"
  pairs+=("$name=$out_root/$name")
done
[ -n "${BUILD_ONLY:-}" ] && exit 0
# shellcheck disable=SC2086
node scripts/bench-wasm/opt.mjs "$root" "$n" "$runs" "$games" "${pairs[@]}"
