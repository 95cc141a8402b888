#!/usr/bin/env bash
# The real syncml-server binary against a real PostgreSQL: command line and config errors, concurrent
# migrations, probes and metrics on both listeners, front-end limits, admin CLI round trips, a database
# outage (through a TCP relay that the test cuts and restores), JSON logs and SIGTERM.
# Needs: SYNCML_BUILD_DIR, SYNCML_TEST_DATABASE_URL; curl, python3, psql; promtool when installed.
set -uo pipefail
bin="$SYNCML_BUILD_DIR/src/syncml-server"
db_url=${SYNCML_TEST_DATABASE_URL:?}
work=${SYNCML_TEST_WORK_DIR:-$(mktemp -d)}
mkdir -p "$work"
failures=0
pids=()

cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null; done; }
trap cleanup EXIT
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
pass() { echo "ok: $*"; }
check() {  # check DESCRIPTION COMMAND...
    local what=$1; shift
    if "$@"; then pass "$what"; else fail "$what"; fi
}
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
status_of() { curl -s -o /dev/null -w '%{http_code}' "$@"; }
wait_for() {  # wait_for SECONDS COMMAND...
    local deadline=$((SECONDS + $1)); shift
    until "$@"; do [ $SECONDS -ge $deadline ] && return 1; sleep 0.2; done
}

# --- command line and configuration ---------------------------------------------------------------
check "--help lists the commands and settings" bash -c "'$bin' --help | grep -q 'SYNCML_DATABASE_URL'"
check "admin --help lists the admin commands" bash -c "'$bin' admin --help | grep -q 'admin device reset'"
check "backup --help is backup's alone" bash -c "'$bin' backup --help | grep -q -- '--no-key' &&
    ! '$bin' backup --help | grep -q 'admin'"
check "--version names the revision" bash -c "'$bin' --version | grep -qE '^syncml-server [0-9.]+ \(revision ([0-9a-f]+|unknown)\)$'"
"$bin" amdin tenant list 2>"$work/amdin.err"
check "a mistyped command exits 2 with the nearest one" bash -c "[ $? -eq 2 ] && grep -q 'did you mean admin?' '$work/amdin.err'"
SYNCML_LISTEN=nonsense "$bin" --print-config >/dev/null 2>"$work/config.err"
check "a bad environment value exits 2" test $? -eq 2
check "the error names the variable" grep -q "SYNCML_LISTEN: listen: expected host:port" "$work/config.err"
printf 'io_threads = 0\nunknown_key = 1\n' >"$work/bad.conf"
"$bin" --config "$work/bad.conf" --print-config >/dev/null 2>"$work/bad.err"
check "a bad config file exits 2" test $? -eq 2
check "one error per bad key" test "$(grep -c 'config error' "$work/bad.err")" -eq 2
printed=$(SYNCML_DATABASE_URL='postgresql://u:hunter2@db/x' "$bin" --print-config)
check "--print-config masks the password" bash -c "grep -q 'u:\*\*\*@db' <<<'$printed' && ! grep -q hunter2 <<<'$printed'"
"$bin" frobnicate 2>/dev/null
check "an unknown command exits 2" test $? -eq 2
# Issue 39: a mistyped variable stops every command, with the nearest name; SYNCML_ALLOW_UNKNOWN=1 lets it through.
SYNCML_DATABSE_URL=$db_url SYNCML_DATA_DIR="$work/typo-data" "$bin" migrate >/dev/null 2>"$work/typo.err"
check "an unknown SYNCML_ variable stops migrate (2)" test $? -eq 2
check "naming it and the nearest setting" \
    grep -q "SYNCML_DATABSE_URL: no such setting; did you mean SYNCML_DATABASE_URL?" "$work/typo.err"
check "before any database was started" test ! -e "$work/typo-data"
SYNCML_DATABSE_URL=x SYNCML_ALLOW_UNKNOWN=1 "$bin" --print-config >/dev/null 2>"$work/typo-allowed.err"
check "SYNCML_ALLOW_UNKNOWN=1 makes it a warning" bash -c "[ $? -eq 0 ] && grep -q 'config warning' '$work/typo-allowed.err'"
# ... and SYNCML_REQUIRE_DATABASE_URL keeps the let-through typo from starting an empty embedded database.
SYNCML_DATABSE_URL=$db_url SYNCML_ALLOW_UNKNOWN=1 SYNCML_REQUIRE_DATABASE_URL=true SYNCML_DATA_DIR="$work/typo-data" \
    "$bin" serve >"$work/require.out" 2>&1
check "require_database_url without a URL stops serve (1)" test $? -eq 1
check "saying why" grep -q "no database URL is configured" "$work/require.out"
check "and no embedded database was created" test ! -e "$work/typo-data/pgdata"

# --- migrations: two at once apply each step exactly once -------------------------------------------
export SYNCML_DATABASE_URL=$db_url
SYNCML_DATABASE_URL=$db_url "$bin" admin tenant list >/dev/null 2>"$work/unmigrated.err"
check "admin on an unmigrated database fails (1)" test $? -eq 1
check "and asks for migrate, changing nothing" bash -c "grep -q 'run .syncml-server migrate' '$work/unmigrated.err' &&
    test \"\$(psql '$db_url' -Atc \"SELECT to_regclass('schema_migrations') IS NULL\")\" = t"
"$bin" migrate >"$work/m1.out" 2>&1 & m1=$!
"$bin" migrate >"$work/m2.out" 2>&1 & m2=$!
wait $m1; s1=$?; wait $m2; s2=$?
check "two concurrent migrate runs succeed" test $s1 -eq 0 -a $s2 -eq 0
check "exactly one of them applied the schema" test "$(cat "$work/m1.out" "$work/m2.out" | grep -c 'migrated from version 0')" -eq 1
versions=$(psql "$db_url" -Atc "SELECT count(*) = count(DISTINCT version) FROM schema_migrations")
check "no migration recorded twice" test "$versions" = t
check "a third migrate is a no-op" bash -c "'$bin' migrate 2>/dev/null | grep -q 'up to date'"

# --- admin CLI round trips ------------------------------------------------------------------------
admin() { "$bin" admin "$@" 2>>"$work/admin.err"; }
check "tenant add" admin tenant add acme
check "tenant list shows it" bash -c "'$bin' admin tenant list 2>/dev/null | grep -q '^acme'"
admin tenant add acme >/dev/null; check "duplicate tenant fails" test $? -ne 0
check "user add" admin user add --tenant acme --user bob --password 's3cret pw'
check "user add reads the password from stdin" bash -c "printf 'pw two\\n' | '$bin' admin user add --tenant acme --user carol >/dev/null 2>&1"
printf 'pw three\n' > "$work/password"
check "user add reads --password-file" admin user add --tenant acme --user dave --password-file "$work/password"
check "user list shows it" bash -c "'$bin' admin user list --tenant acme 2>/dev/null | grep -qx bob"
check "user list --json is JSON" bash -c "'$bin' admin user list --tenant acme --json 2>/dev/null |
    python3 -c 'import json,sys; assert \"bob\" in [u[\"name\"] for u in json.load(sys.stdin)]'"
check "tenant list --json is JSON" bash -c "'$bin' admin tenant list --json 2>/dev/null |
    python3 -c 'import json,sys; assert any(t[\"name\"] == \"acme\" for t in json.load(sys.stdin))'"
check "device list of a new user is empty" test -z "$(admin device list --tenant acme --user bob)"
admin device reset --tenant acme --device IMEI:none >/dev/null; check "resetting an unknown device fails" test $? -ne 0
admin user list --tenant nosuch >/dev/null; check "unknown tenant fails" test $? -ne 0
admin user add --tenant acme --user x </dev/null >/dev/null; check "no password on stdin is a usage error (2)" test $? -eq 2
check "tenant add with limits" admin tenant add limited --max-sessions 7 --auth-md5 off
check "tenant list shows the limits" bash -c "'$bin' admin tenant list 2>/dev/null | grep '^limited' | grep 'max-sessions=7' | grep -q 'auth-md5=off'"
check "tenant set changes one setting" admin tenant set limited --max-devices-per-user 2
check "and keeps the others" bash -c "'$bin' admin tenant list 2>/dev/null | grep '^limited' | grep 'max-devices-per-user=2' | grep -q 'max-sessions=7'"
check "tenant set takes a storage quota beyond 2^31 bytes" admin tenant set limited --max-user-bytes 5368709120
check "and lists it" bash -c "'$bin' admin tenant list 2>/dev/null | grep '^limited' | grep -q 'max-user-bytes=5368709120'"
admin tenant set limited --max-sessions 0 >/dev/null; check "a limit of 0 is refused" test $? -ne 0
admin tenant set limited --auth-md5 maybe >/dev/null; check "a malformed switch is refused" test $? -ne 0
admin tenant delete acme >/dev/null; check "tenant delete without --yes is refused (2)" test $? -eq 2
admin tenant delete acme --yes >/dev/null; check "tenant delete of a tenant with users needs --force" test $? -eq 1
check "user disable" admin user disable --tenant acme --user dave
check "user list marks it" bash -c "'$bin' admin user list --tenant acme 2>/dev/null | grep -qxP 'dave\\tdisabled'"
check "user enable" admin user enable --tenant acme --user dave
check "user delete" admin user delete --tenant acme --user dave --yes
check "the user is gone" bash -c "! '$bin' admin user list --tenant acme 2>/dev/null | grep -q '^dave'"
admin device delete --tenant acme --user bob --device IMEI:none --yes >/dev/null
check "deleting an unknown device fails" test $? -eq 1
check "tenant delete --yes --force" admin tenant delete acme --yes --force
check "deleted tenant is gone" bash -c "! '$bin' admin tenant list 2>/dev/null | grep -q '^acme'"

# --- the server behind a TCP relay to PostgreSQL, so the test can cut the database ----------------
read -r pg_host pg_port < <(python3 -c "import urllib.parse,sys; u=urllib.parse.urlparse(sys.argv[1]); print(u.hostname, u.port or 5432)" "$db_url")
relay_port=$(free_port)
cat >"$work/relay.py" <<'EOF'
import asyncio, sys
listen_port, target_host, target_port = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
async def pipe(reader, writer):
    try:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    except Exception:
        pass
    finally:
        writer.close()
async def handle(client_reader, client_writer):
    try:
        server_reader, server_writer = await asyncio.open_connection(target_host, target_port)
    except Exception:
        client_writer.close()
        return
    await asyncio.gather(pipe(client_reader, server_writer), pipe(server_reader, client_writer))
async def main():
    server = await asyncio.start_server(handle, "127.0.0.1", listen_port, reuse_address=True)
    async with server:
        await server.serve_forever()
asyncio.run(main())
EOF
start_relay() { python3 "$work/relay.py" "$relay_port" "$pg_host" "$pg_port" & relay=$!; pids+=($relay); sleep 0.5; }
start_relay
relayed_url=$(python3 -c "import sys; print(sys.argv[1].replace('@$pg_host:$pg_port/', '@127.0.0.1:$relay_port/'))" "$db_url")

http_port=$(free_port)
metrics_port=$(free_port)
base="http://127.0.0.1:$http_port"
mbase="http://127.0.0.1:$metrics_port"
SYNCML_DATABASE_URL=$relayed_url SYNCML_LISTEN=127.0.0.1:$http_port SYNCML_METRICS_LISTEN=127.0.0.1:$metrics_port \
    SYNCML_DATA_DIR="$work/data" SYNCML_BODY_LIMIT=64k SYNCML_LOG_FORMAT=json SYNCML_WORKER_THREADS=2 \
    "$bin" serve >"$work/server.out" 2>"$work/server.log" &
server=$!
pids+=($server)
check "server answers /healthz" wait_for 30 bash -c "[ \"\$(curl -s -o /dev/null -w '%{http_code}' $base/healthz)\" = 200 ]"
check "server is ready" wait_for 15 bash -c "[ \"\$(curl -s -o /dev/null -w '%{http_code}' $base/readyz)\" = 200 ]"
check "metrics listener answers /healthz" test "$(status_of "$mbase/healthz")" = 200
check "metrics listener answers /readyz" test "$(status_of "$mbase/readyz")" = 200
curl -s "$mbase/metrics" >"$work/metrics.txt"
check "/metrics has request counters" grep -q '^syncml_http_requests_total{' "$work/metrics.txt"
check "/metrics has build info with the revision" grep -qE '^syncml_build_info\{revision="([0-9a-f]+|unknown)",version="' \
    "$work/metrics.txt"
if command -v promtool >/dev/null; then
    check "promtool check metrics" bash -c "promtool check metrics <'$work/metrics.txt'"
fi

# --- front-end limits -----------------------------------------------------------------------------
xml='Content-Type: application/vnd.syncml+xml; charset=UTF-8'
check "unknown path is 404" test "$(status_of "$base/nope")" = 404
check "GET /sync is 405" test "$(status_of "$base/sync")" = 405
check "405 carries Allow" bash -c "curl -s -D - -o /dev/null $base/sync | grep -qi '^Allow: POST'"
check "wrong content type is 415" test "$(status_of -X POST -H 'Content-Type: text/plain' --data x "$base/sync")" = 415
head -c 100000 /dev/zero | tr '\0' x >"$work/big.xml"
check "oversized body is 413" test "$(status_of -X POST -H "$xml" --data-binary @"$work/big.xml" "$base/sync/acme")" = 413
sync_status=$(status_of -X POST -H "$xml" --data '<SyncML/>' "$base/sync")
check "a SyncML POST reaches the engine (got $sync_status)" bash -c "[[ '$sync_status' =~ ^(200|400|501)$ ]]"
check "/metrics on the SyncML listener is 404" test "$(status_of "$base/metrics")" = 404

# --- database outage and recovery -----------------------------------------------------------------
kill $relay; wait $relay 2>/dev/null
check "readyz turns 503 when the database goes away" wait_for 10 bash -c "[ \"\$(curl -s -o /dev/null -w '%{http_code}' $base/readyz)\" = 503 ]"
check "healthz stays 200 during the outage" test "$(status_of "$base/healthz")" = 200
outage_status=$(status_of -X POST -H "$xml" --data '<SyncML/>' "$base/sync")
check "sync requests get 503 during the outage (got $outage_status)" test "$outage_status" = 503
start_relay
check "readyz recovers when the database returns" wait_for 15 bash -c "[ \"\$(curl -s -o /dev/null -w '%{http_code}' $base/readyz)\" = 200 ]"
recovered=$(status_of -X POST -H "$xml" --data '<SyncML/>' "$base/sync")
check "sync requests are served again (got $recovered)" test "$recovered" != 503

# --- logs and shutdown ----------------------------------------------------------------------------
kill -TERM $server
deadline=$((SECONDS + 15))
while kill -0 $server 2>/dev/null && [ $SECONDS -lt $deadline ]; do sleep 0.1; done
wait $server
check "SIGTERM exits 0" test $? -eq 0
# LeakSanitizer appends its suppression summary (a test-build artifact) after the last log line.
check "every log line is JSON" python3 -c "
import itertools, json, sys
for line in itertools.takewhile(lambda l: not l.startswith('-----'), open(sys.argv[1])):
    json.loads(line)
" "$work/server.log"
check "request lines carry tenant, remote, client, status and duration as typed fields" python3 -c "
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1]) if l.startswith('{')]
assert any(l.get('msg') == 'request' and l.get('tenant') == 'acme' and l.get('status') == 413
           and 'remote' in l and l.get('client') == '127.0.0.1' and isinstance(l.get('duration_ms'), float)
           for l in lines)
" "$work/server.log"

# --- TLS -------------------------------------------------------------------------------------------
if command -v openssl >/dev/null; then
    openssl req -x509 -newkey rsa:2048 -nodes -keyout "$work/key.pem" -out "$work/cert.pem" -days 1 \
        -subj /CN=localhost 2>/dev/null
    tls_port=$(free_port)
    tls_metrics_port=$(free_port)
    tls_env=(SYNCML_DATABASE_URL=$db_url SYNCML_LISTEN=127.0.0.1:$tls_port SYNCML_METRICS_LISTEN=127.0.0.1:$tls_metrics_port
        SYNCML_DATA_DIR="$work/data" SYNCML_TLS_KEY="$work/key.pem")
    env "${tls_env[@]}" SYNCML_TLS_CERT="$work/cert.pem" "$bin" serve 2>"$work/tls.log" &
    tls_server=$!
    pids+=($tls_server)
    check "https /readyz answers 200" wait_for 30 bash -c "[ \"\$(curl -sk -o /dev/null -w '%{http_code}' https://127.0.0.1:$tls_port/readyz)\" = 200 ]"
    check "https sync POST reaches the engine" bash -c "[ \"\$(curl -sk -o /dev/null -w '%{http_code}' -X POST -H '$xml' --data x https://127.0.0.1:$tls_port/sync)\" != 404 ]"
    check "plain HTTP on the TLS listener gets no answer" bash -c "! curl -s -m 3 http://127.0.0.1:$tls_port/healthz"
    kill -TERM $tls_server
    wait $tls_server
    check "TLS server exits 0 on SIGTERM" test $? -eq 0
    env "${tls_env[@]}" SYNCML_TLS_CERT="$work/missing.pem" "$bin" serve 2>"$work/tls-bad.log"
    check "a missing certificate stops start-up with exit 1" test $? -eq 1
    check "the message names the certificate" grep -q "tls_cert $work/missing.pem: No such file" "$work/tls-bad.log"
fi

echo "$failures failure(s)"
[ $failures -eq 0 ]
