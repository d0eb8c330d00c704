#!/bin/sh
# The reference manager must reproduce the reference trajectories of ../shared/examples
# (relative to the repository root) byte for byte, and the committed trajectories of
# tests/trajectories too.  Usage: tests/reference/check_examples.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
gm="$here/gm.pl"
examples="$root/tests/shared-examples"  # a copy of ../shared/examples
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
check() { # game script expected [options]
    game=$1; script=$2; expected=$3; shift 3
    swipl "$gm" "$game" "$script" "$@" > "$tmp/out" 2> "$tmp/err"
    rc=$?
    if [ $rc -ne 0 ] && [ $rc -ne 2 ]; then
        echo "FAIL ${script#$root/}: exit status $rc"; cat "$tmp/err"; status=1
    elif cmp -s "$tmp/out" "$expected"; then
        echo "ok   ${script#$root/}"
    else
        echo "FAIL ${script#$root/} differs from $expected:"; diff "$tmp/out" "$expected" | head -20; status=1
    fi
}
if [ -d "$examples" ]; then
    for g in nim mcp; do
        check "$examples/$g.sidl" "$examples/$g.script" "$examples/$g.trace.jsonl"
    done
else
    echo "FAIL: $examples not found (clone the repository beside shared/)"; status=1
fi
# tests/trajectories/**/NAME.script: its first lines name the game ('% game: PATH', relative
# to the repository root) and optionally extra options ('% options: --max-chronons 5');
# the expected output is NAME.trace.jsonl beside it.
for script in $(find "$root/tests/trajectories" -name '*.script' | sort); do
    game=$(sed -n 's/^% game: *//p' "$script" | head -n 1)
    opts=$(sed -n 's/^% options: *//p' "$script" | head -n 1)
    if [ -z "$game" ]; then echo "FAIL $script: no '% game:' line"; status=1; continue; fi
    # shellcheck disable=SC2086
    check "$root/$game" "$script" "${script%.script}.trace.jsonl" $opts
done
exit $status
