#!/usr/bin/env bash
# Writes `sidl trace` of every game in games/ and games/paper/ (random play, seeds 1 and 2, 60
# chronons) into DIR, one file per game and seed. Speed work compares two such directories
# (`diff -r`) to show that an optimisation changed no answer.
# Usage: bash scripts/trace-all.sh DIR [SIDL_BINARY]
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: trace-all.sh DIR [SIDL_BINARY]}
bin=${2:-${CARGO_TARGET_DIR:-target}/release/sidl}
if [ -z "${2:-}" ]; then cargo build --release -q -p sidl-cli; fi
mkdir -p "$out"
for g in games/*.sidl games/paper/*.sidl; do
  name=$(echo "$g" | tr / _)
  for seed in 1 2; do
    # exit code 1 (runtime error) and 3 (max chronons) are part of the trace contract
    "$bin" trace "$g" --seed "$seed" --max-chronons 60 > "$out/$name.$seed" 2>&1 || echo "exit $?" >> "$out/$name.$seed"
  done
done
echo "traces in $out ($(ls "$out" | wc -l) files)"
