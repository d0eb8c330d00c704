#!/usr/bin/env bash
# Writes `sidl trace` of every game in games/, games/paper/ and games/econ/ (random play, seeds 1
# and 2, 60 chronons) into DIR, one file per game and seed, and the records of short tournaments
# with AI seats (MCTS and minimax: every decision and nature draw, so a change in the searches'
# simulated chronons shows too). Speed work compares two such directories (`diff -r`) to show that
# an optimisation changed no answer.
# Usage: bash scripts/trace-all.sh DIR [SIDL_BINARY]
# The environment reaches sidl: `SIDL_CORE=compiled bash scripts/trace-all.sh DIR` traces with the
# experimental compiled core on, given a sidl built with it (`cargo build --release -p sidl-cli
# --features compiled-core`, docs/reference.md); the traces must not change.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: trace-all.sh DIR [SIDL_BINARY]}
bin=${2:-${CARGO_TARGET_DIR:-target}/release/sidl}
if [ -z "${2:-}" ]; then cargo build --release -q -p sidl-cli; fi
mkdir -p "$out"
for g in games/*.sidl games/paper/*.sidl games/econ/*.sidl; do
  name=$(echo "$g" | tr / _)
  for seed in 1 2; do
    # exit code 1 (runtime error) and 3 (max chronons) are part of the trace contract
    "$bin" trace "$g" --seed "$seed" --max-chronons 60 > "$out/$name.$seed" 2>&1 || echo "exit $?" >> "$out/$name.$seed"
  done
done
# AI seats: GAME SEAT... (records of 2 games each, seeds 1 and 2)
while read -r g seats; do
  args=()
  for s in $seats; do args+=(--seat "$s"); done
  rec="$out/ai_$(echo "$g" | tr / _).records"
  rm -f "$rec"
  "$bin" tournament "$g" "${args[@]}" --games 2 --seed 1 --max-chronons 40 --record "$rec" > "$rec.table" 2>&1 || echo "exit $?" >> "$rec.table"
done <<'GAMES'
games/tictactoe.sidl xplayer=mcts:60 oplayer=minimax:2
games/connect4.sidl red=mcts:40 yellow=minimax:2
games/kuhn.sidl p1=mcts:80 p2=minimax:3
games/nim.sidl alice=minimax:4 bob=mcts:50
games/kalah.sidl south=mcts:20 north=minimax:1
games/leduc.sidl p1=mcts:40
GAMES
echo "traces in $out ($(ls "$out" | wc -l) files)"
