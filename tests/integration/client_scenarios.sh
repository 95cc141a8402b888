#!/usr/bin/env bash
# Project scenarios with real SyncEvolution phones (../shared/interop/client.sh) against our server, each
# recorded by wiretap.py:
#   a. a resent message (same SessionID and MsgID, re-POSTed with curl while the client is stopped) gets the
#      recorded reply byte for byte and applies nothing twice; the session then completes;
#   b. a 1000-contact slow sync with --max-msg-size 10240, XML and WBXML: no reply over the limit, the data
#      arrives complete (a second phone's refresh-from-server holds the same);
#   c. contacts with 200 KB photos travel as large objects both ways, photos byte-identical;
#   d. a client killed (SIGKILL) in the middle of a 1000-contact slow sync restarts (SyncEvolution saves no
#      resume state when killed): nothing lost or duplicated;
#   e. a client suspended (first SIGINT) in the middle of a 500-contact slow sync resumes with Alert 225:
#      the server continues the session, the client sends only the rest, nothing lost or duplicated.
# Each scenario prints PASS or FAIL; exit status 1 when any failed.
# Environment: SYNCML_BUILD_DIR, SYNCML_TEST_DATABASE_URL, SYNCML_SOURCE_DIR; optional SYNCML_INTEROP_DIR,
# SYNCML_SCENARIO_PORTS (first-last, default 18400-18499), SYNCML_SCENARIOS (default "a b c d e").
set -uo pipefail
: "${SYNCML_BUILD_DIR:?}" "${SYNCML_TEST_DATABASE_URL:?}" "${SYNCML_SOURCE_DIR:?}"
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
server=$SYNCML_BUILD_DIR/src/syncml-server
interop=${SYNCML_INTEROP_DIR:-$SYNCML_SOURCE_DIR/../shared/interop}
tools="python3 $here/client_scenarios_tools.py"
db=$SYNCML_TEST_DATABASE_URL
work=${SYNCML_TEST_WORK_DIR:-$(mktemp -d /tmp/client-scenarios.XXXXXX)}/scenarios
mkdir -p "$work"
tenant=scen
range=${SYNCML_SCENARIO_PORTS:-18400-18499}
# wiretap rewrites the server's RespURI byte for byte: all ports need the same number of digits.
read -r port metrics_port tap_port < <($tools free-ports "${range%-*}" "${range#*-}" 3) || {
    echo "FAIL: no free ports in $range"
    exit 1
}

export SYNCML_DATABASE_URL=$db SYNCML_DATA_DIR=$work/data SYNCML_LOG_LEVEL=warn
export SYNCML_LISTEN=127.0.0.1:$port SYNCML_METRICS_LISTEN=127.0.0.1:$metrics_port
# A killed or suspended client comes back after this pause. The server lets a new session of the device take over
# at once; the pause keeps the scenarios honest for a busy guard that waits for an idle session.
idle_seconds=3
"$server" migrate > /dev/null || { echo "FAIL: migrate"; exit 1; }
"$server" admin tenant add "$tenant" > /dev/null 2>&1
# shellcheck source=lib/tapped_server.bash
source "$here/lib/tapped_server.bash"
start_tapped_server

add_user() { "$server" admin user add --tenant "$tenant" --user "$1" --password pw > /dev/null; }

# phone NAME USER [client.sh setup options...]: a phone that talks to the server through the wiretap port.
phone() {
    local name=$1 user=$2
    shift 2
    bash "$interop/client.sh" setup --home "$work/$name" --url "http://127.0.0.1:$tap_port/sync/$tenant" \
        --user "$user" --password pw --device-id "scen-$name" --kind contacts --format vcard30 --timeout 120 "$@" \
        > "$work/$name.setup.log" 2>&1 || fail "setup of phone $name"
}
data() { echo "$work/$1/data/contacts"; }

# tapped_sync DUMP PHONE [client.sh sync options...]: one sync recorded in $work/DUMP.
tapped_sync() {
    local dump=$1 name=$2 rc
    shift 2
    start_tap "$dump"
    bash "$interop/client.sh" sync --home "$work/$name" "$@" > "$work/$dump.client.log" 2>&1
    rc=$?
    stop_tap
    [ $rc -eq 0 ] || { tail -15 "$work/$dump.client.log"; fail "sync $dump exited with $rc"; }
}

# Live items and the datastore's modification counter of a user's contacts.
server_counts() {
    psql "$db" -Atq -F ' ' -c "SELECT (SELECT count(*) FROM items i WHERE i.tenant_id = d.tenant_id
        AND i.datastore_id = d.datastore_id AND NOT i.deleted), d.modseq FROM datastores d
        JOIN users u USING (tenant_id, user_id) JOIN tenants t USING (tenant_id)
        WHERE t.name = '$tenant' AND u.name = '$1' AND d.kind = 'contacts'"
}
expect_count() {
    local got
    got=$(server_counts "$1" | cut -d' ' -f1)
    [ "$got" = "$2" ] || fail "server holds ${got:-no} contacts of $1, expected $2"
}
same_data() {
    python3 "$interop/compare.py" --quiet "$1" "$2" > "$work/compare.log" 2>&1 ||
        { cat "$work/compare.log"; fail "$3: data differs"; }
}
files() { find "$1" -type f | wc -l; }

# The syncevolution process that client.sh (pid $1) runs.
syncevolution_of() {
    local pids=$1 all="" next p
    for _ in 1 2 3 4; do
        next=""
        for p in $pids; do next="$next $(ps -o pid= --ppid "$p")"; done
        all="$all $next"
        pids=$next
    done
    for p in $all; do
        [ "$(ps -o comm= -p "$p" 2> /dev/null)" = syncevolution ] && { echo "$p"; return 0; }
    done
    return 1
}
wait_requests() {
    local tsv=$1 n=$2
    for _ in $(seq 1 600); do
        [ -f "$tsv" ] && [ "$(wc -l < "$tsv")" -ge "$n" ] && return 0
        sleep 0.1
    done
    return 1
}

scenario_a() {
    local user=sa dump=a-first last msg before after resent stored pid client rc
    add_user $user
    python3 "$interop/gen-contacts.py" gen --kind contacts --count 200 --seed a --out "$(data a1)" > /dev/null
    phone a1 $user --encoding xml --max-msg-size 10240
    start_tap $dump
    bash "$interop/client.sh" sync --home "$work/a1" --mode slow > "$work/$dump.client.log" 2>&1 &
    client=$!
    wait_requests "$work/$dump/exchanges.tsv" 4 || fail "a: fewer than 4 requests"
    pid=$(syncevolution_of $client) || { fail "a: no syncevolution process"; return; }
    kill -STOP "$pid"
    # Whatever was in flight when the client stopped is answered and recorded; the last recorded
    # request must be the last message the server processed for the session.
    sleep 2
    last=$(tail -1 "$work/$dump/exchanges.tsv" | cut -f1)
    last=$(printf %04d "$last")
    msg=$($tools msg-id "$work/$dump/$last-request.xml")
    stored=$(psql "$db" -Atq -c "SELECT last_msg_id FROM sessions WHERE device_uri = 'scen-a1'
        AND syncml_session_id NOT LIKE 'resume:%' ORDER BY updated_at DESC LIMIT 1")
    [ "$msg" = "$stored" ] || fail "a: last recorded MsgID $msg, server's $stored"
    before=$(server_counts $user)
    local path type
    path=$(tail -1 "$work/$dump/exchanges.tsv" | cut -f4)
    type=$(tail -1 "$work/$dump/exchanges.tsv" | cut -f5)
    curl -sS -H "Content-Type: $type" --data-binary "@$work/$dump/$last-request.xml" \
        "http://127.0.0.1:$tap_port$path" -o "$work/a-resent.xml"
    after=$(server_counts $user)
    cmp -s "$work/a-resent.xml" "$work/$dump/$last-response.xml" ||
        fail "a: the resent message $msg got another reply than the recorded one"
    [ "$before" = "$after" ] || fail "a: the resend changed the server (items, modseq: $before -> $after)"
    echo "a: resent MsgID $msg of $(wc -l < "$work/$dump/exchanges.tsv") recorded: identical reply," \
        "server unchanged ($after)"
    kill -CONT "$pid"
    wait $client
    rc=$?
    stop_tap
    [ $rc -eq 0 ] || { tail -15 "$work/$dump.client.log"; fail "a: the session did not complete after the resend"; }
    expect_count $user 200
    phone a2 $user --encoding xml
    tapped_sync a-refresh a2 --mode refresh-from-server
    same_data "$(data a1)" "$(data a2)" "a"
}

scenario_b() {
    local enc user
    python3 "$interop/gen-contacts.py" gen --kind contacts --count 1000 --seed b --out "$work/b-items" > /dev/null
    for enc in xml wbxml; do
        user=sb-$enc
        add_user "$user"
        mkdir -p "$work/b1-$enc/data"
        cp -r "$work/b-items" "$(data "b1-$enc")"
        phone "b1-$enc" "$user" --encoding $enc --max-msg-size 10240
        # The second phone only shows that everything arrived: at the default size, to save time (the
        # interop matrix covers package 4 split at 10240 bytes).
        phone "b2-$enc" "$user" --encoding $enc
        tapped_sync "b-$enc-slow" "b1-$enc" --mode slow
        $tools sizes "$work/b-$enc-slow/exchanges.tsv" --limit 10240 | sed "s/^/b: $enc slow sync: /" ||
            fail "b: $enc slow sync got a reply over 10240 bytes"
        tapped_sync "b-$enc-refresh" "b2-$enc" --mode refresh-from-server
        expect_count "$user" 1000
        [ "$(files "$(data "b2-$enc")")" = 1000 ] || fail "b: $enc second phone holds $(files "$(data "b2-$enc")")"
        same_data "$(data "b1-$enc")" "$(data "b2-$enc")" "b ($enc)"
    done
}

scenario_c() {
    local user=sc up down
    add_user $user
    python3 "$interop/gen-contacts.py" gen --kind contacts --count 5 --seed c --out "$(data c1)" > /dev/null
    $tools photos "$(data c1)" --count 5 --bytes 204800 --seed c
    phone c1 $user --encoding xml --max-msg-size 65536
    phone c2 $user --encoding xml --max-msg-size 65536
    tapped_sync c-up c1 --mode slow
    tapped_sync c-down c2 --mode refresh-from-server
    up=$($tools moredata "$work/c-up" request)
    down=$($tools moredata "$work/c-down" response)
    echo "c: MoreData chunks in $up client messages and $down server messages"
    [ "$up" -gt 0 ] || fail "c: the photos did not go to the server as large objects"
    [ "$down" -gt 0 ] || fail "c: the photos did not come from the server as large objects"
    expect_count $user 5
    same_data "$(data c1)" "$(data c2)" "c"
    $tools photo-digests "$(data c1)" > "$work/c1.photos"
    $tools photo-digests "$(data c2)" > "$work/c2.photos"
    [ "$(wc -l < "$work/c1.photos")" = 5 ] && cmp -s "$work/c1.photos" "$work/c2.photos" ||
        fail "c: the second phone's photos are not byte-identical"
}

scenario_d() {
    local user=sd dump=d-killed client pid alerts
    add_user $user
    python3 "$interop/gen-contacts.py" gen --kind contacts --count 1000 --seed d --out "$(data d1)" > /dev/null
    phone d1 $user --encoding wbxml
    start_tap $dump
    bash "$interop/client.sh" sync --home "$work/d1" --mode slow > "$work/$dump.client.log" 2>&1 &
    client=$!
    wait_requests "$work/$dump/exchanges.tsv" 4 || fail "d: fewer than 4 requests"
    pid=$(syncevolution_of $client) && kill -KILL "$pid"
    wait $client
    stop_tap
    echo "d: killed the client after $(wc -l < "$work/$dump/exchanges.tsv") requests," \
        "server held $(server_counts $user | cut -d' ' -f1)"
    sleep $((idle_seconds + 1))
    tapped_sync d-again d1
    alerts=$($tools alerts "$work/d-again/0001-request.xml")
    case " $alerts " in
        *" 225 "*) echo "d: the client resumed (Alert $alerts)" ;;
        *) echo "d: the client restarted (Alert $alerts)" ;;
    esac
    expect_count $user 1000
    phone d2 $user --encoding wbxml
    tapped_sync d-refresh d2 --mode refresh-from-server
    [ "$(files "$(data d1)")" = 1000 ] || fail "d: the first phone holds $(files "$(data d1)")"
    same_data "$(data d1)" "$(data d2)" "d"
}

# SyncEvolution suspends on its first SIGINT (Alert 224 to the server, resume state saved) and resumes
# with Alert 225 in its next run; a SIGKILLed client (scenario d) saves nothing and restarts instead.
scenario_e() {
    local user=se dump=e-suspended client pid alerts status sent
    add_user $user
    python3 "$interop/gen-contacts.py" gen --kind contacts --count 500 --seed e --out "$(data e1)" > /dev/null
    phone e1 $user --encoding wbxml --max-msg-size 20000
    start_tap $dump
    # A background job of a script ignores SIGINT unless told otherwise.
    env --default-signal=INT bash "$interop/client.sh" sync --home "$work/e1" --mode slow \
        > "$work/$dump.client.log" 2>&1 &
    client=$!
    wait_requests "$work/$dump/exchanges.tsv" 6 || fail "e: fewer than 6 requests"
    pid=$(syncevolution_of $client) && kill -INT "$pid"
    wait $client
    stop_tap
    echo "e: suspended the client after $(wc -l < "$work/$dump/exchanges.tsv") requests," \
        "server held $(server_counts $user | cut -d' ' -f1)"
    sleep $((idle_seconds + 1))
    tapped_sync e-again e1
    alerts=$($tools alerts "$work/e-again/0001-request.xml")
    status=$($tools alert-status "$work/e-again/0001-response.xml")
    sent=$($tools count-adds "$work/e-again")
    echo "e: next run alerted $alerts, server answered $status and" \
        "$($tools alerts "$work/e-again/0001-response.xml"); $sent contacts sent again"
    [ "$alerts" = 225 ] || fail "e: the client did not ask to resume"
    [ "$status" = 200 ] || fail "e: the server did not resume (status $status)"
    [ "$sent" -lt 500 ] || fail "e: the resumed session sent all contacts again"
    expect_count $user 500
    phone e2 $user --encoding wbxml
    tapped_sync e-refresh e2 --mode refresh-from-server
    [ "$(files "$(data e1)")" = 500 ] || fail "e: the first phone holds $(files "$(data e1)")"
    same_data "$(data e1)" "$(data e2)" "e"
}

# shellcheck disable=SC2086
run_scenarios ${SYNCML_SCENARIOS:-a b c d e}
