#!/usr/bin/env bash
# Runs a command with a PostgreSQL server of its own: a temporary data directory (initdb), listening
# only on a Unix socket in that directory (no TCP port), stopped and removed when the command ends,
# failed or not. The command gets its URL in SIDL_TEST_DATABASE (a database `postgres` that the
# tests create their own databases from). Needs Debian's `postgresql` (scripts/setup.sh installs it).
#   bash scripts/with-postgres.sh cargo test -p sidl-server --test it
set -euo pipefail

bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
  echo "with-postgres.sh: no PostgreSQL server under /usr/lib/postgresql (apt-get install postgresql)" >&2
  exit 1
fi
dir=$(mktemp -d /tmp/sidl-pg.XXXXXX)
# PostgreSQL refuses to run as root: as root, the server runs as the `postgres` user of the package
run=()
if [ "$(id -u)" -eq 0 ]; then
  chown postgres: "$dir"
  run=(runuser -u postgres --)
fi
stop() {
  "${run[@]}" "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap stop EXIT
"${run[@]}" "$bin/initdb" -D "$dir/data" -U postgres --auth=trust --no-sync -E UTF8 >"$dir/initdb.log" 2>&1 ||
  { cat "$dir/initdb.log" >&2; exit 1; }
"${run[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 start \
  -o "-c listen_addresses='' -k $dir -c max_connections=200 -c fsync=off" >/dev/null ||
  { cat "$dir/server.log" >&2; exit 1; }
export SIDL_TEST_DATABASE="postgres:///postgres?host=$dir&user=postgres"
echo "with-postgres.sh: PostgreSQL $("$bin/postgres" --version | awk '{print $3}') on $dir" >&2
"$@"
