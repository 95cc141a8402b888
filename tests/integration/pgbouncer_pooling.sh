#!/usr/bin/env bash
# The server behind pgbouncer with the pooling settings of deploy/kubernetes/optional/pgbouncer/pgbouncer.ini
# (only the address, authentication and log lines are replaced): simulated phones sync, the server is restarted
# (its new connections get server connections the old process used, with the old process's prepared
# statements unless pgbouncer resets them), and the phones sync again. Every session must succeed and the log
# must have no database error. Then the documented alternative, transaction pooling with
# SYNCML_DATABASE_PREPARED_STATEMENTS=false, the same way.
# Needs SYNCML_BUILD_DIR (syncml-server, syncml-load), SYNCML_TEST_DATABASE_URL, pgbouncer, python3, curl.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${SYNCML_BUILD_DIR:?}
server=$build/src/syncml-server
load=$build/loadtest/syncml-load
url=${SYNCML_TEST_DATABASE_URL:?}
command -v pgbouncer >/dev/null || { echo "FAIL: pgbouncer not installed (Debian package pgbouncer)"; exit 1; }
# Directly below /tmp: pgbouncer runs as postgres when we are root and must reach its files.
work=$(mktemp -d /tmp/syncml-pgbouncer.XXXXXX)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    [ -f "$work/pgbouncer.pid" ] && kill "$(cat "$work/pgbouncer.pid")" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; tail -n 20 "$work"/server.log "$work"/pgbouncer.log >&2 || true; exit 1; }
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
# pgbouncer refuses to run as root.
as_pgbouncer() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
[ "$(id -u)" = 0 ] && chown postgres: "$work"

bport=$(free_port) sport=$(free_port) mport=$(free_port)
dbuser=$(python3 -c 'import sys, urllib.parse; print(urllib.parse.urlparse(sys.argv[1]).username)' "$url")
export SYNCML_PASSWORD_HASH_ITERATIONS=${SYNCML_PASSWORD_HASH_ITERATIONS:-1000}
SYNCML_DATABASE_URL=$url SYNCML_DATA_DIR=$work/data "$server" migrate >"$work/migrate.log" 2>&1 ||
    fail "migrate: $(tail -2 "$work/migrate.log")"
prefix="pgb$$"
SYNCML_DATABASE_URL=$url SYNCML_DATA_DIR=$work/data \
    "$load" accounts --tenants 1 --users 6 --prefix "$prefix" --server "$server" --execute >"$work/accounts.log" 2>&1 ||
    fail "creating the accounts: $(tail -2 "$work/accounts.log")"

# start_pgbouncer POOL_MODE: the shipped [pgbouncer] settings, this test's address, database and trust auth.
start_pgbouncer() {
    python3 - "$root/deploy/kubernetes/optional/pgbouncer/pgbouncer.ini" "$url" "$work" "$bport" "$1" <<'PY'
import configparser, sys, urllib.parse
shipped, url, work, port, pool_mode = sys.argv[1:]
ini = configparser.ConfigParser(interpolation=None)
ini.read(shipped)
target = urllib.parse.urlparse(url)
settings = dict(ini["pgbouncer"])
settings.update(listen_addr="127.0.0.1", listen_port=port, unix_socket_dir="", auth_type="trust",
                auth_file=f"{work}/userlist.txt", logfile=f"{work}/pgbouncer.log", pidfile=f"{work}/pgbouncer.pid")
settings.pop("admin_users", None)
if pool_mode != "shipped":
    settings["pool_mode"] = pool_mode
with open(f"{work}/pgbouncer.ini", "w") as out:
    out.write(f"[databases]\nsyncml = host={target.hostname} port={target.port or 5432} "
              f"dbname={target.path.lstrip('/')} user={target.username}\n[pgbouncer]\n")
    out.writelines(f"{key} = {value}\n" for key, value in settings.items())
with open(f"{work}/userlist.txt", "w") as out:
    out.write(f'"{target.username}" ""\n')
PY
    [ "$(id -u)" = 0 ] && chown postgres: "$work"/pgbouncer.ini "$work"/userlist.txt
    rm -f "$work/pgbouncer.log"
    as_pgbouncer pgbouncer -q -d "$work/pgbouncer.ini" || fail "pgbouncer did not start"
}
stop_pgbouncer() { kill "$(cat "$work/pgbouncer.pid")"; sleep 0.5; }

start_server() {
    SYNCML_DATABASE_URL="postgresql://$dbuser@127.0.0.1:$bport/syncml" \
        SYNCML_LISTEN=127.0.0.1:$sport SYNCML_METRICS_LISTEN=127.0.0.1:$mport SYNCML_WORKER_THREADS=4 \
        SYNCML_DATA_DIR=$work/data "$server" serve >>"$work/server.log" 2>&1 &
    pids+=($!)
    for _ in $(seq 100); do curl -fs "http://127.0.0.1:$mport/readyz" >/dev/null && return 0; sleep 0.1; done
    fail "the server did not become ready behind pgbouncer"
}
stop_server() {
    kill -TERM "${pids[-1]}"
    wait "${pids[-1]}" || fail "the server did not exit cleanly"
    unset 'pids[-1]'
}

# sync LABEL: a few seconds of two-way syncs by every phone; every session must succeed.
sync() {
    "$load" run --url "http://127.0.0.1:$sport/sync" --tenants 1 --users 6 --prefix "$prefix" --concurrency 3 \
        --duration 3 --no-progress --json "$work/$1.json" >"$work/$1.txt" 2>&1 || true
    read -r ok failed < <(python3 -c 'import json, sys
m = json.load(open(sys.argv[1]))["measured"]
print(m["sessions_ok"], m["sessions_failed"])' "$work/$1.json") || fail "$1: no load report ($(tail -2 "$work/$1.txt"))"
    [ "$failed" -eq 0 ] && [ "$ok" -gt 0 ] || fail "$1: $failed of $((ok + failed)) sessions failed"
    echo "ok: $1: $ok sessions"
}

# run_case NAME POOL_MODE PREPARED
run_case() {
    : >"$work/server.log"
    start_pgbouncer "$2"
    export SYNCML_DATABASE_PREPARED_STATEMENTS=$3
    start_server
    sync "$1, first server process"
    stop_server
    start_server
    sync "$1, after a server restart"
    stop_server
    stop_pgbouncer
    ! grep -q 'database error' "$work/server.log" ||
        fail "$1: $(grep -m1 'database error' "$work/server.log" | cut -c1-240)"
}

run_case "shipped pgbouncer.ini, prepared statements" shipped true
run_case "transaction pooling without prepared statements" transaction false
echo "ok: pgbouncer pooling with the shipped settings and with transaction pooling"
