#!/usr/bin/env bash
# The server on a distributed database (issue 20): a local Citus cluster, a coordinator and two workers
# (tests/citus-cluster.sh, which installs Citus from ../shared/vendor/citus when it is missing), where `migrate`
# distributes the schema (persistence/DISTRIBUTED.md). Then:
#   1. every message routed to one node: a SyncEvolution phone's first slow sync, then a two-way session with changes
#      both ways; over the two-way session Citus's own counters, summed over all nodes, show no multi-shard execution.
#      The server connects to all three nodes (SYNCML_DATABASE_URL lists them), so messages are served through
#      workers too; the janitor's first pass;
#   1b. growing out of one PostgreSQL: `migrate --distributed` on a database with a phone's contacts, workers added,
#      shards rebalanced onto them, the phone and a new tablet converge; without Citus, --distributed refuses;
#   2. suites against the cluster, each on a fresh database of it: SYNCML_TEST_CITUS_SUITES (default: the interop
#      matrix's quick cases, five matching scenarios (SYNCML_TEST_CITUS_MATCHING=all for every one), five fault-injection
#      cases (SYNCML_TEST_CITUS_FAULTS=quick for the suite's quick mode), the admin tests (API; the CLI's show, list,
#      session kill and bulk import; a user's export, delete and import into another user), the hostile input's
#      session hijack, login throttle and edge-limit cases, the DAV clients (vdirsyncer, SyncEvolution's CardDAV/CalDAV backend, a SyncML phone of
#      the same user) and server-alerted sync through its webhook (push_webhook), during both of which the nodes log no
#      multi-shard statement but the server's start, the cap's count and the push sender's scan of pending rows;
#      the short ids of a phone that keeps short GUIDs (migration 0035's table on the shards);
#   3. a shard move while phones sync (loadtest/citus-shard-move.sh, short): no error but retriable 503s.
# Environment: SYNCML_BUILD_DIR, SYNCML_SOURCE_DIR; SYNCML_TEST_WORK_DIR, SYNCML_INTEROP_DIR, SYNCML_TEST_CITUS_PORT,
# SYNCML_TEST_CITUS_SUITES, SYNCML_TEST_CITUS_MATCHING, SYNCML_TEST_CITUS_FAULTS (optional).
set -uo pipefail
: "${SYNCML_BUILD_DIR:?}" "${SYNCML_SOURCE_DIR:?}"
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
server=$SYNCML_BUILD_DIR/src/syncml-server
interop=${SYNCML_INTEROP_DIR:-$SYNCML_SOURCE_DIR/../shared/interop}
cluster_script=$SYNCML_SOURCE_DIR/tests/citus-cluster.sh
work=${SYNCML_TEST_WORK_DIR:-$(mktemp -d /tmp/citus.XXXXXX)}/citus
rm -rf "$work"
mkdir -p "$work"
chmod 755 "$work"
cluster=$work/cluster
port=${SYNCML_TEST_CITUS_PORT:-$((26000 + RANDOM % 900))}  # PORT..PORT+42; below the ephemeral ports of free_port()
suites=${SYNCML_TEST_CITUS_SUITES:-interop-quick matching_scenarios fault_injection admin_api admin_inspect user_transfer
    hostile_input dav_clients short_guids push_webhook}
failures=0
pass() { echo "PASS: $*"; }
fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}

server_pid=
cleanup() {
    [ -n "$server_pid" ] && kill "$server_pid" 2> /dev/null && wait "$server_pid" 2> /dev/null
    bash "$cluster_script" stop "$cluster"
}
trap cleanup EXIT
bash "$cluster_script" start "$cluster" "$port" > /dev/null || {
    echo "FAIL: cannot start the Citus cluster"
    exit 1
}
createdb() { bash "$cluster_script" createdb "$cluster" "$port" "$1"; }

# --- 1. a two-way session runs no multi-shard statement ---------------------------------------------------------
db=$(createdb guard) || {
    echo "FAIL: createdb"
    exit 1
}
export SYNCML_DATABASE_URL=$db SYNCML_DATA_DIR=$work/data SYNCML_LOG_LEVEL=warn
"$server" migrate > "$work/migrate.log" 2>&1 || fail "migrate on the coordinator: $(tail -3 "$work/migrate.log")"
distributed=$(psql "$db" -Atc "SELECT count(*) FROM pg_dist_partition")
reference=$(psql "$db" -Atc "SELECT count(*) FROM pg_dist_partition WHERE partmethod = 'n'")
colocated=$(psql "$db" -Atc "SELECT count(DISTINCT colocationid) FROM pg_dist_partition WHERE partmethod = 'h'")
if [ "$distributed" -ge 17 ] && [ "$reference" = 7 ] && [ "$colocated" = 1 ]; then
    pass "migrate distributed the schema ($((distributed - reference)) tables by user in one colocation group, $reference reference tables)"
else
    fail "distribution: $distributed tables in pg_dist_partition, $reference reference, $colocated colocation groups"
fi
"$server" migrate > /dev/null 2>&1 && pass "a second migrate changes nothing" || fail "a second migrate failed"
# Later migrations' new tables, columns, new function and replaced functions on a schema distributed already: 0024 and
# later once more, as an upgrade from 0023 applies them (what they added is taken away first).
# (Citus drops a trigger of a distributed table, 0036's, only with citus.enable_unsafe_triggers.)
PGOPTIONS="-c citus.enable_unsafe_triggers=on" psql "$db" -q -c "DROP TABLE session_routes, session_starts, short_guids" \
    -c "DROP FUNCTION syncml_open_device_store" -c "DROP FUNCTION syncml_open_collection_store" \
    -c "DROP TABLE device_collections" \
    -c "ALTER TABLE datastores DROP COLUMN display_name, DROP COLUMN description, DROP COLUMN color, DROP COLUMN sort_order, DROP COLUMN time_zone, DROP COLUMN components, DROP COLUMN deleted_at" \
    -c "DROP FUNCTION syncml_open_session" \
    -c "ALTER TABLE devices DROP COLUMN address_continued_at" -c "ALTER TABLE tenants DROP COLUMN settings_version" \
    -c "ALTER TABLE auth_failures DROP COLUMN last_failure" \
    -c "ALTER TABLE tenants DROP COLUMN max_user_bytes" -c "ALTER TABLE datastores DROP COLUMN stored_bytes" \
    -c "DROP INDEX sessions_by_user_device_age" \
    -c "DROP TRIGGER datastores_push ON datastores" -c "DROP TABLE push_outbox, push_devices, push_budget" \
    -c "DROP FUNCTION syncml_push_enqueue" -c "ALTER TABLE tenants DROP COLUMN push_enabled, DROP COLUMN push_daily_budget" \
    -c "DELETE FROM schema_migrations WHERE version >= 24"
SYNCML_LOG_LEVEL=info "$server" migrate > "$work/migrate-24.log" 2>&1 ||
    fail "migrate of 0024 and later on a distributed schema: $(tail -3 "$work/migrate-24.log")"
last_migration=$(basename "$(ls "$SYNCML_SOURCE_DIR"/migrations/[0-9]*.sql | tail -1)" | cut -d_ -f1)
grep -q "applying migration 0024_" "$work/migrate-24.log" &&
    grep -q "applying migration ${last_migration}_" "$work/migrate-24.log" &&
    pass "0024 and later applied again" ||
    fail "0024 and later were not applied again: $(tail -2 "$work/migrate-24.log")"
routes=$(psql "$db" -Atc "SELECT string_agg(p.partmethod || (p.colocationid = u.colocationid), ' ' ORDER BY
    p.logicalrelid::text) FROM pg_dist_partition p, pg_dist_partition u WHERE p.logicalrelid IN
    ('session_routes'::regclass, 'session_starts'::regclass, 'short_guids'::regclass, 'push_devices'::regclass,
     'push_outbox'::regclass, 'device_collections'::regclass)
    AND u.logicalrelid = 'users'::regclass")
delegated=$(psql "$db" -Atc "SELECT string_agg(p.proname, ' ' ORDER BY p.proname) FROM pg_dist_object o
    JOIN pg_proc p ON o.classid = 'pg_proc'::regclass AND o.objid = p.oid
    WHERE o.distribution_argument_index IS NOT NULL AND o.force_delegation")
[ "$delegated" = "syncml_open_collection_store syncml_open_device_store syncml_open_session syncml_save_session" ] &&
    pass "the hot-path functions are delegated to the owner's node, a function of a later migration too" ||
    fail "delegated functions after migrating from 23: '$delegated'"
[ "$routes" = "htrue htrue htrue htrue htrue htrue" ] &&
    pass "tables later migrations add are distributed in the users' colocation group" ||
    fail "session_routes, session_starts, short_guids, push_devices, push_outbox, device_collections after migrating from 23 on a" \
        "distributed schema: '${routes}' (want all distributed, colocated)"
# Every multi-shard statement is logged with its text on the node that plans it (found by the check below).
psql "$db" -q -c "ALTER DATABASE ${db##*/} SET citus.multi_task_query_log_level = 'warning'" -c "ALTER DATABASE ${db##*/} SET log_min_error_statement = 'warning'"
"$server" admin tenant add dist > /dev/null
"$server" admin user add --tenant dist --user alice --password pw > /dev/null
"$server" admin user add --tenant dist --user bob --password pw > /dev/null

http_port=$((port + 10))
worker1=${db/:$port\//:$((port + 1))\/}
worker2=${db/:$port\//:$((port + 2))\/}
# No janitor: its statements may span shards (allowed there), and the counters below are the sessions' alone.
SYNCML_DATABASE_URL="$db $worker1 $worker2" SYNCML_WORKER_THREADS=3 SYNCML_JANITOR_INTERVAL=0 SYNCML_LISTEN=127.0.0.1:$http_port \
    SYNCML_METRICS_LISTEN=127.0.0.1:$((http_port + 1)) "$server" serve > "$work/server.log" 2>&1 &
server_pid=$!
for _ in $(seq 1 150); do
    curl -sf "http://127.0.0.1:$((http_port + 1))/readyz" > /dev/null 2>&1 && break
    sleep 0.2
done

phone() {  # phone NAME USER [TENANT]: a SyncEvolution phone of USER (of tenant dist) with 20 contacts
    python3 "$interop/gen-contacts.py" gen --kind contacts --format vcard30 --count 20 --seed "${#1}" \
        --out "$work/$1/data/contacts" > /dev/null
    bash "$interop/client.sh" setup --home "$work/$1" --url "http://127.0.0.1:$http_port/sync/${3:-dist}" --user "$2" \
        --password pw --device-id "citus-$1" --kind contacts --format vcard30 --timeout 60 > "$work/$1.setup.log" 2>&1
}
sync() {  # sync NAME LOG [client.sh sync options]
    local name=$1 log=$2
    shift 2
    bash "$interop/client.sh" sync --home "$work/$name" "$@" > "$work/$log" 2>&1
}
phone alice-phone alice && phone alice-tablet alice && phone bob-phone bob || fail "phone setup"
for p in alice-phone alice-tablet bob-phone; do
    sync "$p" "$p-slow.log" --mode slow || fail "first slow sync of $p (see $work/$p-slow.log)"
done
# Changes both ways: the tablet's reach the server first, the phone's go with its session.
python3 "$interop/gen-contacts.py" mutate --dir "$work/alice-tablet/data/contacts" --kind contacts --format vcard30 \
    --seed tablet --add 3 --update 2 --delete 1 > /dev/null
sync alice-tablet alice-tablet-two-way.log --mode two-way || fail "the tablet's two-way session"
python3 "$interop/gen-contacts.py" mutate --dir "$work/alice-phone/data/contacts" --kind contacts --format vcard30 \
    --seed phone --add 2 --update 1 --delete 1 > /dev/null
counters_db=${db##*/}
# The multi-shard statements the nodes log from here on (their server logs' new lines).
log_marks() { for log in "$cluster"/n*/server.log; do echo "$log $(wc -l < "$log")"; done; }
multi_shard_statements() {
    while read -r log lines; do
        tail -n +$((lines + 1)) "$log" | grep -A2 "multi-task query about to be executed" | grep -o "STATEMENT: .*"
    done <<< "$1"
}
marks=$(log_marks)
bash "$cluster_script" counters "$port" "$counters_db" reset
two_way_ok=1
sync alice-phone alice-two-way.log --mode two-way || {
    two_way_ok=0
    fail "two-way session (see $work/alice-two-way.log)"
}
read -r single multi < <(bash "$cluster_script" counters "$port" "$counters_db")
# The one statement allowed across shards: the count behind the tenant's session cap, which each instance takes at
# most every 2 s per tenant outside the messages' transactions (session/service/tenant_session_gauge.hpp).
statements=$(multi_shard_statements "$marks")
cap_counts=$(grep -c "AS live" <<< "$statements")
others=$(grep -vc "AS live" <<< "$statements")
[ -z "$statements" ] && others=0
if [ $two_way_ok = 1 ] && [ "${single:-0}" -gt 0 ] && [ "${multi:-x}" = "$cap_counts" ] && [ "$others" = 0 ]; then
    pass "a two-way session with changes both ways ran $single single-shard executions and no multi-shard one" \
        "(besides $cap_counts count(s) of the tenant's live sessions for its cap)"
else
    fail "a two-way session ran ${single:-?} single-shard and ${multi:-?} multi-shard executions:"
    echo "$statements" | sort | uniq -c
fi
sync alice-tablet alice-tablet-again.log --mode two-way || fail "the tablet's second two-way session"
if python3 "$interop/compare.py" "$work/alice-phone/data/contacts" "$work/alice-tablet/data/contacts" \
    > "$work/compare.log" 2>&1; then
    pass "alice's phone and tablet converged"
else
    fail "alice's phone and tablet differ (see $work/compare.log)"
fi
# Each user's rows live in the shard of the user's key.
shards=$(psql "$db" -Atc "SELECT count(DISTINCT get_shard_id_for_distribution_column('users', user_id)) FROM users")
[ "$shards" = 2 ] && pass "alice and bob live on two shards" || fail "users on $shards shards"
kill "$server_pid" 2> /dev/null && wait "$server_pid" 2> /dev/null
server_pid=

# The janitor works on the distributed schema (its statements may span shards): bob's sessions expired, one of his
# items a tombstone past the tenant's retention; a server's first janitor pass removes both.
psql "$db" -q -c "UPDATE sessions SET expires_at = now() - interval '1 minute' WHERE user_id =
    (SELECT user_id FROM users WHERE name = 'bob')" -c "UPDATE items SET deleted = true, updated_at = now() -
    interval '1000 days' WHERE user_id = (SELECT user_id FROM users WHERE name = 'bob') AND item_id =
    (SELECT min(item_id) FROM items WHERE user_id = (SELECT user_id FROM users WHERE name = 'bob'))"
SYNCML_DATABASE_URL="$db $worker1 $worker2" SYNCML_LISTEN=127.0.0.1:$http_port \
    SYNCML_METRICS_LISTEN=127.0.0.1:$((http_port + 1)) "$server" serve > "$work/janitor.log" 2>&1 &
server_pid=$!
janitor_done=0
for _ in $(seq 1 100); do
    left=$(psql "$db" -Atc "SELECT (SELECT count(*) FROM sessions WHERE expires_at < now()) +
        (SELECT count(*) FROM items WHERE deleted AND updated_at < now() - interval '999 days')")
    [ "$left" = 0 ] && janitor_done=1 && break
    sleep 0.3
done
if [ $janitor_done = 1 ] && ! grep -q "janitor failed" "$work/janitor.log"; then
    pass "the janitor removed expired sessions and an old tombstone"
else
    fail "janitor: ${left:-?} rows left; $(grep "janitor failed" "$work/janitor.log" | head -1)"
fi
kill "$server_pid" 2> /dev/null && wait "$server_pid" 2> /dev/null
server_pid=

# --- 1b. an operator outgrows one PostgreSQL: migrate --distributed, then workers ---------------------------------
# A database of one PostgreSQL (no citus extension on it yet) with a phone's contacts: `migrate --distributed`
# distributes it in place (its shards on the coordinator), then two workers join and Citus's rebalancer moves shards
# to them. The phone's next two-way session and a second phone's slow sync converge: nothing lost, nothing doubled.
grow_db=postgresql://postgres@127.0.0.1:$port/grow
grow_nodes="$grow_db ${grow_db/:$port\//:$((port + 1))\/} ${grow_db/:$port\//:$((port + 2))\/}"
for node in $grow_nodes; do psql "${node%/*}/postgres" -q -c "CREATE DATABASE grow"; done
for node in ${grow_nodes#* }; do psql "$node" -q -c "CREATE EXTENSION citus"; done
export SYNCML_DATABASE_URL=$grow_db
serve_grow() {
    SYNCML_DATABASE_URL=$1 SYNCML_LISTEN=127.0.0.1:$http_port SYNCML_METRICS_LISTEN=127.0.0.1:$((http_port + 1)) \
        "$server" serve >> "$work/grow-server.log" 2>&1 &
    server_pid=$!
    for _ in $(seq 1 150); do
        curl -sf "http://127.0.0.1:$((http_port + 1))/readyz" > /dev/null 2>&1 && break
        sleep 0.2
    done
}
"$server" migrate > /dev/null && "$server" admin tenant add grow > /dev/null &&
    "$server" admin user add --tenant grow --user carol --password pw > /dev/null || fail "one-PostgreSQL setup"
serve_grow "$grow_db"
phone carol-phone carol grow && sync carol-phone carol-slow.log --mode slow ||
    fail "carol's first slow sync on one PostgreSQL (see $work/carol-slow.log)"
kill "$server_pid" 2> /dev/null && wait "$server_pid" 2> /dev/null
server_pid=
psql "$grow_db" -q -c "ALTER DATABASE grow SET citus.shard_count = 4"  # fewer shards: a quicker rebalance here
if "$server" migrate --distributed > "$work/grow-migrate.log" 2>&1 &&
    grep -q "schema distributed" "$work/grow-migrate.log" &&
    [ "$(psql "$grow_db" -Atc "SELECT count(*) FROM pg_dist_partition WHERE logicalrelid = 'items'::regclass")" = 1 ]; then
    pass "migrate --distributed created the extension and distributed a database of one PostgreSQL in place"
else
    fail "migrate --distributed: $(tail -3 "$work/grow-migrate.log")"
fi
psql "$grow_db" -q -c "SELECT citus_set_coordinator_host('127.0.0.1', $port)" \
    -c "SELECT citus_add_node('127.0.0.1', $((port + 1)))" -c "SELECT citus_add_node('127.0.0.1', $((port + 2)))" \
    -c "SELECT citus_rebalance_start(shard_transfer_mode => 'block_writes')" -c "SELECT citus_rebalance_wait()" \
    > "$work/grow-rebalance.log" 2>&1
nodes=$(psql "$grow_db" -Atc "SELECT count(DISTINCT nodeport) FROM pg_dist_shard_placement")
[ "${nodes:-0}" -ge 2 ] && pass "the rebalancer moved shards onto the workers ($nodes nodes hold shards)" ||
    fail "after the rebalance, shards on ${nodes:-?} node(s) (see $work/grow-rebalance.log)"
serve_grow "$grow_nodes"
python3 "$interop/gen-contacts.py" mutate --dir "$work/carol-phone/data/contacts" --kind contacts --format vcard30 \
    --seed grow --add 2 --update 1 --delete 1 > /dev/null
sync carol-phone carol-two-way.log --mode two-way || fail "carol's two-way session after the growth"
rm -rf "$work/carol-tablet" && phone carol-tablet carol grow && rm -f "$work/carol-tablet/data/contacts"/* &&
    sync carol-tablet carol-tablet-slow.log --mode slow || fail "carol's tablet's slow sync after the growth"
if python3 "$interop/compare.py" "$work/carol-phone/data/contacts" "$work/carol-tablet/data/contacts" \
    > "$work/grow-compare.log" 2>&1 &&
    [ "$(ls "$work/carol-phone/data/contacts" | wc -l)" = 21 ]; then
    pass "after the growth, carol's phone (20 + 2 - 1 contacts) and a new tablet converged"
else
    fail "after the growth, carol's phone and tablet differ (see $work/grow-compare.log)"
fi
# The bytes the quota counts (migration 0033) followed the writes of both topologies: equal to her live items summed.
carol_of() { echo "JOIN users u ON u.tenant_id = $1.tenant_id AND u.user_id = $1.user_id WHERE u.name = 'carol'"; }
stored=$(psql "$grow_db" -Atc "SELECT sum(d.stored_bytes) FROM datastores d $(carol_of d)")
summed=$(psql "$grow_db" -Atc "SELECT sum(octet_length(i.content)) FROM items i $(carol_of i) AND NOT i.deleted")
[ -n "$stored" ] && [ "$stored" = "$summed" ] && pass "carol's stored bytes ($stored) are her live items' after the growth" ||
    fail "carol's stored bytes: counted '$stored', her live items hold '$summed'"
kill "$server_pid" 2> /dev/null && wait "$server_pid" 2> /dev/null
server_pid=
# Without the extension in reach, --distributed refuses before touching the schema (one PostgreSQL of test.sh).
if [ -n "${SYNCML_TEST_DATABASE_URL:-}" ]; then
    schema() {
        psql "$SYNCML_TEST_DATABASE_URL" -Atc "SELECT count(*) FROM pg_class
            WHERE relnamespace = current_schema()::regnamespace"
    }
    before=$(schema)
    if SYNCML_DATABASE_URL=$SYNCML_TEST_DATABASE_URL "$server" migrate --distributed > "$work/no-citus.log" 2>&1; then
        fail "migrate --distributed succeeded on a PostgreSQL without Citus"
    elif grep -q "cannot have the citus extension" "$work/no-citus.log" && [ "$(schema)" = "$before" ]; then
        pass "migrate --distributed on a PostgreSQL without Citus says so and migrates nothing"
    else
        fail "migrate --distributed without Citus: $(tail -2 "$work/no-citus.log")"
    fi
fi

unset SYNCML_DATABASE_URL SYNCML_DATA_DIR SYNCML_LOG_LEVEL  # each suite sets its own

# --- 2. suites against the cluster ------------------------------------------------------------------------------
for suite in $suites; do
    name=${suite//-/_}
    url=$(createdb "s_$name") || {
        fail "createdb for $suite"
        continue
    }
    log=$work/$suite.log
    mkdir -p "$work/$suite"
    if [ "$suite" = interop-quick ]; then
        (
            export SYNCML_DATABASE_URL=$url SYNCML_DATA_DIR=$work/$suite/data SYNCML_LOG_LEVEL=warn
            export SYNCML_LISTEN=127.0.0.1:$((port + 20)) SYNCML_METRICS_LISTEN=127.0.0.1:$((port + 21))
            "$server" migrate > /dev/null && "$server" admin tenant add matrix > /dev/null || exit 1
            "$server" serve > "$work/$suite/server.log" 2>&1 &
            pid=$!
            trap 'kill $pid 2> /dev/null; wait $pid 2> /dev/null' EXIT
            for _ in $(seq 1 150); do
                curl -sf "http://127.0.0.1:$((port + 21))/readyz" > /dev/null 2>&1 && break
                sleep 0.2
            done
            "$interop/run-matrix.sh" --quick --url "http://127.0.0.1:$((port + 20))/sync/matrix" --user-prefix m \
                --password pw --work "$work/$suite/matrix" \
                --prepare "\"$server\" admin user add --tenant matrix --user \"\$USER_NAME\" --password \"\$PASSWORD\" > /dev/null"
        ) > "$log" 2>&1
    else
        # What the distributed schema changes is where statements run, not what they decide: of the suites that the
        # single-database run covers in full, a subset that runs every kind of statement once keeps CI within its
        # budget. The matching scenarios: slow syncs (first and repeated), a second phone, a conflict merged, phones
        # converging (SYNCML_TEST_CITUS_MATCHING=all: every one). The fault suite: each fault and variant once and
        # the status injector (SYNCML_TEST_CITUS_FAULTS=quick: its whole quick mode).
        matching=${SYNCML_TEST_CITUS_MATCHING:-2-contacts-second-phone 1-contacts-repeated-slow 5-events-second-phone
            4-conflict-merge 6-convergence-contacts}
        [ "$matching" = all ] && matching=
        [ "$suite" = matching_scenarios ] && export SYNCML_MATCHING_SCENARIOS=$matching
        faults=${SYNCML_TEST_CITUS_FAULTS:-two-way:drop-reply:2:resume slow:kill-server:2:fresh
            one-way-from-client:drop-request:2:resume one-way-from-server:kill-server:3:fresh status:Replace}
        [ "$faults" = quick ] && faults=
        [ "$suite" = fault_injection ] && [ -n "$faults" ] && export SYNCML_FAULT_CASES=$faults
        # Of the hostile input, the cases whose answers depend on the schema: session hijacks (how sessions are found
        # without a token differs here), the login throttle (its counters live on the user's and the device's shards)
        # and the edge's length limits and unknown tenants. Floods and bombs never reach the database.
        [ "$suite" = hostile_input ] && export HOSTILE_CASES="hijack-read hijack-inject hijack-wipe hijack-kill
            address-binding token-binding other-user other-user-elsewhere other-user-same-address other-user-phone-moves
            password-change lockout rotation no-state edge-long-ids edge-unknown-tenant"
        # DAV requests are a hot path too, and so are the push outbox's trigger and claims: the nodes log every
        # multi-shard statement of the suite (janitor and per-tenant gauges off: both read across tenants by design).
        if [ "$suite" = dav_clients ] || [ "$suite" = push_webhook ]; then
            psql "$url" -q -c "ALTER DATABASE s_$name SET citus.multi_task_query_log_level = 'warning'" \
                -c "ALTER DATABASE s_$name SET log_min_error_statement = 'warning'"
            export SYNCML_JANITOR_INTERVAL=0 SYNCML_TENANT_METRICS_INTERVAL=0
            marks=$(log_marks)
        fi
        SYNCML_TEST_DATABASE_URL=$url SYNCML_TEST_WORK_DIR=$work/$suite bash "$here/$suite.sh" > "$log" 2>&1
    fi
    status=$?  # of the suite: nothing may run between it and here
    unset SYNCML_MATCHING_SCENARIOS SYNCML_FAULT_CASES HOSTILE_CASES SYNCML_JANITOR_INTERVAL SYNCML_TENANT_METRICS_INTERVAL
    if [ $status -eq 0 ]; then
        pass "$suite on Citus: $(grep -E "passed|failed|PASS|failure" "$log" | tail -1)"
    else
        tail -30 "$log"
        fail "$suite on Citus (log: $log)"
    fi
    if [ "$suite" = dav_clients ] || [ "$suite" = push_webhook ]; then
        # Allowed: each server's start (the clean-up of legacy MD5 secrets), the session cap's count (its phone) and
        # the push sender's listing and count of the pending rows.
        # The start's statements must be there: else the logging is off and the check below proves nothing.
        logged=$(multi_shard_statements "$marks")
        others=$(grep -v -e "AS live" -e "legacy_md5_secret" -e "FROM push_outbox WHERE pending_since IS NOT NULL" \
            <<< "$logged")
        if ! grep -q "legacy_md5_secret" <<< "$logged"; then
            fail "the nodes logged no multi-shard statement during $suite, not even the servers' starts"
        elif [ -n "$others" ]; then
            fail "multi-shard statements during $suite: $(sort <<< "$others" | uniq -c | cut -c1-300)"
        else
            pass "$suite ran no multi-shard statement but the allowed ($(wc -l <<< "$logged") logged)"
        fi
    fi
done

# --- 3. a shard move while phones sync ---------------------------------------------------------------------------
# loadtest/citus-shard-move.sh on a cluster of its own with this build: 8 phones in closed loop (two-way syncs with
# changes) while the shard group holding most of them moves to the other worker and back. It fails on a failed move,
# a group not back, or any error a phone saw but a 503 with Retry-After (retriable). The load runs on until the moves
# ended (at least 10 s), so a slow or busy machine only makes the run longer.
move_log=$work/shard-move.log
if SYNCML_RELEASE_BUILD=$SYNCML_BUILD_DIR LT_WORK=$work/shard-move bash "$SYNCML_SOURCE_DIR/loadtest/citus-shard-move.sh" \
    --seconds 10 --phones 8 --shards 1 --port $((port + 30)) --citus-port $((port + 40)) > "$move_log" 2>&1 &&
    grep -q "moves that ended after the load: 0" "$move_log"; then
    pass "a shard group moved to the other worker and back while 8 phones synced:" \
        "$(grep -o "measured (two-way syncs): .*" "$move_log"); $(grep -o "retriable (HTTP 503.*" "$move_log")"
else
    tail -30 "$move_log"
    fail "shard move while phones sync (log: $move_log)"
fi

echo "$failures failed"
[ $failures -eq 0 ]
