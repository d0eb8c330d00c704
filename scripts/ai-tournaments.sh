#!/usr/bin/env bash
# The AI acceptance tournaments (docs/ai.md), in a release build: 100 games each of MCTS and minimax
# against uniform random. Fails if MCTS does not win more tic-tac-toe games than it loses, or if
# minimax loses a tic-tac-toe game. Long (minutes): not part of scripts/test.sh.
# Usage: bash scripts/ai-tournaments.sh [GAMES]
set -euo pipefail
cd "$(dirname "$0")/.."
games="${1:-100}"
cargo build --release --locked -p sidl-cli
target="${CARGO_TARGET_DIR:-target}"
sidl="$target/release/sidl"
fail=0
# tournament GAME SEAT... ; prints the table; checks the AI's row (the one whose seat is not random)
run() {
  local check="$1"; shift
  local out
  out="$("$sidl" tournament "$@" --games "$games")"
  echo "$out"
  # columns: player seat wins draws losses mean
  local row
  row="$(echo "$out" | awk '$2 != "random" && $2 != "seat" && NF == 6')"
  local wins losses
  wins="$(echo "$row" | awk '{print $3}')"
  losses="$(echo "$row" | awk '{print $5}')"
  case "$check" in
    beats) if [ "$wins" -le "$losses" ]; then echo "FAIL: wins $wins <= losses $losses"; fail=1; fi ;;
    never-loses) if [ "$losses" -ne 0 ]; then echo "FAIL: $losses losses"; fail=1; fi ;;
    none) ;;
  esac
  echo
}
run beats games/tictactoe.sidl --seat xplayer=mcts:200
run beats games/tictactoe.sidl --seat oplayer=mcts:200
run never-loses games/tictactoe.sidl --seat xplayer=minimax:9
run never-loses games/tictactoe.sidl --seat oplayer=minimax:9
run beats games/nim.sidl --seat alice=mcts:200
run beats games/nim.sidl --seat bob=mcts:200
run none games/kuhn.sidl --seat p1=mcts:200
run none games/kuhn.sidl --seat p2=mcts:200
run beats games/kalah.sidl --seat '[south]=mcts:30'
run beats games/kalah.sidl --seat '[north]=mcts:30'
run beats games/go.sidl --seat '[black]=mcts:30'
run beats games/go.sidl --seat '[white]=mcts:30'
exit "$fail"
