#!/bin/sh
# The reference manager must reproduce the reference trajectories of ../shared/examples
# (relative to the repository root) byte for byte, and the committed trajectories of
# tests/trajectories too.  Usage: tests/reference/check_examples.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
gm="$here/gm.pl"
examples="$root/../shared/examples"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
check() { # game script expected [options]
    game=$1; script=$2; expected=$3; shift 3
    swipl "$gm" "$game" "$script" "$@" > "$tmp/out" 2> "$tmp/err"
    rc=$?
    if [ $rc -ne 0 ] && [ $rc -ne 2 ]; then
        echo "FAIL $(basename "$script"): exit status $rc"; cat "$tmp/err"; status=1
    elif cmp -s "$tmp/out" "$expected"; then
        echo "ok   $(basename "$script")"
    else
        echo "FAIL $(basename "$script") differs from $expected:"; diff "$tmp/out" "$expected" | head -20; status=1
    fi
}
if [ -d "$examples" ]; then
    for g in nim mcp; do
        check "$examples/$g.sidl" "$examples/$g.script" "$examples/$g.trace.jsonl"
    done
else
    echo "FAIL: $examples not found (clone the repository beside shared/)"; status=1
fi
# tests/trajectories/NAME.script plays games/NAME.sidl, or games/paper/GAME.sidl for
# NAME = paper_GAME; a first line '% options: ...' gives extra command-line options.
for script in "$root"/tests/trajectories/*.script; do
    [ -e "$script" ] || continue
    name=$(basename "$script" .script)
    case "$name" in
        paper_*) game="$root/games/paper/${name#paper_}.sidl" ;;
        *) game="$root/games/$name.sidl" ;;
    esac
    opts=$(sed -n '1s/^% options: *//p' "$script")
    # shellcheck disable=SC2086
    check "$game" "$script" "$root/tests/trajectories/$name.trace.jsonl" $opts
done
exit $status
