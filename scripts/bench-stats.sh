#!/usr/bin/env bash
# `sidl stats` against `sidl bench` on the same random games (docs/performance.md, "Statistics"):
# `sidl stats GAME --games N --seed 0` plays games with seeds 0 .. N-1 and gathers their statistics;
# `sidl bench GAME --chronons C --seed 0`, with C the total number of chronons of those games, plays
# the same games (seeds 0, 1, ... until C chronons; random seats draw as `sidl bench` does) and
# only times them. The script checks that bench played exactly N games, then prints the CPU time
# (user + system) of each, best of RUNS interleaved runs, and their ratio (target: at most 1.5).
# Usage: bash scripts/bench-stats.sh [GAME] [N] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
game=${1:-games/tictactoe.sidl}
n=${2:-10000}
runs=${3:-3}
cargo build --release -q -p sidl-cli
sidl=${CARGO_TARGET_DIR:-target}/release/sidl
export SIDL_QUIET=1
chronons=$("$sidl" stats "$game" --games "$n" --seed 0 --format json |
  python3 -c 'import json,sys; r=json.load(sys.stdin); print(round(r["length"]["mean"]*r["games"]))')
games=$("$sidl" bench "$game" --chronons "$chronons" --seed 0 | sed -E 's/.*games=([0-9]+).*/\1/')
if [ "$games" != "$n" ]; then
  echo "bench played $games games in $chronons chronons, not the $n games of stats" >&2
  exit 1
fi
cpu() { { TIMEFORMAT='%U %S'; time "$@" >/dev/null; } 2>&1 | tail -1 | awk '{print $1 + $2}'; }
stats_best='' bench_best=''
for _ in $(seq "$runs"); do
  s=$(cpu "$sidl" stats "$game" --games "$n" --seed 0 --format json)
  b=$(cpu "$sidl" bench "$game" --chronons "$chronons" --seed 0)
  stats_best=$(printf '%s\n' "$s" $stats_best | sort -g | head -1)
  bench_best=$(printf '%s\n' "$b" $bench_best | sort -g | head -1)
done
printf '%s: %s games, %s chronons\n' "$game" "$n" "$chronons"
printf 'sidl stats  %6.2f s CPU\nsidl bench  %6.2f s CPU\nratio       %6.2f (target <= 1.5; best of %s runs each)\n' \
  "$stats_best" "$bench_best" "$(awk -v a="$stats_best" -v b="$bench_best" 'BEGIN{print a/b}')" "$runs"
