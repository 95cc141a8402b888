#!/usr/bin/env bash
# Filtered syncs with real SyncEvolution phones (../shared/interop/client.sh, iCalendar 2.0 events) against our
# server, every sync recorded by wiretap.py. Phone A holds N events (SYNCML_FILTER_EVENTS, default 2000) over ten
# years around now, a few of them weekly series that cross or miss the window only by their whole span; the
# expected sets come from the generated values (filtered_sync_tools.py), not from the server.
#   a. A slow-syncs everything; phone B addresses the calendar as 'calendar?/dr(-30,365)' (Synthesis target
#      options) and slow-syncs: B holds exactly the events overlapping [now - 30 days, now + 365 days);
#   b. phone C gets the same window from the server (admin device window) and no URI option: the same set;
#   c. B deletes one event inside the window and refreshes the server from its data (SyncML 203): the server
#      loses that one event only, and A's next two-way sync holds all but it, no duplicates;
#   d. C's window is removed (--inherit) and C two-way syncs: it receives every other event as an Add, in a
#      two-way session (no slow sync), no duplicates;
#   e. phone D addresses 'calendar?/max(100)' (an item limit) and slow-syncs: it holds exactly 100 events, each once;
#      it deletes 10 and two-way syncs: the server deletes those 10 and D gets 10 others, keeping its 90; it
#      deletes 5 more and refreshes the server: the server loses those 5 only, not the events D never received,
#      and A's next two-way sync holds everything else.
# The scenarios build on each other and run in order. Each prints PASS or FAIL and how long each sync took; exit
# status 1 when any failed.
# Environment: SYNCML_BUILD_DIR, SYNCML_TEST_DATABASE_URL, SYNCML_SOURCE_DIR; optional SYNCML_INTEROP_DIR,
# SYNCML_FILTER_PORTS (first-last, default 18200-18299), SYNCML_FILTER_EVENTS (default 2000).
set -uo pipefail
: "${SYNCML_BUILD_DIR:?}" "${SYNCML_TEST_DATABASE_URL:?}" "${SYNCML_SOURCE_DIR:?}"
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
server=$SYNCML_BUILD_DIR/src/syncml-server
interop=${SYNCML_INTEROP_DIR:-$SYNCML_SOURCE_DIR/../shared/interop}
tools="python3 $here/filtered_sync_tools.py"
db=$SYNCML_TEST_DATABASE_URL
work=${SYNCML_TEST_WORK_DIR:-$(mktemp -d /tmp/filtered-sync.XXXXXX)}/filtered
mkdir -p "$work"
tenant=filt
user=fuser
events=${SYNCML_FILTER_EVENTS:-2000}
window_uri='calendar?/dr(-30,365)'
range=${SYNCML_FILTER_PORTS:-18200-18299}
# The server warns about SYNCML_* variables that are none of its settings.
unset SYNCML_FILTER_EVENTS SYNCML_FILTER_PORTS
# wiretap rewrites the server's RespURI byte for byte: all ports need the same number of digits.
read -r port metrics_port tap_port < <(python3 "$here/client_scenarios_tools.py" free-ports "${range%-*}" \
    "${range#*-}" 3) || {
    echo "FAIL: no free ports in $range"
    exit 1
}

# Info level for the "session end" lines (modes and filters of every session), as JSON for the tools.
export SYNCML_DATABASE_URL=$db SYNCML_DATA_DIR=$work/data SYNCML_LOG_LEVEL=info SYNCML_LOG_FORMAT=json
export SYNCML_LISTEN=127.0.0.1:$port SYNCML_METRICS_LISTEN=127.0.0.1:$metrics_port
"$server" migrate > /dev/null || { echo "FAIL: migrate"; exit 1; }
"$server" admin tenant add "$tenant" > /dev/null 2>&1
"$server" admin user add --tenant "$tenant" --user "$user" --password pw > /dev/null
# shellcheck source=lib/tapped_server.bash
source "$here/lib/tapped_server.bash"
start_tapped_server

# phone NAME [client.sh setup options...]: a phone with a calendar store, talking through the wiretap port.
phone() {
    local name=$1
    shift
    bash "$interop/client.sh" setup --home "$work/$name" --url "http://127.0.0.1:$tap_port/sync/$tenant" \
        --user "$user" --password pw --device-id "filt-$name" --kind events --format ical20 --store calendar \
        --timeout 120 "$@" > "$work/$name.setup.log" 2>&1 || fail "setup of phone $name"
}
data() { echo "$work/$1/data/calendar"; }

# timed_sync DUMP PHONE [client.sh sync options...]: one sync recorded in $work/DUMP, its wall time printed.
timed_sync() {
    local dump=$1 name=$2 rc start
    shift 2
    start_tap "$dump"
    start=$(date +%s%N)
    bash "$interop/client.sh" sync --home "$work/$name" "$@" > "$work/$dump.client.log" 2>&1
    rc=$?
    echo "  sync $dump ($name $*): $(((($(date +%s%N) - start) / 1000000))) ms," \
        "$(wc -l < "$work/$dump/exchanges.tsv" 2> /dev/null || echo 0) requests"
    stop_tap
    [ $rc -eq 0 ] || { tail -15 "$work/$dump.client.log"; fail "sync $dump exited with $rc"; }
}

# Live events of the user on the server.
server_events() {
    psql "$db" -Atq -c "SELECT count(*) FROM items i JOIN datastores d USING (tenant_id, user_id, datastore_id)
        JOIN users u USING (tenant_id, user_id) JOIN tenants t USING (tenant_id)
        WHERE t.name = '$tenant' AND u.name = '$user' AND d.kind = 'calendar' AND NOT i.deleted"
}
expect_server() {
    local got
    got=$(server_events)
    [ "$got" = "$1" ] || fail "$2: the server holds ${got:-no} events, expected $1"
}
# holds PHONE EXPECTED-UIDS WHAT: the phone's calendar holds exactly those UIDs, each once.
holds() {
    local report
    report=$($tools compare "$(data "$1")" "$2")
    local rc=$?
    echo "  $3: phone $1: $report"
    [ $rc -eq 0 ] || fail "$3: phone $1 does not hold the expected events"
}
# The last "session end" line of a phone: modes, filters, items filtered out.
session_end() { $tools session-end "$work/server.log" "filt-$1"; }
slow_syncs() {
    curl -sf "http://127.0.0.1:$metrics_port/metrics" |
        awk '/^syncml_slow_syncs_total/ { n += $NF } END { printf "%d\n", n }'
}
window() { "$server" admin device window --tenant "$tenant" --user "$user" --device "filt-$1" "${@:2}"; }

now=$(date +%s)
$tools gen "$(data a)" --count "$events" --seed a --now "$now" --manifest "$work/manifest"
$tools expected "$work/manifest" --now "$now" > "$work/in-window"
cut -d' ' -f1 "$work/manifest" | sort > "$work/all"
echo "generated $events events, $(wc -l < "$work/in-window") of them overlap the window" \
    "($(grep -c ' series$' "$work/manifest") weekly series)"

scenario_a() {
    local sent ended
    phone a
    timed_sync a-slow a --mode slow
    expect_server "$events" "a"
    phone b --uri "$window_uri"
    timed_sync b-slow b --mode slow
    # What the client put into the Alert's target for the datastore.
    sent=$($tools alert-targets "$work/b-slow/0001-request.xml")
    ended=$(session_end b)
    echo "  a: phone B addressed the calendar as '$sent'; server: $ended"
    case " $ended " in
        *" filters=none "*) fail "a: the server synced B without a filter" ;;
    esac
    if grep -q '"sync: datastore filter refused"' "$work/server.log"; then
        grep '"sync: datastore filter refused"' "$work/server.log" | tail -1
        fail "a: the server refused the URI's filter"
    fi
    holds b "$work/in-window" "a"
    expect_server "$events" "a (after B)"
}

scenario_b() {
    local out
    # The device row exists once the phone has synced: a first sync of an empty memo list creates it.
    bash "$interop/client.sh" setup --home "$work/c" --url "http://127.0.0.1:$tap_port/sync/$tenant" \
        --user "$user" --password pw --device-id filt-c --kind memos > "$work/c.memos.log" 2>&1 ||
        fail "b: setup of phone c's memos"
    phone c
    timed_sync c-memos c --mode slow --store memos
    out=$(window c --window-past-days 30 --window-future-days 365) || fail "b: admin device window"
    echo "  b: $out"
    timed_sync c-slow c --mode slow --store calendar
    echo "  b: server: $(session_end c)"
    holds c "$work/in-window" "b"
}

scenario_c() {
    local gone uid
    cp "$work/all" "$work/all-c"
    gone=$($tools in-window-single "$work/manifest" "$(data b)" --now "$now") || {
        fail "c: phone B holds no single event inside the window"
        return
    }
    uid=$(grep -m1 '^UID' "$gone" | tr -d '\r' | cut -d: -f2-)
    rm -f "$gone"
    grep -vxF "$uid" "$work/in-window" > "$work/in-window-c"
    grep -vxF "$uid" "$work/all" > "$work/all-c"
    echo "  c: phone B deleted $uid"
    timed_sync b-refresh b --mode refresh-from-client
    echo "  c: server: $(session_end b)"
    expect_server "$((events - 1))" "c"
    holds b "$work/in-window-c" "c"
    timed_sync a-two-way a
    holds a "$work/all-c" "c"
    expect_server "$((events - 1))" "c (after A)"
}

scenario_d() {
    local before after ended out
    before=$(slow_syncs)
    out=$(window c --inherit) || fail "d: admin device window --inherit"
    echo "  d: $out"
    timed_sync c-two-way c --store calendar
    after=$(slow_syncs)
    ended=$(session_end c)
    echo "  d: server: $ended; slow syncs $before -> $after"
    case " $ended " in
        *" modes=calendar:200 "*) ;;
        *) fail "d: C's session was not a two-way sync" ;;
    esac
    [ "$before" = "$after" ] || fail "d: the server counted a slow sync"
    holds c "$work/all-c" "d"
    expect_server "$((events - 1))" "d"
}

scenario_e() {
    local limit=100
    cp "$work/all-c" "$work/all-e"
    phone d --uri "calendar?/max($limit)"
    timed_sync d-slow d --mode slow
    echo "  e: server: $(session_end d)"
    check_limited() {  # STEP ALLOWED [KEPT]
        local report rc
        report=$($tools limited "$(data d)" "$limit" "$2" ${3:+--kept "$3"} --save "$work/held-d-$1")
        rc=$?
        echo "  e: $1: phone D: $report"
        [ $rc -eq 0 ] || fail "e: $1: phone D does not hold $limit of the server's events"
    }
    check_limited slow "$work/all-e"
    $tools drop "$(data d)" 10 | sort > "$work/d-gone"
    grep -vxFf "$work/d-gone" "$work/all-e" > "$work/all-e2"
    grep -vxFf "$work/d-gone" "$work/held-d-slow" > "$work/d-kept"
    timed_sync d-two-way d
    echo "  e: server: $(session_end d)"
    expect_server "$(wc -l < "$work/all-e2")" "e (D deleted 10)"
    check_limited two-way "$work/all-e2" "$work/d-kept"
    $tools drop "$(data d)" 5 | sort > "$work/d-gone2"
    grep -vxFf "$work/d-gone2" "$work/all-e2" > "$work/all-e3"
    timed_sync d-refresh d --mode refresh-from-client
    echo "  e: server: $(session_end d)"
    expect_server "$(wc -l < "$work/all-e3")" "e (D refreshed the server with 95 events)"
    timed_sync a-two-way-e a
    holds a "$work/all-e3" "e"
}

run_scenarios a b c d e
