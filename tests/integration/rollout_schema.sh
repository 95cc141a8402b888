#!/usr/bin/env bash
# A running server meets a schema migrated by a newer release, as the old instances do during a rollout:
# migrations declared backward compatible keep it ready (and let it restart, migrate as a no-op and run admin
# commands); a newer migration that is not makes /readyz 503 with the reason on the metrics port, and migrate
# and admin commands refuse. The newer release's rows are written into schema_migrations as its migrate would.
# Needs SYNCML_BUILD_DIR and SYNCML_TEST_DATABASE_URL; psql, curl, python3.
set -euo pipefail
bin=${SYNCML_BUILD_DIR:?}/src/syncml-server
url=${SYNCML_TEST_DATABASE_URL:?}
work=$(mktemp -d)
server_pid=""
cleanup() {
    [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; tail -n 20 "$work/server.log" >&2 || true; exit 1; }
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
sql() { psql "$url" -qAtX -v ON_ERROR_STOP=1 -c "$1"; }
export SYNCML_DATABASE_URL=$url SYNCML_DATA_DIR=$work/data
sport=$(free_port) mport=$(free_port)

start_server() {
    SYNCML_LISTEN=127.0.0.1:$sport SYNCML_METRICS_LISTEN=127.0.0.1:$mport "$bin" serve >>"$work/server.log" 2>&1 &
    server_pid=$!
    for _ in $(seq 100); do curl -fs "http://127.0.0.1:$mport/healthz" >/dev/null && return 0; sleep 0.1; done
    fail "the server did not start"
}
stop_server() { kill -TERM "$server_pid"; wait "$server_pid" || fail "the server did not exit cleanly"; server_pid=""; }
# expect_readyz STATUS TEXT: /readyz on the metrics port answers STATUS with TEXT in the body within 5 s.
expect_readyz() {
    local body=""
    for _ in $(seq 50); do
        body=$(curl -s -o - -w ' %{http_code}' "http://127.0.0.1:$mport/readyz")
        [[ $body == *" $1" && $body == *"$2"* ]] && return 0
        sleep 0.1
    done
    fail "/readyz answered '$body', expected $1 with '$2'"
}

"$bin" migrate >/dev/null || fail "migrate"
latest=$(sql "SELECT max(version) FROM schema_migrations")
start_server
expect_readyz 200 ready

sql "INSERT INTO schema_migrations (version, name, backward_compatible) VALUES ($((latest + 1)), 'next_additive', true)"
expect_readyz 200 ready
"$bin" migrate >"$work/migrate.out" 2>&1 || fail "migrate on a newer compatible schema: $(cat "$work/migrate.out")"
grep -q "newer than this binary" "$work/migrate.out" || fail "migrate said: $(cat "$work/migrate.out")"
"$bin" admin tenant list >/dev/null 2>"$work/admin.err" || fail "admin on a newer compatible schema: $(cat "$work/admin.err")"
stop_server
start_server
expect_readyz 200 ready
echo "ok: a schema newer by a backward-compatible migration keeps the server ready, also after a restart"

sql "INSERT INTO schema_migrations (version, name, backward_compatible) VALUES ($((latest + 2)), 'next_breaking', false)"
expect_readyz 503 "schema version $((latest + 2)) is newer than this binary ($latest) and migration $((latest + 2)) is not backward compatible"
public=$(curl -s "http://127.0.0.1:$sport/readyz")
[ "$public" = "not ready" ] || fail "the public /readyz said '$public'"
if "$bin" migrate >"$work/migrate.out" 2>&1; then fail "migrate accepted an incompatible newer schema"; fi
grep -q "migration $((latest + 2)) is not declared backward compatible" "$work/migrate.out" ||
    fail "migrate said: $(cat "$work/migrate.out")"
if "$bin" admin tenant list >/dev/null 2>"$work/admin.err"; then fail "admin ran on an incompatible newer schema"; fi
grep -q "older than the database" "$work/admin.err" || fail "admin said: $(cat "$work/admin.err")"
stop_server
echo "ok: a newer migration that is not backward compatible makes the server not ready, with the reason"
