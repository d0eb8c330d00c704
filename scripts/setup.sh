#!/usr/bin/env bash
# Installs what the tests need on a fresh machine, skipping what is already there: Debian
# swi-prolog-nox, chromium, postgresql (the server tests start one of their own:
# scripts/with-postgres.sh), node and npm; the toolchain of rust-toolchain.toml with its wasm32 target,
# rustfmt and clippy. The other test steps install their own pinned tools on first use
# (wasm-bindgen-cli, the npm packages from their lockfiles, code-server, Emacs, Neovim, the Python
# virtual environment of scripts/oracles.sh).
# The README's test command runs this, then scripts/test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

log() { printf '\n==> %s\n' "$*"; }

. "$root/scripts/apt-install.sh"
apt_install swi-prolog-nox chromium postgresql
command -v npm >/dev/null 2>&1 || apt_install nodejs npm
# scripts/oracles.sh makes a virtual environment (pinned wheels of pygambit and open-spiel)
python3 -m venv --help >/dev/null 2>&1 || apt_install python3-venv
if ! rustup target list --installed 2>/dev/null | grep -q wasm32-unknown-unknown; then
  log "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi
rustup component list --installed 2>/dev/null | grep -q clippy || rustup component add clippy
rustup component list --installed 2>/dev/null | grep -q rustfmt || rustup component add rustfmt
log "set-up done"
