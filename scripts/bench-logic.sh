#!/usr/bin/env bash
# Times the logic engine against SWI-Prolog on the same machine in the same run:
# naive reverse (bench/nrev.pl) and a chess-like rule workload (bench/chesslike.pl).
# Usage: bash scripts/bench-logic.sh [ROUNDS]   (prints CPU seconds and the ratio sidl/SWI; both are
# CPU time, so a busy machine affects both alike)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
cargo build --release -q -p sidl-cli
sidl=${CARGO_TARGET_DIR:-target}/release/sidl
best() { sort -g | head -1; }
swi_time() {  # CPU seconds of bench/0 in SWI-Prolog (best of $rounds)
  for _ in $(seq "$rounds"); do
    swipl -g "statistics(cputime,T0), bench, statistics(cputime,T1), T is T1-T0, format('~6f~n',[T])" -t halt "$1"
  done | best
}
sidl_time() {  # CPU seconds (user) of the whole `sidl query FILE bench` process (best of $rounds)
  for _ in $(seq "$rounds"); do
    ( TIMEFORMAT=%U; time "$sidl" query "$1" bench --max-inferences 10000000000 $2 >/dev/null ) 2>&1 | tail -1
  done | best
}
printf '%-12s %10s %10s %10s %14s %10s %10s %10s\n' workload swi_s sidl_s ratio sidl_memo_s ratio core_s ratio
for w in nrev chesslike; do
  s=$(swi_time "bench/$w.pl")
  o=$(sidl_time "bench/$w.pl" --no-memo)
  m=$(sidl_time "bench/$w.pl" "")
  # the experimental compiled core (`--core compiled`), where the workload is in its subset
  if "$sidl" query "bench/$w.pl" bench --core compiled --listing >/dev/null 2>&1; then
    c=$(sidl_time "bench/$w.pl" "--core compiled")
    cr=$(awk -v a="$c" -v b="$s" 'BEGIN{printf "%.2fx", a/b}')
    c=$(printf '%.3f' "$c")
  else
    c=outside; cr=-
  fi
  printf '%-12s %10.3f %10.3f %9.2fx %14.3f %9.2fx %10s %10s\n' "$w" "$s" "$o" "$(awk -v a="$o" -v b="$s" 'BEGIN{print a/b}')" "$m" "$(awk -v a="$m" -v b="$s" 'BEGIN{print a/b}')" "$c" "$cr"
done
echo "ratio = sidl time / SWI-Prolog time (below 1: sidl is faster); memo = with memoization of argument-only predicates;"
echo "core = the experimental compiled core (sidl query --core compiled; 'outside': the workload leaves its subset)"
