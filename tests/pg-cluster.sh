#!/usr/bin/env bash
# Throw-away PostgreSQL 15 cluster for tests: start DIR PORT | stop DIR | createdb DIR PORT NAME.
# PostgreSQL refuses to run as root, so the cluster belongs to the postgres user (or the caller when not root).
set -euo pipefail
pg_bin=${PG_BIN:-/usr/lib/postgresql/15/bin}
cmd=${1:?usage: pg-cluster.sh start DIR PORT | stop DIR | createdb DIR PORT NAME}
dir=${2:?cluster directory}

as_owner() {
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case "$cmd" in
start)
    port=${3:?port}
    mkdir -p "$dir"
    [ "$(id -u)" = 0 ] && chown postgres: "$dir"
    if [ ! -f "$dir/PG_VERSION" ]; then
        as_owner "$pg_bin/initdb" -D "$dir" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >"$dir.initdb.log" 2>&1 ||
            { cat "$dir.initdb.log" >&2; exit 1; }
    fi
    as_owner "$pg_bin/pg_ctl" -D "$dir" -l "$dir/server.log" -w -t 60 \
        -o "-p $port -k /tmp -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
        start >/dev/null
    echo "postgresql://postgres@127.0.0.1:$port/postgres"
    ;;
stop)
    [ -f "$dir/postmaster.pid" ] && as_owner "$pg_bin/pg_ctl" -D "$dir" -m fast -w stop >/dev/null || true
    ;;
createdb)
    port=${3:?port}
    name=${4:?database name}
    psql -q -h 127.0.0.1 -p "$port" -U postgres -d postgres -c "DROP DATABASE IF EXISTS \"$name\" WITH (FORCE)" \
        -c "CREATE DATABASE \"$name\"" >/dev/null
    echo "postgresql://postgres@127.0.0.1:$port/$name"
    ;;
*)
    echo "unknown command $cmd" >&2
    exit 2
    ;;
esac
