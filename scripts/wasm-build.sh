#!/usr/bin/env bash
# Builds the sidl-wasm crate for the browser:
#   bash scripts/wasm-build.sh OUT_DIR [--target web|nodejs] [--no-analyse]
# writes the wasm-bindgen output (sidl_wasm.js, sidl_wasm_bg.wasm, sidl_wasm.d.ts) into OUT_DIR and
# prints the .wasm size, raw and gzipped; fails if the gzipped size is over its budget: 670 KB for
# the page's engine (`--no-analyse`: without the on-demand panels' API, the feature `analyse`: the
# Analyse panel and the Statistics panel's runs), 820 KB with it (the playground loads that build
# only when one of those panels is first used; docs/wasm.md).
# Installs what is missing (idempotent): the wasm32-unknown-unknown target, and wasm-bindgen-cli at
# exactly the version wasm/Cargo.toml pins (`wasm-bindgen = "=X.Y.Z"`; CLI and crate must match).
# Honours CARGO_TARGET_DIR.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
target_dir=${CARGO_TARGET_DIR:-$root/target}
out=${1:?usage: scripts/wasm-build.sh OUT_DIR [--target web|nodejs] [--no-analyse]}
shift
bindgen_target=web
features=()
budget_kb=820
while [ $# -gt 0 ]; do
  case "$1" in
    --target) bindgen_target=${2:?--target needs web or nodejs}; shift 2 ;;
    --no-analyse) features=(--no-default-features); budget_kb=670; shift ;;
    *) echo "wasm-build.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
# 450 KB then: the static analyses of `sidl check` (placement, lints, the static §11 check: the playground
# shows exactly its diagnostics) add 46 KB gzipped to the 391 KB of the engine, players and AI
# (measured 2026-11-25: 391,009 bytes without them, 436,879 with them); opt-level z would make
# 394,396 but play 1.4-2.4x slower (random traces, mcts in Node), so the budget grew instead
# 490 KB: `sidl why` in the browser (game/why.rs), run-time placement and the AI objectives made
# 477,471 bytes (measured 2026-11-25 evening); opt-level z 429,160, at the same speed cost (docs/wasm.md)
# 500 KB: the merges of 2026-11-26 (the label lint W0420 that `SidlGame.check` runs, with its
# presenter; the engine's one event text, keyword table and answer text; console_error_panic_hook;
# `bench()`) made 494,560 bytes, not measured one by one; the size-or-speed question stays open
# in the issue "speed where users feel it"
# 540 KB without the feature `analyse`: the Statistics panel (wasm/src/stats.rs: the engine's stats,
# records written and read with serde_json, their SHA-256) made 537,989 bytes from 494,560 (+43,429
# gzipped; measured 2026-11-26: serde_json's record reader about 30 KB raw, the report's text and CSV 13 KB).
# 650 KB with it (the extensive form, CFR+, the exact LP and support enumeration over num-bigint
# rationals: +78 KB gzipped, 573,276 bytes before the Statistics panel; num-bigint and num-rational
# alone are 82 KB of code before compression)
# then +16 KB: layouts (`SidlGame.layout`, engine/src/game/layout.rs, and the layout lint W0421 that
# `SidlGame.check` runs; 510,815 bytes on their branch before the Statistics panel): 560 KB and 680 KB
# then +5.4 KB: `labels(viewer, lang)` (wasm/src/labels.rs; 500,005 bytes on its branch from 494,560)
# then 570 KB for the page's engine, which the merges of 2026-11-26 (session restart, shared event
# objects, raw layouts) brought to 570,172 bytes; the Statistics panel's runs then moved into the
# on-demand build (the worker runs them on a game of its own there): 533,182 bytes, hence 545 KB;
# the on-demand build 649,927 bytes (690 KB)
# 630 KB and 770 KB: the engine crate built at opt-level 2 instead of "s" (issue 17, wasmopt17,
# measured 2026-11-26: the page's engine 544,168 -> 615,266 bytes, +71,098; the on-demand build
# 660,762 -> 757,697, +96,935), for an engine about 20 % faster in the playground's API loop in Chromium
# (docs/wasm.md "The engine at opt-level 2": a one-time 57 ms more download at 10 Mbit/s); the
# branch's switch lookup (wasm/src/chronon_js.rs) then made 616,333 and 759,149
# 640 KB and 780 KB: the merges of the twelfth session (fact17's keyword calls from the clause,
# query17's switches by state: engine/src/game/session/by_state.rs) made 626,101 and 768,603 bytes
# (+9.8 KB and +9.5 KB), too close to 630 / 770 to leave room for a fix
# 655 KB and 795 KB: the merges of the thirteenth session (bt17, host17, memo17c, step17: retries,
# negations, arithmetic, keyword lists, memo keys unrolled per arity, head compounds and clause tries
# inlined) made 639,356 and 781,645 bytes (+13.3 KB and +13.0 KB, measured 2026-11-26) for 4.6-9.2 %
# fewer instructions on every game natively (docs/performance.md, the top section)
# 670 KB and 820 KB: the merges of the fourteenth session made 664,134 and 812,512 bytes (measured
# 2026-11-26 per merge for the page's engine: ret18 and kw18 -0.5 KB, sess18 +22.7 KB (the manager's
# per-chronon paths: constant answers by key, distinct answers as they come, restarts in place,
# carried hidden matrices), lib18 +2.5 KB (native append/3 and member loop)) for 5-11 % fewer
# instructions on every game natively; why sess18's 250 lines weigh 22.7 KB was not found in time
# 658 KB and 803 KB (the builds' sizes plus about 1 %; issue 17, wasm19, 2026-11-27): sess18's weight
# was a Vec<()> (call_succeeds), which made every vector's deallocation in the engine compile worse:
# without it 646,024 and 790,390 bytes; then sidl-wasm at opt-level 2 too (below): 651,115 and 794,357
# 662 KB and 812 KB: the fifteenth session's merges made 655,126 and 803,543 bytes (args19, memo19,
# host19: 2-3 % fewer instructions natively, +4 KB; the exact LP's float run first, in the analyse
# build only, +5.8 KB)
# 670 KB and 820 KB: the sixteenth session's merges made 665,362 and 813,791 bytes (facts20: a fact's
# term built lazily and nested words copied by recursion; arith20: arithmetic goals decoded at load
# time, with mod/rem/div/min/max/abs; about +9 KB together) for kalah -10.3 % and go -2.8 %
# instructions natively (docs/performance.md, the top section); the lead's API changes (switch DTOs
# per state, snapshots written once) weighed +1.2 KB
# (2026-11-27, the twentieth session) the seventeenth to nineteenth sessions' merges left 669,765 and
# 819,066 bytes; one stable sort for the engine's cold sort sites (engine/src/stable_sort.rs: each
# closure passed to `sort_by`/`sort_by_key`/`sort` had been its own ~6.5 KB copy of the standard
# library's sort, 13 in the page's build) made 644,796 and 789,914: the budgets are unchanged
# (2026-11-27, issue 17, wg25) SIMD (below) and the keyed fact candidates and memo probe inlined in
# the wasm again made 639,264 and 783,219 (from 645,531 and 791,532): the budgets are unchanged
max_gzip=$((budget_kb * 1000))

log() { printf '==> %s\n' "$*" >&2; }

wb_version=$(sed -n 's/^wasm-bindgen = "=\([0-9.]*\)".*/\1/p' wasm/Cargo.toml)
[ -n "$wb_version" ] || { echo "wasm/Cargo.toml does not pin wasm-bindgen with =" >&2; exit 1; }

if ! rustup target list --installed 2>/dev/null | grep -q wasm32-unknown-unknown; then
  log "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi
if ! command -v wasm-bindgen >/dev/null 2>&1 ||
   [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" != "$wb_version" ]; then
  log "installing wasm-bindgen-cli $wb_version (a few minutes, once)"
  # --locked first; its lockfile may name versions the registry no longer serves (0.2.130 locks
  # webpki-roots 1.0.11, which crates.io mirrors may lack): then resolve afresh
  cargo install wasm-bindgen-cli --version "$wb_version" --locked ||
    cargo install wasm-bindgen-cli --version "$wb_version"
fi

log "building sidl-wasm (release, wasm32: the engine and sidl-wasm at opt-level 2, the rest size-optimised)"
# the release profile, for this build only, optimised for size: measured (wasm-bindgen 0.2.130, with
# the AI players) 1,222,246 bytes / 395,070 gzipped with the workspace's release settings (thin LTO,
# 4 codegen units, opt-level 3), 1,063,590 / 340,259 with these, and no slower in random play
# (chess, tictactoe, kuhn, mcp traces in Node: within noise); opt-level 3 was measured again on
# 2026-11-26 (issue 17): +19 % gzipped (674,011 bytes for the page), probably 10-50 % faster on a
# loaded machine: "s" kept (docs/wasm.md)
# then (issue 17, wasmopt17, 2026-11-26) the engine crate alone at opt-level 2, every other crate at
# "s": the API loop 1.00-1.45x (median 1.2x) and bench() 1.00-1.67x (median 1.16x) as fast in
# Chromium (7 games, two sets of medians of 9, interleaved with "s": scripts/bench-wasm-opt.sh), for
# +71 KB gzipped on the page's engine (615,266 bytes from 544,168); the engine at 3 was larger
# (639,045) and no faster; docs/wasm.md
# then (issue 17, wasm19, 2026-11-27) sidl-wasm too at opt-level 2 (the adapter: the API's DTOs, the
# wire of chronon_js.rs): +5.1 KB gzipped, the API loop 0.96-1.33x (median 1.06x) and bench()
# 0.94-1.22x (median 1.02x) over three interleaved Chromium sets (scripts/bench-wasm-opt.sh,
# VARIANTS="e2s:s:2 e2w2:s:2:2", connect4 kalah go chess); docs/wasm.md
# then (issue 17, wg25, 2026-11-27) SIMD (`+simd128`, for the wasm target only): LLVM copies the
# engine's small structs (frames, cells, candidates) 16 bytes at a time; fewer instructions in V8 and
# a smaller module (docs/wasm.md "SIMD"); every browser the page runs in has had it since 2021-2023
CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="-C target-feature=+simd128" \
CARGO_PROFILE_RELEASE_OPT_LEVEL=s CARGO_PROFILE_RELEASE_LTO=fat CARGO_PROFILE_RELEASE_CODEGEN_UNITS=1 \
  cargo build --release --locked --target wasm32-unknown-unknown -p sidl-wasm ${features[@]+"${features[@]}"} \
  --config 'profile.release.package.sidl-engine.opt-level=2' \
  --config 'profile.release.package.sidl-wasm.opt-level=2'
rm -rf "$out"
mkdir -p "$out"
wasm-bindgen --target "$bindgen_target" --remove-name-section --out-dir "$out" \
  "$target_dir/wasm32-unknown-unknown/release/sidl_wasm.wasm"

wasm="$out/sidl_wasm_bg.wasm"
size=$(stat -c %s "$wasm")
gz=$(gzip -9 -c "$wasm" | wc -c)
log "$wasm: $size bytes ($((size / 1024)) KiB), gzipped $gz bytes ($((gz / 1024)) KiB; target < $budget_kb KB)"
if [ "$gz" -gt "$max_gzip" ]; then
  echo "error: $wasm is $gz bytes gzipped, over the $budget_kb KB target" >&2
  exit 1
fi
