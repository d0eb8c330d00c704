#!/bin/sh
# Loads and runs every example game of docs/ with random play (seed 1, at most 20 chronons), and
# the scripted runs shown in docs/reference.md.  errors.sidl and placement.sidl stop with a runtime
# error on purpose (exit status 2); every other run must exit with 0.
# Usage: docs/examples/check.sh   (from anywhere; set SIDL to a built sidl binary to skip cargo)
set -u
cd "$(dirname "$0")/../.."
sidl() { if [ -n "${SIDL:-}" ]; then "$SIDL" "$@"; else cargo run -q -p sidl-cli -- "$@"; fi; }
status=0
check() { # expected-status command...
    want=$1; shift
    sidl "$@" > /dev/null 2>&1
    got=$?
    if [ "$got" -eq "$want" ]; then echo "ok   $*"; else echo "FAIL $* (exit $got, expected $want)"; status=1; fi
}
for g in docs/examples/*.sidl docs/examples/tutorial/*.sidl games/tutorial.sidl; do
    case $g in
        */errors.sidl|*/placement.sidl) check 2 run "$g" --seed 1 --max-chronons 20 ;;
        *) check 0 run "$g" --seed 1 --max-chronons 20 ;;
    esac
done
check 0 trace docs/examples/effects.sidl --script docs/examples/effects.script
check 0 trace docs/examples/offer.sidl --script docs/examples/offer.script
check 0 trace tests/analysis/kuhn_leaky.sidl --script docs/examples/leak_k.script
check 0 trace tests/analysis/kuhn_leaky.sidl --script docs/examples/leak_j.script
exit $status
