#!/usr/bin/env bash
# Checks sidl's extensive forms, exports and solvers against Gambit and OpenSpiel
# (docs/analysis.md): scripts/oracles.py over engine/tests/extensive/*.expect.
# The pinned virtual environment is created on first use outside the repository
# (SIDL_ORACLE_VENV, default ~/.cache/sidl/venv); sidl is built in release mode.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
venv=${SIDL_ORACLE_VENV:-$HOME/.cache/sidl/venv}
PYGAMBIT=pygambit==16.7.0
OPENSPIEL=open-spiel==2.0.2
if ! "$venv/bin/python" -c 'import pygambit, pyspiel' 2>/dev/null; then
    echo "oracles: creating $venv ($PYGAMBIT $OPENSPIEL; pygambit builds from source, minutes)" >&2
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q "$PYGAMBIT" "$OPENSPIEL"
fi
(cd "$root" && cargo build -q --locked --release -p sidl-cli)
"$venv/bin/python" "$root/scripts/oracles.py" "$root/target/release/sidl" "$root/engine/tests/extensive"
