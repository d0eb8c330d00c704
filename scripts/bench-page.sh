#!/usr/bin/env bash
# How long Step takes in the playground as a game goes on: the page (playground/, built by
# scripts/playground.sh --build) in headless Chromium plays one game with Step from start to end,
# every seat random, and prints the time of a step (click -> idle, and -> drawn) per range of
# chronons (scripts/bench-wasm/step.mjs). With MODE `run`: Run at `every 0 ms` over the game
# instead, the time until chronons along it and the characters the page's timeline keeps at the
# end. A separate command, like bench-wasm.sh; not part of scripts/test.sh. Wall clock: run it on a
# quiet machine.
# Usage: bash scripts/bench-page.sh [GAME] [SEED] [RUNS] [MODE]
#   (chess.sidl, seed 1: 165 chronons; 1 run; step. Chess seed 5: 200 chronons, the game's cap)
# Installs what is missing: Debian chromium, the playground's build (wasm toolchain, npm packages),
# and playwright-core into scripts/bench-wasm/node_modules (`npm ci` only when the lockfile changed).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
game=${1:-chess.sidl}
seed=${2:-1}
runs=${3:-1}
mode=${4:-step}

log() { printf '==> %s\n' "$*" >&2; }

if ! dpkg -s chromium >/dev/null 2>&1; then
  log "installing Debian's chromium"
  sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium >/dev/null
fi
log "the playground (scripts/playground.sh --build)"
bash scripts/playground.sh --build
if ! cmp -s scripts/bench-wasm/package-lock.json scripts/bench-wasm/node_modules/.sidl-lock 2>/dev/null; then
  log "npm ci in scripts/bench-wasm (playwright-core)"
  (cd scripts/bench-wasm && npm ci --no-audit --no-fund --loglevel=error && cp package-lock.json node_modules/.sidl-lock)
fi
node scripts/bench-wasm/step.mjs "$root" "$game" "$seed" "$runs" "$mode"
