#!/usr/bin/env bash
# Random-play throughput of `sidl bench` against the reference game manager in SWI-Prolog
# (tests/reference/gm.pl --bench), same machine, same run, same number of chronons. Each side is
# run RUNS times and its best rate kept (the VM's load makes single short runs noisy).
# Usage: bash scripts/bench-games.sh [CHRONONS] [RUNS]
# GAMES="kalah go" picks other games of games/ (default: the six of issues 3 and 17, and
# connect4, which issue 17 added to the benchmarks).
# SIDL=PATH times that binary instead of the release build (target/pgo/sidl: scripts/build-pgo.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-20000}
runs=${2:-3}
if [ -z "${SIDL:-}" ]; then
  cargo build --release -q -p sidl-cli
  SIDL=${CARGO_TARGET_DIR:-target}/release/sidl
fi
[ -x "$SIDL" ] || { echo "bench-games.sh: no binary $SIDL" >&2; exit 2; }
echo "sidl: $SIDL"
best() { sort -g | tail -1; }
printf '%-12s %14s %14s %8s\n' game sidl_chr_per_s swi_chr_per_s ratio
for g in ${GAMES:-nim mcp rps chess tictactoe kuhn connect4}; do
  ours=$(for _ in $(seq "$runs"); do
    # CPU time (user) of the whole process, as gm.pl reports CPU time: a busy machine affects both alike
    cpu=$( { TIMEFORMAT=%U; time "$SIDL" bench "games/$g.sidl" --chronons "$n" --seed 1 >/dev/null; } 2>&1 | tail -1)
    awk -v n="$n" -v t="$cpu" 'BEGIN{print (t > 0 ? n/t : 0)}'
  done | best)
  swi=$(for _ in $(seq "$runs"); do
    swipl tests/reference/gm.pl "games/$g.sidl" --bench "$n" --seed 1 | sed -E 's/.*chronons_per_sec=([0-9.]+).*/\1/'
  done | best)
  printf '%-12s %14.0f %14.0f %7.2fx\n' "$g" "$ours" "$swi" "$(awk -v a="$ours" -v b="$swi" 'BEGIN{print a/b}')"
done
echo "ratio = sidl chronons per second / SWI-Prolog reference manager chronons per second (best of $runs runs each)"
