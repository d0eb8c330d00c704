#!/usr/bin/env bash
# Seed corpora of the fuzz targets (run from anywhere; writes fuzz/corpus/TARGET/):
#   parse, check, play: the shipped games, the paper's listings and the engine/cli test fixture games;
#   play_games: one input per shipped game (its index, then driver bytes).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
games=("$root"/games/*.sidl "$root"/games/paper/*.sidl)
fixtures=()
while IFS= read -r f; do fixtures+=("$f"); done < <(
    find "$root/engine/tests" "$root/cli/tests" -name '*.sidl' | sort)
for t in parse check play; do
    mkdir -p "$here/corpus/$t"
    for f in "${games[@]}" "${fixtures[@]}"; do
        # a unique name per file: its path below the repository, / as _
        rel="${f#"$root"/}"
        cp "$f" "$here/corpus/$t/${rel//\//_}"
    done
done
# play_games: byte 0 chooses the game (the order of GAMES in fuzz_targets/play_games.rs), then the
# driver: flags (bit 0: interrupt mode), seed, operations. An empty driver plays random moves.
mkdir -p "$here/corpus/play_games"
n=$(grep -c 'include_str!' "$here/fuzz_targets/play_games.rs")
if [ "$n" -ne "${#games[@]}" ]; then
    echo "fuzz_targets/play_games.rs embeds $n games, games/ has ${#games[@]}: add the new ones" >&2
    exit 1
fi
for i in $(seq 0 $((n - 1))); do
    printf "\\x$(printf %02x "$i")" > "$here/corpus/play_games/game$i"
    printf "\\x$(printf %02x "$i")\\x0e\\x07\\x00\\x00\\x05\\x06\\x01\\x00\\x00\\x05\\x07\\x00" \
        > "$here/corpus/play_games/game$i-ops"
done
echo "seeded: $(for t in parse check play play_games; do printf '%s=%s ' "$t" "$(ls "$here/corpus/$t" | wc -l)"; done)"
