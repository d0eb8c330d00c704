#!/usr/bin/env bash
# Checks sidl's extensive forms, exports and solvers against Gambit and OpenSpiel
# (docs/analysis.md): scripts/oracles.py over engine/tests/extensive/*.expect.
# The pinned virtual environment is created on first use outside the repository
# (SIDL_ORACLE_VENV, default ~/.cache/sidl/venv); sidl is built in release mode, unless SIDL_BIN
# names a sidl built already (scripts/test.sh: the one `cargo test` built).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
venv=${SIDL_ORACLE_VENV:-$HOME/.cache/sidl/venv-oracles}
# pygambit 17.0.0b2 is the newest release with a wheel for CPython 3.11 on Linux x86_64: 16.7.0
# builds from source (about 10-30 minutes on a 2-core machine), the wheel installs in under a minute.
# oracles.py reads both APIs (16: `equilibria`, `payoff(p)`; 17: `equilibrium`, `payoffs[p]`).
PYGAMBIT_VERSION=17.0.0b2
OPENSPIEL_VERSION=2.0.2
if ! "$venv/bin/python" -c "
import importlib.metadata as m, pygambit, pyspiel
assert m.version('pygambit') == '$PYGAMBIT_VERSION' and m.version('open-spiel') == '$OPENSPIEL_VERSION'
" 2>/dev/null; then
    echo "oracles: creating $venv (pygambit==$PYGAMBIT_VERSION open-spiel==$OPENSPIEL_VERSION)" >&2
    rm -rf "$venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q "pygambit==$PYGAMBIT_VERSION" "open-spiel==$OPENSPIEL_VERSION"
fi
sidl=${SIDL_BIN:-}
if [ -z "$sidl" ]; then
  # built with sidl-lsp, as scripts/vscode.sh builds them (the same features: after it, nothing to build)
  (cd "$root" && cargo build -q --locked --release -p sidl-cli -p sidl-lsp)
  sidl="${CARGO_TARGET_DIR:-$root/target}/release/sidl"
fi
"$venv/bin/python" "$root/scripts/oracles.py" "$sidl" "$root/engine/tests/extensive"
