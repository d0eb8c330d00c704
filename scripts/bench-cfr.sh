#!/usr/bin/env bash
# CFR+ iterations per second: sidl on games/leduc.sidl against OpenSpiel's C++ CFRPlusSolver on its
# own leduc_poker, on the same machine in the same run (docs/performance.md). Uses the oracles'
# virtual environment (scripts/oracles.sh creates it). Usage: scripts/bench-cfr.sh [ITERATIONS]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
venv=${SIDL_ORACLE_VENV:-$HOME/.cache/sidl/venv}
n=${1:-1000}
(cd "$root" && cargo build -q --locked --release -p sidl-cli)
sidl="$root/target/release/sidl"
for game in kuhn leduc; do
    json=$(mktemp)
    "$sidl" solve "$root/games/$game.sidl" --method cfr --iterations "$n" --format json | tail -1 > "$json"
    "$venv/bin/python" - "$game" "$n" "$json" <<'PY'
import json, sys, time
import pyspiel
game, n, sol = sys.argv[1], int(sys.argv[2]), json.load(open(sys.argv[3]))
g = pyspiel.load_game(game + "_poker")
solver = pyspiel.CFRPlusSolver(g)
t = time.perf_counter()
for _ in range(n):
    solver.evaluate_and_update_policy()
os_s = time.perf_counter() - t
sidl_s = sol["solve_seconds"]
print(f"{game}: tree built in {sol['build_seconds']:.3f} s ({sol['nodes']} nodes, {sol['infosets']} information sets)")
print(f"{game}: sidl CFR+ {n / sidl_s:,.0f} it/s, OpenSpiel CFRPlusSolver {n / os_s:,.0f} it/s, "
      f"ratio {os_s / sidl_s:.2f} (>1: sidl faster); sidl NashConv {sol['nash_conv']:.2e}")
PY
    rm -f "$json"
done
