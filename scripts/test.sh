#!/usr/bin/env bash
# Runs every test of the project: formatting, clippy, the wasm32 check, all Rust tests (the workspace,
# including the SWI-Prolog tests of swipl/), the VS Code extension, the editors, the WASM API, the
# playground and the reference checks. Needs what scripts/setup.sh installs; the steps that use pinned
# tools (wasm-bindgen-cli, npm packages, code-server, Emacs, Neovim, pygambit and open-spiel) install
# them on first use.
# The README's test command (`bash scripts/setup.sh && bash scripts/test.sh`) is what CI (.ci/run) runs.
set -euo pipefail
cd "$(dirname "$0")/.."

# each step's start with the time since this script started (which steps a CI run's 30 minutes go to)
log() { printf '\n==> %s [%dm%02ds]\n' "$*" $((SECONDS / 60)) $((SECONDS % 60)); }

# --- checks ------------------------------------------------------------------------------------------
log "rustfmt"
cargo fmt --all -- --check
log "clippy"
cargo clippy --workspace --all-targets --locked -- -D warnings
log "engine builds for wasm32 (pure: no threads, clock or OS randomness)"
cargo check --locked --target wasm32-unknown-unknown -p sidl-engine
log "cargo test (every package, the SWI-Prolog tests of swipl/ included; sidl serve on SQLite and on a PostgreSQL of its own)"
bash scripts/with-postgres.sh cargo test --workspace --locked
log "the compiled core wired into the game manager (the engine's experimental feature compiled-core, off in every shipped build: its lints and its tests)"
cargo clippy -p sidl-engine --all-targets --features compiled-core --locked -- -D warnings
cargo test -p sidl-engine --features compiled-core --locked --test it games_on_the_core  # the other wam tests ran above
# The later steps use the binaries that `cargo test` built (the dev profile, its engine at
# opt-level 1: Cargo.toml) instead of building them again: the VS Code package and the editors take
# this sidl-lsp, the parity, the playground's statistics check and the oracles this sidl, the
# serve e2e this sidl-serve. Run alone, each script builds its own; here that cost a release build
# (about 6 minutes of a CI run) and a dev build of other features (the packages alone resolve
# them otherwise: the engine again, 1.5-2 minutes).
target_dir=$(cargo metadata --format-version 1 --no-deps --locked |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')
export SIDL_BIN="$target_dir/debug/sidl" SIDL_LSP_BIN="$target_dir/debug/sidl-lsp"
export SIDL_SERVE_BIN="$target_dir/debug/sidl-serve"
for bin in "$SIDL_BIN" "$SIDL_LSP_BIN" "$SIDL_SERVE_BIN"; do
  [ -x "$bin" ] || { echo "test.sh: cargo test did not build $bin" >&2; exit 1; }
done
bash scripts/vscode.sh  # VS Code extension: build, unit and grammar tests, per-platform .vsix with that sidl-lsp
log "VS Code extension in code-server, driven in headless Chromium (scripts/vscode-e2e.sh)"
bash scripts/vscode-e2e.sh
log "Emacs (sidl-mode.el + Eglot) and Neovim (the docs/lsp.md recipes) against sidl-lsp (scripts/editors-test.sh)"
bash scripts/editors-test.sh
bash scripts/wasm-test.sh
log "playground: sidl-wasm built with wasm-bindgen, played in headless Chromium (scripts/e2e.sh)"
bash scripts/e2e.sh
log "sidl serve: two participants play kuhn in headless Chromium (scripts/serve-e2e.sh)"
bash scripts/serve-e2e.sh
log "game-theoretic analysis against Gambit and OpenSpiel (scripts/oracles.sh; docs/analysis.md)"
bash scripts/oracles.sh
log "the training run of scripts/build-pgo.sh with this sidl (scripts/pgo-train.sh: every game, AI)"
bash scripts/pgo-train.sh "$SIDL_BIN"
log "reference game manager (SWI-Prolog) reproduces the shared example trajectories"
if [ -x tests/reference/check_examples.sh ]; then bash tests/reference/check_examples.sh; fi
log "all tests passed"
