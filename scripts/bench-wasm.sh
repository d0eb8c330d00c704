#!/usr/bin/env bash
# The engine where it runs (issue 17): chronons per second of random play on every game of games/
# and games/paper/, in one run, in each setting:
#   - native `sidl bench` (release build), and `sidl bench --views` (the API loop's work natively:
#     random moves with candidate/2, the chronons' records, every player's switches and view);
#   - sidl-wasm in Node and in headless Chromium (Debian's, driven by playwright-core), both through
#     the playground's API loop (every seat random: isTerminal, randomMoves, chronon, then every
#     player's switches and view) and through SidlGame.bench() (`sidl bench`'s loop inside the wasm);
#   - the reference manager tests/reference/gm.pl in SWI-Prolog's WebAssembly build (npm swipl-wasm,
#     pinned by scripts/bench-wasm/package-lock.json) in Node and in Chromium (`run_bench/1`, the
#     game written into its virtual file system);
# and prints two Markdown tables: the rates and their ratios. Wall-clock time (performance.now(),
# `sidl bench`'s own timer); the settings of a game are interleaved run by run and the median kept.
# Then the time of an AI decision through `aiMoves` (the playground's AI seats) in Node and Chromium
# against native `sidl bench GAME --ai SPEC --decisions K`, at the same positions (run.mjs's AI_CASES).
# Not part of scripts/test.sh. Usage: bash scripts/bench-wasm.sh [CHRONONS] [RUNS]   (10000, 3)
# GAMES="kuhn rps paper/..." (names relative to games/, without .sidl) times only those games.
# Installs what is missing: Debian chromium, the wasm toolchain (scripts/wasm-build.sh), and the npm
# packages into scripts/bench-wasm/node_modules (gitignored; `npm ci` only when the lockfile changed).
# SIDL=PATH: the native columns time that binary instead of the release build (target/pgo/sidl:
# scripts/build-pgo.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
target_dir=${CARGO_TARGET_DIR:-$root/target}
n=${1:-10000}
runs=${2:-3}

log() { printf '==> %s\n' "$*" >&2; }

missing=()
dpkg -s chromium >/dev/null 2>&1 || missing+=(chromium)
command -v node >/dev/null 2>&1 || missing+=(nodejs npm)
if [ ${#missing[@]} -gt 0 ]; then
  log "installing Debian packages: ${missing[*]}"
  sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if [ -z "${SIDL:-}" ]; then
  log "native sidl (release)"
  cargo build --release --locked -q -p sidl-cli
  SIDL="$target_dir/release/sidl"
fi
[ -x "$SIDL" ] || { echo "bench-wasm.sh: no binary $SIDL" >&2; exit 2; }
log "native: $SIDL"
log "sidl-wasm for the page (--target web) and for Node (--target nodejs)"
bash scripts/wasm-build.sh "$target_dir/bench-wasm/web" --target web
bash scripts/wasm-build.sh "$target_dir/bench-wasm/node" --target nodejs
if ! cmp -s scripts/bench-wasm/package-lock.json scripts/bench-wasm/node_modules/.sidl-lock 2>/dev/null; then
  log "npm ci in scripts/bench-wasm (swipl-wasm, playwright-core)"
  (cd scripts/bench-wasm && npm ci --no-audit --no-fund --loglevel=error && cp package-lock.json node_modules/.sidl-lock)
fi

if [ -n "${GAMES:-}" ]; then
  games=$(for g in $GAMES; do [ -f "games/$g.sidl" ] || { echo "bench-wasm.sh: no games/$g.sidl" >&2; exit 2; }; echo "$g.sidl"; done)
else
  games=$(cd games && ls ./*.sidl paper/*.sidl | sed 's|^\./||')
fi
log "timing $(echo "$games" | wc -w) games, $n chronons, $runs runs each (progress on stderr)"
# shellcheck disable=SC2086
node scripts/bench-wasm/run.mjs "$root" "$SIDL" "$target_dir/bench-wasm/node" \
  "$target_dir/bench-wasm/web" "$n" "$runs" $games
