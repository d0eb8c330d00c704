#!/usr/bin/env bash
# The training run of scripts/build-pgo.sh: what the instrumented `sidl` does while its profile is
# recorded (LLVM_PROFILE_FILE set by the caller). The engine's everyday work on every game of the
# repository: random play (`sidl bench`), the page's work per chronon (`--views`), AI decisions,
# traces, and the checks of an editor (parsing, analyses). A step that fails stops the build: a
# profile of a broken run would optimise the wrong paths.
# Usage: bash scripts/pgo-train.sh SIDL_BINARY
# scripts/test.sh runs it with the test build's sidl, so that the training stays runnable.
set -euo pipefail
sidl=${1:?usage: pgo-train.sh SIDL_BINARY}
# (a path relative to the caller's directory, resolved before the cd)
[ -e "$sidl" ] && sidl=$(realpath "$sidl")
cd "$(dirname "$0")/.."

for g in games/*.sidl games/paper/*.sidl games/econ/*.sidl; do
  "$sidl" bench "$g" --chronons 3000 --seed 1 >/dev/null
  "$sidl" bench "$g" --chronons 500 --seed 2 --views >/dev/null
  # exit 3: the game was still running after 200 chronons (the trace so far is written)
  "$sidl" trace "$g" --seed 1 --max-chronons 200 >/dev/null || [ $? -eq 3 ]
  # exit 1: an error diagnostic (games/paper/mcp.sidl has one: the paper's listing as written);
  # any other status (a crash) stops the training
  "$sidl" check "$g" >/dev/null 2>&1 || [ $? -eq 1 ]
done
"$sidl" bench games/tictactoe.sidl --ai mcts:200 --decisions 3 --seed 1 >/dev/null
"$sidl" bench games/connect4.sidl --ai mcts:100 --decisions 3 --seed 1 >/dev/null
"$sidl" bench games/kuhn.sidl --ai mcts:200 --decisions 5 --seed 1 >/dev/null
"$sidl" bench games/nim.sidl --ai minimax:4 --decisions 50 --seed 1 >/dev/null
