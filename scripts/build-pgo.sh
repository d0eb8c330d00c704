#!/usr/bin/env bash
# The fastest native `sidl`: a release build optimised with a profile of the engine at work
# (profile-guided optimisation, rustc's -Cprofile-generate / -Cprofile-use). Three steps:
#   1. an instrumented release build of sidl-cli (its own target directory);
#   2. the training run: that binary plays every game of games/, games/paper/ and games/econ/
#      (`sidl bench`, `sidl bench --views`), decides with the AI players on a few games, traces
#      and checks games (the work of scripts/pgo-train.sh), writing raw profiles;
#   3. the profiles merged (llvm-profdata from rustup's llvm-tools component) and sidl-cli built
#      again with them.
# The result is ${CARGO_TARGET_DIR:-target}/pgo/sidl: the same sources and the same answers as
# target/release/sidl (a compiler optimisation; `bash scripts/trace-all.sh DIR target/pgo/sidl`
# shows it), 3–28 % faster by game (docs/performance.md). `SIDL=target/pgo/sidl bash
# scripts/bench-games.sh` and `SIDL=... bash scripts/bench-wasm.sh` time it. The build is not part
# of scripts/test.sh (two release builds, about 6 minutes on 2 cores); its training run is.
# Usage: bash scripts/build-pgo.sh
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
target_dir=${CARGO_TARGET_DIR:-$root/target}
out="$target_dir/pgo"

log() { printf '==> %s\n' "$*" >&2; }

host=$(rustc -vV | sed -n 's/^host: //p')
sysroot=$(rustc --print sysroot)
profdata="$sysroot/lib/rustlib/$host/bin/llvm-profdata"
if [ ! -x "$profdata" ]; then
  log "adding rustup's llvm-tools component (llvm-profdata)"
  rustup component add llvm-tools
fi
[ -x "$profdata" ] || { echo "build-pgo.sh: no llvm-profdata at $profdata" >&2; exit 1; }

# --target: RUSTFLAGS then apply to the binary's crates only, not to build scripts and proc macros
rm -rf "$out/raw"
mkdir -p "$out/raw"
log "1/3 instrumented build ($out/gen)"
RUSTFLAGS="-Cprofile-generate=$out/raw" \
  cargo build --release --locked -q -p sidl-cli --target "$host" --target-dir "$out/gen"

log "2/3 training run"
LLVM_PROFILE_FILE="$out/raw/sidl-%p-%m.profraw" \
  bash scripts/pgo-train.sh "$out/gen/$host/release/sidl"

log "3/3 optimised build ($out/use)"
"$profdata" merge -o "$out/sidl.profdata" "$out"/raw/*.profraw
RUSTFLAGS="-Cprofile-use=$out/sidl.profdata" \
  cargo build --release --locked -q -p sidl-cli --target "$host" --target-dir "$out/use"
cp "$out/use/$host/release/sidl" "$out/sidl"
log "built $out/sidl"
