#!/usr/bin/env bash
# Deterministic instruction counts of the engine in WebAssembly (issue 17): the wasm's machine code
# as V8 compiles it (TurboFan only, `--predictable`: one thread, fixed seeds), counted by
# callgrind. Wall clock on a shared VM drifts by tens of percent; these counts repeat within
# about 0.05 %, so a change to the wasm build (allocator, inlining, flags) can be judged
# instruction by instruction, as scripts/bench-games.sh's callgrind counts judge native code.
#   bash scripts/wasm-callgrind.sh PKG GAME [N] [WARM]          N chronons of SidlGame.bench()
#   bash scripts/wasm-callgrind.sh PKG GAME N WARM ai SPEC      N AI decisions (loops.mjs aiLoop)
#   bash scripts/wasm-callgrind.sh PKG GAME N WARM api [PARTS]  N chronons of the playground's API
#     loop (loops.mjs apiLoop: randomMoves, chronon(), every player's switches and view in one
#     switchesAndViews call) after WARM; PARTS runs per-player calls instead (`switches`, `view`,
#     `switches,view`: the loop before that call, `-`: none) to split the loop's cost by call
#     (count.cjs). Judge it by the steady state: I(2N) - I(N) of two runs with the same WARM
#   bash scripts/wasm-callgrind.sh PKG GAME N WARM page [PARTS] N chronons of the playground's Run
#     with every seat random as its worker runs it (loops.mjs pageLoop: isTerminal(), randomMoves,
#     chronon(), snapshot(), accounts() per step) after WARM; PARTS keeps only some of
#     `isTerminal,snapshot,accounts` (`-`: none), `randomMoves2` adds a second randomMoves call.
#     Judge it by the steady state: I(2N) - I(N) of two runs with the same WARM (2 000 or more)
# PKG: a `bash scripts/wasm-build.sh PKG --target nodejs [--no-analyse]` output directory. GAME:
# relative to games/, without .sidl. Prints I(warm-up + N) - I(warm-up alone): the instructions of
# the N chronons (or decisions; the aiLoop's random moves and chronons between them included; for
# api both runs load and start a second game, so its load is not counted).
# Needs valgrind and node (not part of scripts/test.sh; about 40 s a game).
set -euo pipefail
cd "$(dirname "$0")/.."
pkg=${1:?usage: scripts/wasm-callgrind.sh PKG GAME [N] [WARM] [ai SPEC | api [PARTS] | page [PARTS]]}
game=${2:?usage: scripts/wasm-callgrind.sh PKG GAME [N] [WARM] [ai SPEC | api [PARTS] | page [PARTS]]}
n=${3:-2000}
warm=${4:-500}
shift $(($# < 4 ? $# : 4))
command -v valgrind >/dev/null || { echo "wasm-callgrind.sh: needs valgrind (apt-get install valgrind)" >&2; exit 2; }
count() {
  local k=$1
  shift
  valgrind --tool=callgrind --smc-check=all-non-file --callgrind-out-file=/dev/null \
    node --predictable --hash-seed=1 --random-seed=1 --no-liftoff --no-wasm-tier-up \
    scripts/bench-wasm/count.cjs "$pkg" "$game" "$warm" "$k" "$@" 2>&1 |
    awk '/refs:/ { gsub(",", "", $NF); print $NF }'
}
with=$(count "$n" "$@")
without=$(count 0 "$@")
[ -n "$with" ] && [ -n "$without" ] || { echo "wasm-callgrind.sh: the run failed" >&2; exit 1; }
what=chronons; [ "${1:-}" = ai ] && what="decisions (${2:-})"
[ "${1:-}" = api ] && what="API loop chronons (${2:-switches,view})"
[ "${1:-}" = page ] && what="page loop chronons (${2:-isTerminal,snapshot,accounts})"
echo "$game: $n $what: $((with - without)) instructions (all $with, start-up and warm-up $without)"
