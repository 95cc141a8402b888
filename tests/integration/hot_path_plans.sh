#!/usr/bin/env bash
# Hot-path plans (issue 40, "cost flat in history"): every statement a phone's sessions run, nested PL/pgSQL ones
# included, must find its rows through an index that matches its keys, so that the thousandth session of a device
# costs what its tenth did. On a private PostgreSQL cluster with auto_explain (log_analyze, nested statements,
# jsonlog) and 20 other users' 8000 contacts, one simulated phone (syncml-load) slow-syncs 300 contacts and runs five
# two-way sessions with a few changes each, on a device with 3000 earlier sessions in its history (as a phone syncing
# in a loop leaves within the session lifetime), and
# hot_path_plans.py fails on any plan that read history rows only to filter them away.
# Environment: SYNCML_BUILD_DIR, SYNCML_SOURCE_DIR, SYNCML_TEST_WORK_DIR (optional). Needs no test database: the
# cluster is its own (auto_explain must be preloaded).
set -uo pipefail
source_dir=${SYNCML_SOURCE_DIR:?SYNCML_SOURCE_DIR not set}
build=${SYNCML_BUILD_DIR:?SYNCML_BUILD_DIR not set}
server=$build/src/syncml-server
load=$build/loadtest/syncml-load
work=${SYNCML_TEST_WORK_DIR:-$(mktemp -d /tmp/hot-path-plans.XXXXXX)}/hot-path-plans
source "$source_dir/tests/integration/lib/wait.bash"
[ -x "$server" ] && [ -x "$load" ] || { echo "FAIL: no $server or $load"; exit 1; }
rm -rf "$work"
mkdir -p "$work"
chmod 755 "$work"

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
# Below the kernel's ephemeral ports, like test.sh's own cluster, and not one that is taken.
pg_port=$((25000 + RANDOM % 900))
while (exec 3<>"/dev/tcp/127.0.0.1/$pg_port") 2>/dev/null; do pg_port=$((25000 + RANDOM % 900)); done
pg_dir=$work/pg
server_pid=""
cleanup() {
    [ -n "$server_pid" ] && kill -TERM "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
    bash "$source_dir/tests/pg-cluster.sh" stop "$pg_dir"
}
trap cleanup EXIT

bash "$source_dir/tests/pg-cluster.sh" start "$pg_dir" "$pg_port" >/dev/null || { echo "FAIL: PostgreSQL"; exit 1; }
# auto_explain is loaded but silent (log_min_duration -1) until the history is in place.
cat >>"$pg_dir/postgresql.conf" <<'EOF'
shared_preload_libraries = 'auto_explain'
auto_explain.log_min_duration = -1
auto_explain.log_analyze = on
auto_explain.log_timing = off
auto_explain.log_nested_statements = on
auto_explain.log_format = json
logging_collector = on
log_destination = 'jsonlog'
log_directory = 'plans'
EOF
bash "$source_dir/tests/pg-cluster.sh" stop "$pg_dir"
bash "$source_dir/tests/pg-cluster.sh" start "$pg_dir" "$pg_port" >/dev/null || { echo "FAIL: PostgreSQL restart"; exit 1; }
db_url=$(bash "$source_dir/tests/pg-cluster.sh" createdb "$pg_dir" "$pg_port" plans)
sql() { psql -qAt "$db_url" -v ON_ERROR_STOP=1 "$@"; }

sync_port=$(free_port)
metrics_port=$(free_port)
export SYNCML_DATABASE_URL=$db_url SYNCML_DATA_DIR=$work/data SYNCML_LOG_LEVEL=warn
export SYNCML_LISTEN=127.0.0.1:$sync_port SYNCML_METRICS_LISTEN=127.0.0.1:$metrics_port SYNCML_JANITOR_INTERVAL=0
# 21 phones log in from 127.0.0.1 at once: cheap hashes and no per-address limits (the plans are under test).
export SYNCML_PASSWORD_HASH_ITERATIONS=${SYNCML_PASSWORD_HASH_ITERATIONS:-1000} SYNCML_CLIENT_LOGINS_PER_MINUTE=100000
export SYNCML_CLIENT_LOGIN_BURST=100000 SYNCML_MAX_CONNECTIONS_PER_ADDRESS=1000000
"$server" migrate >"$work/migrate.log" 2>&1 || { echo "FAIL: migrate"; cat "$work/migrate.log"; exit 1; }
people=(--tenants 1 --users 1 --prefix hp --password pw)
"$load" accounts "${people[@]}" --server "$server" --execute >"$work/accounts.log" 2>&1 ||
    { echo "FAIL: accounts"; cat "$work/accounts.log"; exit 1; }

# Other people's data: 20 users with 400 contacts each (items, mappings, match keys), so that a plan reading more
# than one phone's rows shows on tables of realistic size rather than hiding in a few pages.
others=(--tenants 1 --users 20 --prefix hq --password pw)
"$load" accounts "${others[@]}" --server "$server" --execute >>"$work/accounts.log" 2>&1 ||
    { echo "FAIL: accounts"; cat "$work/accounts.log"; exit 1; }

# The device's history: 3000 finished sessions of the last half hour, older than any it runs now.
sql <<'EOF' || { echo "FAIL: history"; exit 1; }
INSERT INTO sessions (tenant_id, user_id, device_uri, syncml_session_id, last_msg_id, created_at, updated_at,
                      expires_at, finished_at)
SELECT u.tenant_id, u.user_id, 'hp-t0-u0-d0', 'h' || g, '3', now() - interval '30 minutes' + g * interval '500 ms',
       now() - interval '30 minutes' + g * interval '500 ms', now() + interval '1 hour',
       now() - interval '30 minutes' + g * interval '500 ms'
FROM users u JOIN tenants t USING (tenant_id), generate_series(1, 3000) g
WHERE t.name = 'hp-t0' AND u.name = 'hp-u0-0';
EOF

"$server" serve >"$work/server.log" 2>&1 &
server_pid=$!
wait_for_url "http://127.0.0.1:$metrics_port/readyz" "$server_pid" ||
    { echo "FAIL: the server did not start"; tail -20 "$work/server.log"; exit 1; }

echo "== 20 other users with 400 contacts each"
if ! "$load" run "${others[@]}" --url "http://127.0.0.1:$sync_port/sync" --items 400 --duration 0.0001 \
    --encoding xml --no-progress >"$work/others.log" 2>&1; then
    echo "FAIL: the other users' slow syncs"; tail -20 "$work/others.log"; exit 1
fi
sql -c "ANALYZE" -c "ALTER SYSTEM SET auto_explain.log_min_duration = 0" -c "SELECT pg_reload_conf()" >/dev/null

echo "== one phone: a slow sync of 300 contacts, then 5 two-way sessions"
if ! "$load" run "${people[@]}" --url "http://127.0.0.1:$sync_port/sync" --items 300 --sessions 5 --encoding xml \
    --no-progress >"$work/load.log" 2>&1; then
    echo "FAIL: the phone's sessions"; tail -20 "$work/load.log"; exit 1
fi
sql -c "ALTER SYSTEM SET auto_explain.log_min_duration = -1" -c "SELECT pg_reload_conf()" >/dev/null

echo "== plans of every statement those sessions ran"
python3 "$source_dir/tests/integration/hot_path_plans.py" --max-removed 100 "$pg_dir"/plans/*.json
