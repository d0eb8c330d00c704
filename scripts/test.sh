#!/usr/bin/env bash
# Runs every test of the project on a fresh machine: installs what is missing (Debian swi-prolog-nox
# and chromium, the wasm32 target, wasm-bindgen-cli, the e2e npm packages; code-server, Emacs and
# Neovim for the editor tests, cached outside the repository), then builds and tests.
# Used by CI (.ci/run) and by developers: `bash scripts/test.sh`.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

log() { printf '\n==> %s\n' "$*"; }

# --- set-up (idempotent: skips what is already installed) -------------------------------------------
. "$root/scripts/apt-install.sh"
apt_install swi-prolog-nox chromium
command -v npm >/dev/null 2>&1 || apt_install nodejs npm
if ! rustup target list --installed 2>/dev/null | grep -q wasm32-unknown-unknown; then
  log "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi
rustup component list --installed 2>/dev/null | grep -q clippy || rustup component add clippy
rustup component list --installed 2>/dev/null | grep -q rustfmt || rustup component add rustfmt

# --- checks ------------------------------------------------------------------------------------------
log "rustfmt"
cargo fmt --all -- --check
log "clippy"
cargo clippy --workspace --all-targets --locked -- -D warnings
log "engine builds for wasm32 (pure: no threads, clock or OS randomness)"
cargo check --locked --target wasm32-unknown-unknown -p sidl-engine
log "cargo test"
cargo test --workspace --locked
bash scripts/vscode.sh  # VS Code extension: build, unit and grammar tests, per-platform .vsix with the release sidl-lsp
log "VS Code extension in code-server, driven in headless Chromium (scripts/vscode-e2e.sh)"
bash scripts/vscode-e2e.sh
log "Emacs (sidl-mode.el + Eglot) and Neovim (the docs/lsp.md recipes) against sidl-lsp (scripts/editors-test.sh)"
bash scripts/editors-test.sh
bash scripts/wasm-test.sh
log "playground: sidl-wasm built with wasm-bindgen, played in headless Chromium (scripts/e2e.sh)"
bash scripts/e2e.sh
log "reference game manager (SWI-Prolog) reproduces the shared example trajectories"
if [ -x tests/reference/check_examples.sh ]; then bash tests/reference/check_examples.sh; fi
log "all tests passed"
