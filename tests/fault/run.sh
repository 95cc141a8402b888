#!/usr/bin/env bash
# Fault-injection suite: real SyncEvolution phones (../shared/interop/client.sh) talk to the server through
# fault_proxy.py, which cuts one sync at message N (request lost, reply lost after the server committed, or
# the server SIGKILLed while it works on the message and restarted). Then the phone syncs again (it resumes
# with Alert 225, or, in the "fresh" variant, the phone is first rolled back to its state before the cut
# sync, so that it starts a new session with the same anchors and changes), both phones make disjoint
# edits (modify, add, delete), and phone 1, phone 2, phone 1 sync two-way. Every device and the server must then hold exactly the model: every name once, every edit,
# no deleted item. A status scenario has the proxy turn the phone's 200 for a Replace / Delete into 500:
# the server must send that command again in the next session.
# Quick mode (default): a representative subset. SYNCML_FAULT_FULL=1: every mode, fault, boundary, variant
# (SYNCML_FAULT_MODES / SYNCML_FAULT_FAULTS, space-separated, narrow it to some modes or faults, without the status
# cases).
# SYNCML_FAULT_CASES="MODE:FAULT:N:VARIANT ..." runs just those cases (e.g. "two-way:drop-reply:2:resume").
# Each case prints PASS or FAIL with what diverged; exit status 1 when any failed.
# Environment: SYNCML_BUILD_DIR, SYNCML_TEST_DATABASE_URL, SYNCML_SOURCE_DIR; optional SYNCML_INTEROP_DIR,
# SYNCML_FAULT_FIRST_PORT (default 18600; case ID uses FIRST+3*ID .. +2, full mode up to +1400),
# SYNCML_FAULT_MSG_SIZE (default 10240, SyncEvolution's smallest), SYNCML_FAULT_JOBS (default 4).
set -uo pipefail
: "${SYNCML_BUILD_DIR:?}" "${SYNCML_TEST_DATABASE_URL:?}" "${SYNCML_SOURCE_DIR:?}"
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
interop=${SYNCML_INTEROP_DIR:-$SYNCML_SOURCE_DIR/../shared/interop}
items="python3 $here/fault_items.py"
# shellcheck source=../integration/lib/wait.bash
source "$here/../integration/lib/wait.bash"
db=$SYNCML_TEST_DATABASE_URL
work=${SYNCML_TEST_WORK_DIR:-$(mktemp -d /tmp/fault-injection.XXXXXX)}/fault
rm -rf "$work" && mkdir -p "$work"
tenant=fault
# Names this run's users (the work directory may be a fixed one under SYNCML_TEST_WORK_DIR).
run_tag=$(mktemp -u XXXXXX)
msg_size=${SYNCML_FAULT_MSG_SIZE:-10240}
first_port=${SYNCML_FAULT_FIRST_PORT:-18600}
jobs=${SYNCML_FAULT_JOBS:-4}

# A copy: the cases restart the server, and a rebuild in the build directory must not change it mid-run.
cp "$SYNCML_BUILD_DIR/src/syncml-server" "$work/syncml-server" || { echo "FAIL: no server binary"; exit 1; }
server=$work/syncml-server
export SYNCML_DATABASE_URL=$db SYNCML_LOG_LEVEL=warn
"$server" migrate > /dev/null || { echo "FAIL: migrate"; exit 1; }
# The server's MaxMsgSize is the phone's, so that the phone's packages are split as well.
"$server" admin tenant add "$tenant" --max-message-bytes "$msg_size" > /dev/null 2>&1

# Every case runs its own server (a killed server disturbs no other case) on ports of its own.
server_pid=""
start_server() {
    SYNCML_DATA_DIR=$c/server-data "$server" serve >> "$c/server.log" 2>&1 &
    server_pid=$!
    echo $server_pid > "$c/server.pid"
    # Waits for the server while it lives (an ASan build on a loaded machine may take long).
    wait_for_url "http://127.0.0.1:$metrics_port/healthz" "$server_pid" && return 0
    fail "the server did not start (ports $port, $metrics_port): $(tail -3 "$c/server.log" | tr '\n' ' ' | cut -c1-300)"
    return 1
}
# A server the proxy killed is reaped and started again.
ensure_server() {
    if ! kill -0 "$server_pid" 2> /dev/null; then
        wait "$server_pid" 2> /dev/null
        echo "--- server killed; restarting" >> "$c/server.log"
        start_server
    fi
}
stop_server() {
    kill "$server_pid" 2> /dev/null && wait "$server_pid" 2> /dev/null
    server_pid=""
}
case_failed=0
fail() {
    echo "  $*"
    case_failed=1
}

# proxied_sync DIR PHONE MODE [proxy options...]: one client run through a fresh proxy; its exit code.
proxied_sync() {
    local dir=$1 phone=$2 mode=$3 rc
    shift 3
    mkdir -p "$dir"
    python3 "$here/fault_proxy.py" --listen "$proxy_port" --target "http://127.0.0.1:$port" --log "$dir/proxy.log" \
        --server-pid-file "$c/server.pid" --dump "$dir/dump" "$@" 2> "$dir/proxy.err" &
    proxy_pid=$!
    # The phone must not start before the proxy listens.
    wait_for_port "$proxy_port" "$proxy_pid" ||
        { echo "the proxy did not start: $(tail -2 "$dir/proxy.err")" > "$dir/client.log"; return 1; }
    bash "$interop/client.sh" sync --home "$phone" --mode "$mode" > "$dir/client.log" 2>&1
    rc=$?
    kill "$proxy_pid" 2> /dev/null && wait "$proxy_pid" 2> /dev/null
    proxy_pid=""
    # A SIGKILLed server may take a moment to die (a large ASan process under load): until it has, it still looks
    # alive, and the next sync would find nothing listening (seen in CI).
    grep -q "kill-server" "$dir/proxy.log" 2> /dev/null && wait "$server_pid" 2> /dev/null
    ensure_server
    return $rc
}

# normal_sync CASE STEP PHONE MODE [proxy options...]: a sync that must succeed.
normal_sync() {
    local c=$1 step=$2 phone=$3 mode=$4
    shift 4
    proxied_sync "$c/$step" "$c/$phone" "$mode" "$@" || fail "$step: $phone $mode sync failed: $(why_failed "$c/$step")"
}

# why_failed DIR: the reasons a failed sync left behind, for the FAIL line: the phone's first error (or its last
# line), the proxy's last complaint, and the server's last error.
why_failed() {
    local dir=$1 client proxy server
    client=$(grep -m1 -i 'error\|failed' "$dir/client.log" 2> /dev/null || tail -1 "$dir/client.log" 2> /dev/null)
    proxy=$(grep -v '^$' "$dir/proxy.err" 2> /dev/null | tail -1)
    server=$(grep -iE 'error|warn' "$c/server.log" 2> /dev/null | tail -1)
    echo "phone: ${client:-(no output)}${proxy:+; proxy: $proxy}${server:+; server: $server}" | cut -c1-600
}

phone() {
    local c=$1 name=$2 user=$3
    bash "$interop/client.sh" setup --home "$c/$name" --url "http://127.0.0.1:$proxy_port/sync/$tenant" \
        --user "$user" --password pw --device-id "fault-$user-$name" --kind contacts --format vcard30 \
        --encoding xml --max-msg-size "$msg_size" --timeout 30 > "$c/$name.setup.log" 2>&1 ||
        fail "setup of phone $name"
}
data() { echo "$1/$2/data/contacts"; }

server_count() {
    psql "$db" -Atq -c "SELECT count(*) FROM items i JOIN datastores d USING (tenant_id, user_id, datastore_id)
        JOIN users u ON u.tenant_id = d.tenant_id AND u.user_id = d.user_id JOIN tenants t ON t.tenant_id = d.tenant_id
        WHERE t.name = '$tenant' AND u.name = '$1' AND d.kind = 'contacts' AND NOT i.deleted"
}
model_size() { python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))))" "$1"; }

converged() {
    local c=$1 user=$2 model=$1/model.json got want
    $items check "$(data "$c" p1)" "$model" --label "phone 1" | sed 's/^/  /' || case_failed=1
    $items check "$(data "$c" p2)" "$model" --label "phone 2" | sed 's/^/  /' || case_failed=1
    got=$(server_count "$user")
    want=$(model_size "$model")
    [ "$got" = "$want" ] || fail "server holds $got live contacts, the model $want"
}

# Phones 1 and 2 of a new user hold the same 8 contacts A-01..A-08.
prepare() {
    local c=$1 user=$2
    "$server" admin user add --tenant "$tenant" --user "$user" --password pw > /dev/null ||
        fail "user $user not added"
    phone "$c" p1 "$user"
    phone "$c" p2 "$user"
    $items gen "$(data "$c" p1)" "$c/model.json" --names "$($items names A 1 8)"
    normal_sync "$c" 0-p1-slow p1 slow
    normal_sync "$c" 0-p2-slow p2 slow
}

# begin_case ID NAME: the case's directory, user and ports; its server started.
begin_case() {
    c=$work/$1-$2
    # Users unique per run: runs sharing a database must not share phones' accounts.
    user=u$1-$run_tag
    port=$((first_port + 3 * $1)) metrics_port=$((first_port + 3 * $1 + 1)) proxy_port=$((first_port + 3 * $1 + 2))
    mkdir -p "$c"
    case_failed=0
    case_start=$(date +%s)
    export SYNCML_LISTEN=127.0.0.1:$port SYNCML_METRICS_LISTEN=127.0.0.1:$metrics_port
    trap 'stop_server; [ -n "$proxy_pid" ] && kill "$proxy_pid" 2> /dev/null' EXIT
    start_server
}

end_case() {
    stop_server
    grep -q "ERROR: AddressSanitizer\|runtime error:" "$c/server.log" 2> /dev/null &&
        fail "the server log has sanitizer errors: $(grep -m1 "ERROR: AddressSanitizer\|runtime error:" "$c/server.log")"
    if [ $case_failed -eq 0 ]; then
        echo "PASS: $1 ($(($(date +%s) - case_start)) s)"
    else
        echo "FAIL: $1 ($(($(date +%s) - case_start)) s, $c)"
    fi
}

# run_case ID MODE FAULT N VARIANT: 0 when the fault fired at message N, 2 when the session had fewer
# messages (nothing reported then).
run_case() {
    local id=$1 mode=$2 fault=$3 at=$4 variant=$5 recover=()
    begin_case "$id" "$mode-$fault-$at-$variant" || { end_case "$mode, $fault at message $at, $variant"; return 0; }
    prepare "$c" "$user"
    # The cut sync carries phone 1's changes, or in a from-server mode phone 2's, synced before.
    case $mode in
        one-way-from-server | refresh-from-server)
            $items edit "$(data "$c" p2)" "$c/model.json" --modify A-01,A-02 --delete A-03 \
                --add "$($items names B 1 6)" --rev 1 || fail "edit"
            normal_sync "$c" 1-p2 p2 two-way
            ;;
        slow)
            # A slow sync is a union: a delete the phone made before it comes back by design.
            $items edit "$(data "$c" p1)" "$c/model.json" --modify A-01,A-02 --add "$($items names B 1 6)" \
                --rev 1 || fail "edit"
            ;;
        *)
            $items edit "$(data "$c" p1)" "$c/model.json" --modify A-01,A-02 --delete A-03 \
                --add "$($items names B 1 6)" --rev 1 || fail "edit"
            ;;
    esac
    # The fresh variant's phone rolls back to its state before the cut sync: no resume state, its changes
    # and anchors as before, so its next sync is a new session with the same anchors.
    [ "$variant" = fresh ] && cp -a "$c/p1" "$c/p1-before-cut"
    proxied_sync "$c/2-cut" "$c/p1" "$mode" --fault "$fault" --at "$at"
    if ! grep -q "^fired" "$c/2-cut/proxy.log"; then
        stop_server
        rm -rf "$c"
        return 2
    fi
    if [ "$variant" = fresh ]; then
        mv "$c/p1" "$c/p1-after-cut" && mv "$c/p1-before-cut" "$c/p1"
    fi
    normal_sync "$c" 3-p1-again p1 two-way
    if [ "$variant" = fresh ] && grep -q "<Data>225</Data>" "$c/3-p1-again/dump/0001-request.xml"; then
        fail "the rolled-back phone resumed"
    fi
    # An unfinished refresh-from-client can only be recovered by a slow sync (the phone that did not resume, or
    # that had nothing to resume because the cut came before any reply), a union: the contact phone 1 deleted
    # before it comes back by design, unless the server had applied the refresh before the cut, when it stays
    # deleted. Either is right; the model follows phone 1 for that contact, and every device must then agree.
    # Nowhere else is a slow sync excused.
    if [ "$mode" = refresh-from-client ] && grep -qE "starting slow sync|^\| +slow," "$c/3-p1-again/client.log"; then
        $items follow "$(data "$c" p1)" "$c/model.json" --names A-03 || fail "the model could not follow phone 1"
    fi
    $items edit "$(data "$c" p1)" "$c/model.json" --modify A-04 --delete A-05 --add "$($items names C 1 2)" \
        --rev 2 || fail "edit"
    $items edit "$(data "$c" p2)" "$c/model.json" --modify A-06 --delete A-07 --add "$($items names D 1 2)" \
        --rev 3 || fail "edit"
    normal_sync "$c" 4-p1 p1 two-way
    normal_sync "$c" 5-p2 p2 two-way
    normal_sync "$c" 6-p1 p1 two-way
    converged "$c" "$user"
    end_case "$mode, $fault at message $at of $(grep -c '^[0-9]' "$c/2-cut/proxy.log"), $variant"
    return 0
}

# status_case ID CMD: phone 2 changes A-01 and deletes A-02; phone 1's next sync refuses them (its status
# 200 turned into 500 in every request). The server must send the command again in phone 1's next sync.
status_case() {
    local id=$1 cmd=$2 sent
    begin_case "$id" "status-$cmd" || { end_case "status: phone 1 refuses a $cmd with 500"; return 0; }
    prepare "$c" "$user"
    $items edit "$(data "$c" p2)" "$c/model.json" --modify A-01 --delete A-02 --rev 1 || fail "edit"
    normal_sync "$c" 1-p2 p2 two-way
    normal_sync "$c" 2-p1-refuses p1 two-way --status "$cmd:200:500"
    grep -q "^refused $cmd" "$c/2-p1-refuses/proxy.log" || fail "the proxy found no $cmd status to refuse"
    normal_sync "$c" 3-p1-again p1 two-way
    sent=$(cat "$c/3-p1-again/dump/"*-response.xml 2> /dev/null | grep -c "<$cmd>")
    [ "$sent" -gt 0 ] || fail "the refused $cmd was not sent again in phone 1's next session"
    normal_sync "$c" 4-p2 p2 two-way
    converged "$c" "$user"
    end_case "status: phone 1 refuses a $cmd with 500"
}

# every_boundary_or_one ID MODE FAULT N VARIANT: one case; a session with fewer than N messages fails.
every_boundary_or_one() {
    run_case "$1" "$2" "$3" "$4" "$5"
    [ $? -eq 2 ] && echo "FAIL: $2, $3 at message $4, $5: the session had fewer than $4 messages"
    return 0
}

# every_boundary ID MODE FAULT VARIANT: cases at message 1, 2, ... until the session had fewer messages.
every_boundary() {
    local id=$1 n=1
    while run_case "$((id + n - 1))" "$2" "$3" "$n" "$4"; do n=$((n + 1)); done
}

# Cases run as parallel jobs (SYNCML_FAULT_JOBS, default 4), each writing NNN.out.
running=0
job() {
    if [ $running -ge "$jobs" ]; then
        wait -n
        running=$((running - 1))
    fi
    local out
    out=$work/$(printf %03d "$1").out
    shift
    "$@" > "$out" 2>&1 &
    running=$((running + 1))
}
# spawn ID FUNCTION ID ARGS...: FUNCTION as a job.
spawn() { job "$@"; }

proxy_pid=""
# The interop client builds a small preload library into its cache on first use; cases starting together in a fresh
# cache (test.sh gives each script its own) raced on that file and a phone's setup failed. One setup first builds it.
bash "$interop/client.sh" setup --home "$work/warm-up" --url "http://127.0.0.1:1/sync/$tenant" --user warm-up \
    --password x --device-id warm-up --kind contacts --format vcard30 > "$work/warm-up.log" 2>&1 ||
    { echo "FAIL: the interop client's setup: $(tail -2 "$work/warm-up.log")"; exit 1; }
trap 'kill $(jobs -p) 2> /dev/null' INT TERM
# The work directory (a server copy and every case's data, some 300 MB) is kept only for a failed run to inspect.
trap 'echo "work directory: $work"' EXIT
modes=${SYNCML_FAULT_MODES:-two-way slow one-way-from-client refresh-from-client one-way-from-server refresh-from-server}
faults=${SYNCML_FAULT_FAULTS:-drop-request drop-reply kill-server}
id=1
# Quick mode: every mode once, each fault twice, both variants, boundaries 2 and 3; the status injector.
quick="two-way:drop-reply:2:resume slow:kill-server:2:fresh one-way-from-client:drop-request:2:resume
    refresh-from-client:drop-reply:3:fresh one-way-from-server:kill-server:3:fresh
    refresh-from-server:drop-request:2:resume status:Replace status:Delete"
if [ "${SYNCML_FAULT_FULL:-0}" = 1 ] && [ -z "${SYNCML_FAULT_CASES:-}" ]; then
    # Ids of a chain: 12 per chain (no session of the suite has that many messages).
    for m in $modes; do
        for f in $faults; do
            for v in resume fresh; do
                spawn $id every_boundary $id "$m" "$f" "$v"
                id=$((id + 12))
            done
        done
    done
    if [ -z "${SYNCML_FAULT_MODES:-}${SYNCML_FAULT_FAULTS:-}" ]; then
        spawn $id status_case $id Replace
        spawn $((id + 1)) status_case $((id + 1)) Delete
    fi
else
    for spec in ${SYNCML_FAULT_CASES:-$quick}; do
        IFS=: read -r m f n v <<< "$spec"
        if [ "$m" = status ]; then
            spawn $id status_case $id "$f"
        else
            spawn $id every_boundary_or_one $id "$m" "$f" "$n" "$v"
        fi
        id=$((id + 1))
    done
fi
wait
cat "$work"/*.out
passed=$(cat "$work"/*.out | grep -c '^PASS')
failed=$(cat "$work"/*.out | grep -c '^FAIL')
echo "fault injection: $passed passed, $failed failed"
if [ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]; then
    trap - EXIT
    rm -rf "$work"
    exit 0
fi
exit 1
