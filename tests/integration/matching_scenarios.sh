#!/usr/bin/env bash
# Slow-sync matching, DevInf-aware merge and conflict policies end to end (issue 7 "Done means" scenarios 1-5)
# and the two-format convergence test of issue 6, with real SyncEvolution phones (../shared/interop/client.sh)
# against our server on the test database. Asserts on the phones' data directories and on the items the server
# stored (psql on the test database), prints one PASS/FAIL line per scenario, exits 1 if any failed.
#
# Environment: SYNCML_BUILD_DIR, SYNCML_TEST_DATABASE_URL, SYNCML_SOURCE_DIR (required); SYNCML_TEST_WORK_DIR,
# SYNCML_INTEROP_DIR (optional). SYNCML_MATCHING_SCENARIOS: space-separated scenario names to run (default all:
# see `scenarios` below). SYNCML_MATCHING_KNOWN_FAILURES: scenarios whose failure is reported as "KNOWN FAILURE"
# and does not fail the script (default: the list in `default_known_failures`); SYNCML_MATCHING_STRICT=1 makes
# known failures count again.
set -uo pipefail
source_dir=${SYNCML_SOURCE_DIR:?SYNCML_SOURCE_DIR not set}
server=${SYNCML_BUILD_DIR:?SYNCML_BUILD_DIR not set}/src/syncml-server
database_url=${SYNCML_TEST_DATABASE_URL:?SYNCML_TEST_DATABASE_URL not set}
export SYNCML_INTEROP_DIR=${SYNCML_INTEROP_DIR:-$source_dir/../shared/interop}
interop=$SYNCML_INTEROP_DIR
helper=$source_dir/tests/integration/scenario_items.py
work=${SYNCML_TEST_WORK_DIR:-$(mktemp -d /tmp/matching-scenarios.XXXXXX)}/matching
rm -rf "$work"
mkdir -p "$work/logs"
[ -x "$server" ] || { echo "FAIL: no server binary at $server"; exit 1; }

scenarios="1-contacts-repeated-slow"
default_known_failures=""
selected=${SYNCML_MATCHING_SCENARIOS:-$scenarios}
known=${SYNCML_MATCHING_KNOWN_FAILURES-$default_known_failures}
[ "${SYNCML_MATCHING_STRICT:-0}" = 1 ] && known=""

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
sync_port=${SYNCML_MATCHING_PORT:-$(free_port)}
metrics_port=$(free_port)
while [ "$metrics_port" = "$sync_port" ]; do metrics_port=$(free_port); done
base_url=http://127.0.0.1:$sync_port/sync

export SYNCML_DATABASE_URL=$database_url SYNCML_DATA_DIR=$work/data SYNCML_LOG_LEVEL=info
export SYNCML_LISTEN=127.0.0.1:$sync_port SYNCML_METRICS_LISTEN=127.0.0.1:$metrics_port

server_pid=""
stop_server() {
    [ -n "$server_pid" ] || return 0
    kill -TERM "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
    server_pid=""
}
trap stop_server EXIT

"$server" migrate >"$work/logs/migrate.log" 2>&1 || { echo "FAIL: migrate"; cat "$work/logs/migrate.log"; exit 1; }
"$server" serve >"$work/server.log" 2>&1 &
server_pid=$!
ready=0
for _ in $(seq 1 120); do
    if curl -fsS "http://127.0.0.1:$metrics_port/readyz" >/dev/null 2>&1; then ready=1; break; fi
    kill -0 "$server_pid" 2>/dev/null || break
    sleep 0.5
done
[ $ready = 1 ] || { echo "FAIL: server not ready within 60 s"; tail -40 "$work/server.log"; exit 1; }
echo "server on :$sync_port (metrics :$metrics_port), work directory $work"

# ---------------------------------------------------------------------------------------------- helpers

reason=""   # why the running scenario failed; the first failed check sets it
fail() {
    [ -n "$reason" ] || reason=$*
    echo "  check failed: $*"
    return 1
}
note() { echo "  $*"; }

admin() { "$server" admin "$@" >>"$work/logs/admin.log" 2>&1 || fail "admin $* failed (see $work/logs/admin.log)"; }

# account TENANT USER: a tenant (created once) with one user, password pw.
account() {
    "$server" admin tenant list 2>/dev/null | cut -f1 | grep -qx "$1" || admin tenant add "$1" || return 1
    admin user add --tenant "$1" --user "$2" --password pw
}

# phone NAME TENANT USER KIND FORMAT [client.sh setup options]: a phone (device id = NAME) with one store.
phone() {
    local name=$1 tenant=$2 user=$3 kind=$4 format=$5
    shift 5
    bash "$interop/client.sh" setup --home "$work/phones/$name" --url "$base_url/$tenant" --user "$user" \
        --password pw --device-id "ms-$name" --kind "$kind" --format "$format" --timeout 120 "$@" \
        >>"$work/logs/$name.setup.log" 2>&1 || fail "setup of phone $name (see $work/logs/$name.setup.log)"
}
data() { echo "$work/phones/$1/data/$2"; }
count_files() { find "$1" -maxdepth 1 -type f ! -name '.*' | wc -l; }

# sync NAME MODE [STORE]: one SyncEvolution session; sets the report counters of STORE (default: the only one)
# in local_new local_mod local_del remote_new remote_mod remote_del conflicts and the mode it ran in.
sync_count=0
phone_sync() {
    local name=$1 mode=$2 store=${3:-}
    sync_count=$((sync_count + 1))
    local log=$work/logs/$name.sync$sync_count.log
    local t0=$SECONDS
    bash "$interop/client.sh" sync --home "$work/phones/$name" --mode "$mode" >"$log" 2>&1
    local rc=$?
    read -r local_new local_mod local_del remote_new remote_mod remote_del conflicts ran_mode < <(report "$log" "$store")
    echo "  sync $name $mode: exit $rc, ${ran_mode:-?}, local new/mod/del ${local_new:-?}/${local_mod:-?}/${local_del:-?}," \
        "remote new/mod/del ${remote_new:-?}/${remote_mod:-?}/${remote_del:-?}, conflicts ${conflicts:-?}" \
        "($((SECONDS - t0)) s, $log)"
    [ $rc = 0 ] || { tail -15 "$log" | sed 's/^/    /'; fail "sync of $name ($mode) exited $rc"; return 1; }
    [ -n "$local_new" ] || fail "no sync report in $log"
}

# report LOG [STORE]: "local_new local_mod local_del remote_new remote_mod remote_del conflicts mode" from the
# report table SyncEvolution prints at the end of a sync.
report() {
    awk -F'|' -v store="${2:-}" '
        function trim(s) { gsub(/^[ \t]+|[ \t]+$/, "", s); return s }
        found == 1 { split(trim($2), m, ","); mode = m[1]; found = 2 }
        found == 0 && NF >= 11 && trim($3) ~ /^[0-9]+$/ && (store == "" || trim($2) == store) {
            line = trim($3) " " trim($4) " " trim($5) " " trim($7) " " trim($8) " " trim($9) " " trim($11); found = 1
        }
        END { if (found) print line, mode }' "$1"
}

# server_items TENANT USER STORE DIR: dump the server's live items of that datastore; prints their number.
server_items() {
    python3 "$helper" server-dump "$database_url" "$1" "$2" "$3" "$4" 2>>"$work/logs/psql.log" || echo "error"
}

expect_eq() {  # expect_eq WHAT GOT WANT
    [ "$2" = "$3" ] || fail "$1 is $2, want $3"
}

# ---------------------------------------------------------------------------------------------- scenarios

# 1: phone A slow-syncs N items, then slow-syncs 5 more times: the server count stays N and no item comes back
# to the phone as new (LOCAL NEW 0), for contacts (500) and, in scenario 5, events and tasks.
repeated_slow() {  # repeated_slow TENANT KIND FORMAT COUNT
    local tenant=$1 kind=$2 format=$3 count=$4 ok=0 i n
    account "$tenant" alice || return 1
    python3 "$interop/gen-contacts.py" gen --kind "$kind" --format "$format" --count "$count" --seed 11 \
        --out "$(data "$tenant-a" "$kind")" >/dev/null || return 1
    [ "$kind" = events ] && python3 "$helper" add-exceptions "$(data "$tenant-a" "$kind")" >/dev/null
    phone "$tenant-a" "$tenant" alice "$kind" "$format" || return 1
    for i in 1 2 3 4 5 6; do
        phone_sync "$tenant-a" slow || return 1
        expect_eq "mode of slow sync $i" "$ran_mode" slow || ok=1
        expect_eq "items sent back to the phone as new in slow sync $i (LOCAL NEW)" "$local_new" 0 || ok=1
        n=$(server_items "$tenant" alice "$kind" "$work/server/$tenant")
        expect_eq "server item count after slow sync $i" "$n" "$count" || ok=1
        expect_eq "items on the phone after slow sync $i" "$(count_files "$(data "$tenant-a" "$kind")")" "$count" || ok=1
        [ $ok = 0 ] || return 1
    done
}

scenario_1-contacts-repeated-slow() { repeated_slow s1 contacts vcard30 500; }

# ---------------------------------------------------------------------------------------------- runner

passed=0
failed=0
known_failed=0
results=()
for s in $selected; do
    declare -F "scenario_$s" >/dev/null || { echo "unknown scenario $s"; exit 2; }
done
for s in $selected; do
    echo "== scenario $s"
    reason=""
    t0=$SECONDS
    "scenario_$s"
    status=$?
    [ $status -ne 0 ] && [ -z "$reason" ] && reason="scenario function returned $status"
    took=$((SECONDS - t0))
    if [ $status -eq 0 ] && [ -z "$reason" ]; then
        results+=("PASS $s (${took} s)")
        passed=$((passed + 1))
    elif [[ " $known " == *" $s "* ]]; then
        results+=("KNOWN FAILURE $s (${took} s): $reason")
        known_failed=$((known_failed + 1))
    else
        results+=("FAIL $s (${took} s): $reason")
        failed=$((failed + 1))
    fi
    echo "${results[-1]}"
done
kill -0 "$server_pid" 2>/dev/null || { echo "FAIL: the server died (see $work/server.log)"; failed=$((failed + 1)); }
stop_server
echo
printf '%s\n' "${results[@]}"
echo "$passed passed, $failed failed, $known_failed known failures (total ${SECONDS} s)"
[ $failed -eq 0 ]
