#!/usr/bin/env bash
# Random-play throughput of `sidl bench` against the reference game manager in SWI-Prolog
# (tests/reference/gm.pl --bench), same machine, same run, same number of chronons.
# Usage: bash scripts/bench-games.sh [CHRONONS]
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-5000}
cargo build --release -q -p sidl-cli
printf '%-12s %14s %14s %8s\n' game sidl_chr_per_s swi_chr_per_s ratio
for g in nim mcp rps chess tictactoe kuhn; do
  # CPU time (user) of the whole process, as gm.pl reports CPU time: a busy machine affects both alike
  cpu=$( { TIMEFORMAT=%U; time ${CARGO_TARGET_DIR:-target}/release/sidl bench "games/$g.sidl" --chronons "$n" --seed 1 >/dev/null; } 2>&1 | tail -1)
  ours=$(awk -v n="$n" -v t="$cpu" 'BEGIN{print n/t}')
  swi=$(swipl tests/reference/gm.pl "games/$g.sidl" --bench "$n" --seed 1 | sed -E 's/.*chronons_per_sec=([0-9.]+).*/\1/')
  printf '%-12s %14.0f %14.0f %7.2fx\n' "$g" "$ours" "$swi" "$(awk -v a="$ours" -v b="$swi" 'BEGIN{print a/b}')"
done
echo "ratio = sidl chronons per second / SWI-Prolog reference manager chronons per second"
