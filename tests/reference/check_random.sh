#!/bin/sh
# Random play with the reference manager: every corrected game in games/ and games/econ/ must reach a
# terminal state for several seeds, and replaying the printed random script must give the
# same trace as the random run itself.  Usage: tests/reference/check_random.sh [SEEDS...]
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
gm="$here/gm.pl"
seeds=${*:-1 2 3 4 5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
for game in "$root"/games/*.sidl "$root"/games/econ/*.sidl "$root"/tests/analysis/kuhn_leaky.sidl "$root"/games/paper/nim.sidl "$root"/games/paper/mcp.sidl; do
    name=$(basename "$game" .sidl)
    for seed in $seeds; do
        swipl "$gm" "$game" --random-script 1000 --seed "$seed" > "$tmp/s" || { echo "FAIL $name seed $seed: random script (status $?)"; status=1; continue; }
        swipl "$gm" "$game" "$tmp/s" > "$tmp/a" 2> "$tmp/err" || { echo "FAIL $name seed $seed: replay (status $?)"; status=1; continue; }
        swipl "$gm" "$game" --seed "$seed" > "$tmp/b" || { echo "FAIL $name seed $seed: random trace (status $?)"; status=1; continue; }
        if ! cmp -s "$tmp/a" "$tmp/b"; then echo "FAIL $name seed $seed: replay differs from the random run"; status=1; continue; fi
        if [ -s "$tmp/err" ]; then echo "FAIL $name seed $seed: replay rejected lines:"; cat "$tmp/err"; status=1; continue; fi
        last=$(tail -n 1 "$tmp/a")
        case "$last" in
            *'"terminal":true}') echo "ok   $name seed $seed: terminal after $(($(wc -l < "$tmp/a") - 1)) chronons" ;;
            *) echo "FAIL $name seed $seed: not terminal after $(($(wc -l < "$tmp/a") - 1)) chronons"; status=1 ;;
        esac
    done
done
exit $status
