#!/usr/bin/env bash
# The load test of `sidl serve` (docs/performance.md, "sidl serve under load"): 100 simulated
# participants in 25 concurrent sessions (server/examples/load.sidl, four seats each) submitting
# about once per second each, for SECONDS (default 300), first on SQLite, then on PostgreSQL
# (a server of its own through scripts/with-postgres.sh). Everything on 127.0.0.1; the server is
# the release build. Prints one JSON line of results per backend (server/examples/serve_load.rs
# says what each figure is) and fails if anything was lost or duplicated.
#   bash scripts/serve-load.sh [SECONDS] [sqlite|postgres|both]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-300}
which=${2:-both}
export CARGO_BUILD_JOBS=${CARGO_BUILD_JOBS:-2}

if [ "${SERVE_LOAD_INNER:-}" = "" ]; then
  cargo build --release -q -p sidl-server --bin sidl-serve --example serve_load
fi

run_one() { # LABEL SERVER-ARGS…
  local label=$1; shift
  local dir; dir=$(mktemp -d /tmp/sidl-load.XXXXXX)
  export SIDL_ADMIN_TOKEN="load-$RANDOM$RANDOM"
  target/release/sidl-serve --port 0 --bind 127.0.0.1 "$@" >"$dir/server.out" 2>"$dir/server.err" &
  local pid=$!
  local port=""
  for _ in $(seq 1 100); do
    port=$(grep -o 'listening on http://127.0.0.1:[0-9]*' "$dir/server.out" | grep -o '[0-9]*$' || true)
    [ -n "$port" ] && break
    sleep 0.1
  done
  local rc=0
  if [ -z "$port" ]; then
    cat "$dir/server.err" >&2
    rc=1
  else
    target/release/examples/serve_load --host "127.0.0.1:$port" --seconds "$seconds" \
      --sessions 25 --pid "$pid" --label "$label" || rc=$?
  fi
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  rm -rf "$dir"
  return "$rc"
}

case "$which" in
  sqlite|both)
    d=$(mktemp -d /tmp/sidl-load-db.XXXXXX)
    run_one sqlite --data "$d"
    rm -rf "$d"
    ;;
esac
case "$which" in
  postgres|both)
    if [ -n "${SIDL_TEST_DATABASE:-}" ]; then
      run_one postgres --database "$SIDL_TEST_DATABASE"
    else
      SERVE_LOAD_INNER=1 bash scripts/with-postgres.sh bash scripts/serve-load.sh "$seconds" postgres
    fi
    ;;
esac
