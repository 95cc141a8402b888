#!/usr/bin/env bash
# Slow-sync matching, DevInf-aware merge and conflict policies end to end (issue 7 "Done means" scenarios 1-5)
# and the two-format convergence test of issue 6, with real SyncEvolution phones (../shared/interop/client.sh)
# against our server on the test database. Asserts on the phones' data directories and on the items the server
# stored (psql on the test database), prints one PASS/FAIL line per scenario, exits 1 if any failed.
#
# Environment: SYNCML_BUILD_DIR, SYNCML_TEST_DATABASE_URL, SYNCML_SOURCE_DIR (required); SYNCML_TEST_WORK_DIR,
# SYNCML_INTEROP_DIR (optional). SYNCML_MATCHING_SCENARIOS: space-separated scenario names to run (default all:
# see `scenarios` below); every scenario run must pass. SYNCML_MATCHING_JOBS: scenarios run at the same time
# (default 1).
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

scenarios="2-contacts-second-phone 1-contacts-repeated-slow 3-contacts-ctcap 5-events-repeated-slow
5-events-second-phone 5-events-ctcap 5-events-reslow-vcal 5-tasks-repeated-slow 5-tasks-second-phone 5-tasks-ctcap
5-tasks-reslow-vcal 4-conflict-merge
4-conflict-server-wins 4-conflict-client-wins 4-conflict-newest-wins 4-conflict-duplicate 6-convergence-contacts
6-convergence-events 6-convergence-tasks"
selected=${SYNCML_MATCHING_SCENARIOS:-$scenarios}

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
    local names
    names=$("$server" admin tenant list 2>/dev/null | cut -f1)  # whole, as in set_policy below
    grep -qx "$1" <<<"$names" || admin tenant add "$1" || return 1
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
scenario_5-events-repeated-slow() { repeated_slow s5e1 events ical20 60; }
scenario_5-tasks-repeated-slow() { repeated_slow s5t1 tasks ical20 60; }

# 1 across formats: phone A (iCalendar 2.0) slow-syncs N items, phone B (vCalendar 1.0) receives them all in its
# slow sync and slow-syncs them back twice, as its engine rewrites them (TZ:+00:00, W1 TH, all-day rules ending
# at 23:59:59, AALARM beside DALARM). The server pairs every item, B gets nothing as new, and A receives no
# change: B's copies say nothing A's do not.
reslow_other_format() {  # reslow_other_format TENANT KIND COUNT
    local tenant=$1 kind=$2 count=$3 i n
    account "$tenant" frank || return 1
    python3 "$interop/gen-contacts.py" gen --kind "$kind" --format ical20 --count "$count" --seed 11 \
        --out "$(data "$tenant-a" "$kind")" >/dev/null || return 1
    [ "$kind" = events ] && python3 "$helper" add-exceptions "$(data "$tenant-a" "$kind")" >/dev/null
    phone "$tenant-a" "$tenant" frank "$kind" ical20 || return 1
    phone "$tenant-b" "$tenant" frank "$kind" vcal10 || return 1
    phone_sync "$tenant-a" slow || return 1
    phone_sync "$tenant-b" slow || return 1
    expect_eq "items B received in its first slow sync" "$local_new" "$count" || return 1
    for i in 1 2; do
        phone_sync "$tenant-b" slow || return 1
        expect_eq "items sent back to B as new in its slow sync $((i + 1))" "$local_new" 0 || return 1
        n=$(server_items "$tenant" frank "$kind" "$work/server/$tenant-$i")
        expect_eq "server items after B's slow sync $((i + 1))" "$n" "$count" || return 1
    done
    phone_sync "$tenant-a" two-way || return 1
    expect_eq "items A received as changed after B's slow syncs (LOCAL MOD)" "$local_mod" 0 || return 1
    expect_eq "items A received as new after B's slow syncs (LOCAL NEW)" "$local_new" 0
}

scenario_5-events-reslow-vcal() { reslow_other_format s5e4 events 40; }
scenario_5-tasks-reslow-vcal() { reslow_other_format s5t4 tasks 40; }

# 2: phone A slow-syncs BASE items; phone B holds SHARED of them written differently (another format, contacts:
# FN "Last, First", national phone numbers, no emails, one more phone number; calendar items: vCalendar 1.0
# without UID) plus OTHERS of its own. After B's slow sync the server holds each item once (BASE + OTHERS),
# paired contacts with the union of phone numbers and emails, nothing of A's items lost; after two-way syncs
# both phones hold BASE + OTHERS items, each once. A_MOD (optional): the changed items A must receive in its
# first two-way sync; 0 where B's copies add nothing to A's (a paired copy that only differs in form, e.g.
# vCalendar 1.0's TZ:+00:00 or "W1 TH" for a weekly rule, is no change).
second_phone() {  # second_phone TENANT KIND FORMAT_A FORMAT_B BASE SHARED OTHERS KEEP_PROPS [A_MOD]
    local tenant=$1 kind=$2 fa=$3 fb=$4 base=$5 shared=$6 others=$7 keep=$8 a_mod=${9:-} ok=0 n
    local in=$work/input/$tenant total=$(($5 + $7))
    account "$tenant" bob || return 1
    python3 "$interop/gen-contacts.py" gen --kind "$kind" --format "$fa" --count "$base" --seed 11 \
        --out "$in/base" >/dev/null || return 1
    [ "$kind" = events ] && python3 "$helper" add-exceptions "$in/base" >/dev/null
    python3 "$helper" "$kind-variant" "$in/base" "$in/variant" --count "$shared" >/dev/null || return 1
    python3 "$interop/gen-contacts.py" gen --kind "$kind" --format "$fb" --count "$others" --seed 13 --start 5001 \
        --out "$in/others" >/dev/null || return 1
    mkdir -p "$(data "$tenant-a" "$kind")" "$(data "$tenant-b" "$kind")"
    cp "$in/base"/* "$(data "$tenant-a" "$kind")/"
    cp "$in/variant"/* "$in/others"/* "$(data "$tenant-b" "$kind")/"
    phone "$tenant-a" "$tenant" bob "$kind" "$fa" || return 1
    phone "$tenant-b" "$tenant" bob "$kind" "$fb" || return 1
    phone_sync "$tenant-a" slow || return 1
    n=$(server_items "$tenant" bob "$kind" "$work/server/$tenant-before")
    expect_eq "server items after A's slow sync" "$n" "$base" || return 1
    phone_sync "$tenant-b" slow || return 1
    expect_eq "items B received as new in its slow sync (A's items it does not hold)" "$local_new" $((base - shared)) ||
        ok=1
    n=$(server_items "$tenant" bob "$kind" "$work/server/$tenant-after-b")
    expect_eq "server items after B's slow sync" "$n" "$total" || ok=1
    python3 "$helper" check-union "$work/server/$tenant-after-b" --kind "$kind" --base "$in/base" \
        --variant "$in/variant" --others "$in/others" --total "$total" || ok=1
    [ $ok = 0 ] || fail "server after B's slow sync: shared items not paired once with the union of fields"
    python3 "$helper" check-kept "$work/server/$tenant-after-b" --kind "$kind" --base "$work/server/$tenant-before" \
        --props "$keep" || fail "server lost fields of A's items in B's slow sync ($keep)" || ok=1
    phone_sync "$tenant-a" two-way || return 1
    [ -z "$a_mod" ] || expect_eq "changed items A received after B's slow sync (LOCAL MOD)" "$local_mod" "$a_mod" || ok=1
    phone_sync "$tenant-b" two-way || return 1
    phone_sync "$tenant-a" two-way || return 1
    for p in a b; do
        python3 "$helper" check-union "$(data "$tenant-$p" "$kind")" --kind "$kind" --base "$in/base" \
            --variant "$in/variant" --others "$in/others" --total "$total" ||
            fail "phone $p after the two-way syncs: not each item once with the union of fields" || ok=1
    done
    n=$(server_items "$tenant" bob "$kind" "$work/server/$tenant-end")
    expect_eq "server items at the end" "$n" "$total" || ok=1
    return $ok
}

scenario_2-contacts-second-phone() { second_phone s2 contacts vcard30 vcard21 500 300 100 NOTE,PHOTO,BDAY,ORG,TITLE,ADR; }
scenario_5-events-second-phone() {
    second_phone s5e2 events ical20 vcal10 40 20 10 RRULE,EXDATE,DESCRIPTION,LOCATION,CATEGORIES,DTSTART,DTEND 0
}
scenario_5-tasks-second-phone() { second_phone s5t2 tasks ical20 vcal10 40 20 10 DUE,DESCRIPTION,PRIORITY,STATUS 0; }

# 3: a device whose CTCap lacks some properties (SyncEvolution's own profile with those properties removed, via
# its XML override directory) receives items that have them, changes some of them and slow-syncs them back: the
# server keeps the properties the device cannot store and takes the device's changes.
ctcap() {  # ctcap TENANT KIND FORMAT PROFILE EDIT_PROP PROPS...
    local tenant=$1 kind=$2 format=$3 profile=$4 edit_prop=$5 ok=0 n f
    shift 5
    local props=("$@") list count=30
    list=$(IFS=,; echo "${props[*]}")
    account "$tenant" carol || return 1
    python3 "$interop/gen-contacts.py" gen --kind "$kind" --format "$format" --count $count --seed 17 \
        --out "$(data "$tenant-full" "$kind")" >/dev/null || return 1
    [ "$kind" = events ] && python3 "$helper" add-exceptions "$(data "$tenant-full" "$kind")" >/dev/null
    phone "$tenant-full" "$tenant" carol "$kind" "$format" || return 1
    phone_sync "$tenant-full" slow || return 1
    n=$(server_items "$tenant" carol "$kind" "$work/server/$tenant-before")
    expect_eq "server items after the full phone's slow sync" "$n" $count || return 1

    local xml=$work/phones/$tenant-limited/home/.config/syncevolution-xml/datatypes/$profile
    python3 "$helper" strip-profile "/usr/share/syncevolution/xml/datatypes/$profile" "$xml" "${props[@]}" ||
        { fail "cannot derive a SyncEvolution profile without $list"; return 1; }
    phone "$tenant-limited" "$tenant" carol "$kind" "$format" --loglevel 4 || return 1
    phone_sync "$tenant-limited" slow || return 1
    expect_eq "items the limited phone received" "$local_new" $count || return 1
    # The test only means something if the device really cannot store the properties and says so in its CTCap.
    if grep -qE "^($(IFS='|'; echo "${props[*]}"))[;:]" "$(data "$tenant-limited" "$kind")"/*; then
        fail "the limited phone stored properties its profile lacks; the XML override did not apply"; return 1
    fi
    local devinf
    devinf=$(grep -l "<CTCap>" "$(bash "$interop/client.sh" last-log --home "$work/phones/$tenant-limited")"/*outgoing* | head -1)
    for f in "${props[@]}"; do
        if [ -z "$devinf" ] || grep -q "<PropName>$f</PropName>" "$devinf"; then
            fail "the limited phone's CTCap lists $f (or has no CTCap: ${devinf:-none})"; return 1
        fi
    done
    note "limited phone: CTCap without $list, stored items without them"

    local i=0
    for f in $(ls "$(data "$tenant-limited" "$kind")" | head -5); do
        i=$((i + 1))
        python3 "$helper" edit "$(data "$tenant-limited" "$kind")/$f" --set "$edit_prop:Edited on the limited phone $i"
    done
    phone_sync "$tenant-limited" two-way || return 1
    expect_eq "changes the limited phone sent (REMOTE MOD)" "$remote_mod" 5 || ok=1
    n=$(server_items "$tenant" carol "$kind" "$work/server/$tenant-after-edit")
    expect_eq "server items after the limited phone's changes" "$n" $count || ok=1
    python3 "$helper" check-kept "$work/server/$tenant-after-edit" --kind "$kind" \
        --base "$work/server/$tenant-before" --props "$list" ||
        fail "server lost $list when the limited phone sent changed items" || ok=1
    phone_sync "$tenant-limited" slow || return 1
    n=$(server_items "$tenant" carol "$kind" "$work/server/$tenant-after-slow")
    expect_eq "server items after the limited phone's slow sync" "$n" $count || ok=1
    python3 "$helper" check-kept "$work/server/$tenant-after-slow" --kind "$kind" \
        --base "$work/server/$tenant-before" --props "$list" ||
        fail "server lost $list in the limited phone's slow sync" || ok=1
    n=$(grep -l "^$edit_prop:Edited on the limited phone" "$work/server/$tenant-after-slow"/* | wc -l)
    expect_eq "server items with the limited phone's changes" "$n" 5 || ok=1
    # The full phone gets the limited phone's changes with everything it had before.
    phone_sync "$tenant-full" two-way || return 1
    # Only the 5 real changes: an unchanged item the slow sync paired is no change for other devices.
    expect_eq "changed items the full phone received (unchanged items resent after the limited phone's slow sync?)" \
        "$local_mod" 5 || ok=1
    python3 "$helper" check-kept "$(data "$tenant-full" "$kind")" --kind "$kind" \
        --base "$work/server/$tenant-before" --props "$list" ||
        fail "the full phone lost $list after the limited phone's changes" || ok=1
    n=$(grep -l "^$edit_prop:Edited on the limited phone" "$(data "$tenant-full" "$kind")"/* | wc -l)
    expect_eq "items on the full phone with the limited phone's changes" "$n" 5 || ok=1
    return $ok
}

scenario_3-contacts-ctcap() { ctcap s3 contacts vcard30 01vcard-profile.xml TITLE NOTE PHOTO BDAY; }
scenario_5-events-ctcap() { ctcap s5e3 events ical20 11calendar-profile.xml SUMMARY DESCRIPTION LOCATION CATEGORIES; }
scenario_5-tasks-ctcap() { ctcap s5t3 tasks ical20 11calendar-profile.xml SUMMARY DESCRIPTION PRIORITY CATEGORIES; }

# 4: the same contact edited on both phones between syncs, one tenant per conflict policy. Phone A changes TITLE
# and adds an email, phone B changes TITLE and adds a phone number; A syncs first, then B (B's change is the
# conflicting one). Contact X: A's edit is the newer one (REV); contact Y: B's edit is the newer one. Expected
# on the server and, after two-way syncs, on both phones:
#   merge: one item with A's email and B's phone number (TITLE from either); server-wins: A's version;
#   client-wins: B's version; newest-wins: A's for X, B's for Y; duplicate: both versions as two items.
# syncml_conflicts_total{policy=...} on /metrics must grow by at least 2.

# set_policy TENANT POLICY: through the admin CLI, and `admin tenant list` must show it.
set_policy() {
    "$server" admin tenant set "$1" --conflict-policy "$2" >>"$work/logs/admin.log" 2>&1 ||
        { fail "admin tenant set $1 --conflict-policy $2 failed (see $work/logs/admin.log)"; return 1; }
    # The whole list first: grep -q stops reading at the first match, and a longer list would then end the
    # server with SIGPIPE, a failed pipeline under pipefail.
    local tenants
    tenants=$("$server" admin tenant list 2>/dev/null)
    grep -qE "^$1[[:space:]]+conflict=${2//-/[-_]}\b" <<<"$tenants" ||
        fail "admin tenant list does not show conflict policy $2 for tenant $1"
}

conflicts_metric() {  # conflicts_metric POLICY: sum of syncml_conflicts_total over that policy's resolutions
    curl -fsS "http://127.0.0.1:$metrics_port/metrics" | awk -v p="${1//-/_}" '
        /^syncml_conflicts_total\{/ { label = $0; sub(/.*policy="/, "", label); sub(/".*/, "", label)
                                      gsub(/-/, "_", label); if (label == p) sum += $NF }
        END { printf "%d\n", sum }'
}

rev_at() { date -u -d "@$1" +%Y%m%dT%H%M%SZ; }

conflict() {  # conflict POLICY EXPECT_X EXPECT_Y
    local policy=$1 want_x=$2 want_y=$3 tenant=s4-$1 ok=0 n before after key fa fb now
    local in=$work/input/$tenant count=6 extra=0
    [ "$want_x" = both ] && extra=2
    account "$tenant" dave || return 1
    set_policy "$tenant" "$policy" || return 1
    python3 "$interop/gen-contacts.py" gen --kind contacts --format vcard30 --count $count --seed 21 \
        --out "$(data "$tenant-a" contacts)" >/dev/null || return 1
    phone "$tenant-a" "$tenant" dave contacts vcard30 || return 1
    phone "$tenant-b" "$tenant" dave contacts vcard30 || return 1
    phone_sync "$tenant-a" slow || return 1
    phone_sync "$tenant-b" slow || return 1
    expect_eq "contacts phone B received" "$local_new" $count || return 1
    before=$(conflicts_metric "$policy")
    now=$(date +%s)
    for item in x y; do
        fa=$(data "$tenant-a" contacts)/$([ $item = x ] && echo c00001.vcf || echo c00002.vcf)
        key=$(python3 "$helper" first-key "$fa") || return 1
        eval "key_$item=$key"
        fb=$(python3 "$helper" find "$(data "$tenant-b" contacts)" --key "$key")
        [ "$(echo "$fb" | wc -w)" = 1 ] || { fail "phone B holds ${fb:-no} copy of contact $item (key $key)"; return 1; }
        local rev_a rev_b
        if [ $item = x ]; then rev_a=$(rev_at "$now"); rev_b=$(rev_at $((now - 3600)));
        else rev_a=$(rev_at $((now - 3600))); rev_b=$(rev_at "$now"); fi
        python3 "$helper" edit "$fa" --set "TITLE:Title from A" --add "EMAIL;TYPE=INTERNET,WORK:from-a@example.com" \
            --set "REV:$rev_a" || return 1
        python3 "$helper" edit "$(data "$tenant-b" contacts)/$fb" --set "TITLE:Title from B" \
            --add "TEL;TYPE=WORK,VOICE:+49 89 5550123" --set "REV:$rev_b" || return 1
    done
    phone_sync "$tenant-a" two-way || return 1
    expect_eq "changes phone A sent" "$remote_mod" 2 || ok=1
    phone_sync "$tenant-b" two-way || return 1
    n=$(server_items "$tenant" dave contacts "$work/server/$tenant")
    expect_eq "server items after the conflict" "$n" $((count + extra)) || ok=1
    python3 "$helper" check-conflict "$work/server/$tenant" --key "$key_x" --expect "$want_x" ||
        fail "server: contact X (A's edit newer) is not resolved as $want_x" || ok=1
    python3 "$helper" check-conflict "$work/server/$tenant" --key "$key_y" --expect "$want_y" ||
        fail "server: contact Y (B's edit newer) is not resolved as $want_y" || ok=1
    after=$(conflicts_metric "$policy")
    note "syncml_conflicts_total{policy=$policy}: $before -> $after"
    [ "$after" -ge $((before + 2)) ] || fail "syncml_conflicts_total{policy=$policy} grew from $before to $after, want +2" || ok=1
    phone_sync "$tenant-a" two-way || return 1
    phone_sync "$tenant-b" two-way || return 1
    for p in a b; do
        expect_eq "contacts on phone $p at the end" "$(count_files "$(data "$tenant-$p" contacts)")" $((count + extra)) || ok=1
    done
    python3 "$interop/compare.py" --show 3 "$(data "$tenant-a" contacts)" "$(data "$tenant-b" contacts)" ||
        fail "phones A and B differ after the conflict was resolved" || ok=1
    return $ok
}

scenario_4-conflict-merge() { conflict merge merged merged; }
scenario_4-conflict-server-wins() { conflict server-wins a a; }
scenario_4-conflict-client-wins() { conflict client-wins b b; }
scenario_4-conflict-newest-wins() { conflict newest-wins a b; }
scenario_4-conflict-duplicate() { conflict duplicate both both; }

# 6 (issue 6): two phones of one user with different formats of the same kind slow-sync their own items, change
# some (update, add, delete) and two-way sync until both hold the same items: compare.py between the phones;
# for calendar kinds scenario_items.py compare-calendar, which compares what vCalendar 1.0 and iCalendar 2.0 both
# express (alarm run times, not alarm actions and texts; no PERCENT-COMPLETE) in one spelling.
converge() {  # converge TENANT KIND FORMAT_P FORMAT_Q
    local tenant=$1 kind=$2 fp=$3 fq=$4 ok=0 n
    account "$tenant" erin || return 1
    python3 "$interop/gen-contacts.py" gen --kind "$kind" --format "$fp" --count 20 --seed 31 \
        --out "$(data "$tenant-p" "$kind")" >/dev/null || return 1
    python3 "$interop/gen-contacts.py" gen --kind "$kind" --format "$fq" --count 20 --seed 32 --start 101 \
        --out "$(data "$tenant-q" "$kind")" >/dev/null || return 1
    phone "$tenant-p" "$tenant" erin "$kind" "$fp" || return 1
    phone "$tenant-q" "$tenant" erin "$kind" "$fq" || return 1
    phone_sync "$tenant-p" slow || return 1
    phone_sync "$tenant-q" slow || return 1
    phone_sync "$tenant-p" two-way || return 1
    python3 "$interop/gen-contacts.py" mutate --dir "$(data "$tenant-p" "$kind")" --kind "$kind" --format "$fp" \
        --seed 41 --add 2 --update 3 --delete 1 --only "${kind:0:1}00*" >/dev/null || return 1
    python3 "$interop/gen-contacts.py" mutate --dir "$(data "$tenant-q" "$kind")" --kind "$kind" --format "$fq" \
        --seed 42 --add 2 --update 3 --delete 1 --only "${kind:0:1}00*" >/dev/null || return 1
    phone_sync "$tenant-p" two-way || return 1
    phone_sync "$tenant-q" two-way || return 1
    phone_sync "$tenant-p" two-way || return 1
    n=$(server_items "$tenant" erin "$kind" "$work/server/$tenant")
    for p in p q; do
        expect_eq "$kind on phone $p" "$(count_files "$(data "$tenant-$p" "$kind")")" "$n" || ok=1
    done
    local compare=("$interop/compare.py")
    [ "$kind" = contacts ] || compare=("$helper" compare-calendar)
    python3 "${compare[@]}" --show 3 "$(data "$tenant-p" "$kind")" "$(data "$tenant-q" "$kind")" ||
        fail "$fp and $fq phones differ after syncing" || ok=1
    return $ok
}

scenario_6-convergence-contacts() { converge s6c contacts vcard21 vcard30; }
scenario_6-convergence-events() { converge s6e events vcal10 ical20; }
scenario_6-convergence-tasks() { converge s6t tasks vcal10 ical20; }

# ---------------------------------------------------------------------------------------------- runner

# Scenarios can run in parallel (SYNCML_MATCHING_JOBS; slower on a loaded 2-core machine), each on its own tenant
# and phones; each one's output is printed in order once all are done.
run_one() {  # run_one SCENARIO: in a subshell; result line "status<TAB>seconds<TAB>reason" in results/SCENARIO
    local s=$1 t0=$SECONDS status
    reason=""
    "scenario_$s"
    status=$?
    [ $status -ne 0 ] && [ -z "$reason" ] && reason="scenario function returned $status"
    [ -n "$reason" ] && status=1
    printf '%s\t%s\t%s\n' "$status" "$((SECONDS - t0))" "$reason" >"$work/results/$s"
}
running() {
    local n=0 p
    for p in "${pids[@]}"; do kill -0 "$p" 2>/dev/null && n=$((n + 1)); done
    echo $n
}

for s in $selected; do
    declare -F "scenario_$s" >/dev/null || { echo "unknown scenario $s"; exit 2; }
done
mkdir -p "$work/results"
pids=()
for s in $selected; do
    while [ "$(running)" -ge "${SYNCML_MATCHING_JOBS:-1}" ]; do sleep 1; done
    echo "-- started scenario $s"
    run_one "$s" >"$work/logs/scenario-$s.log" 2>&1 &
    pids+=($!)
done
for p in "${pids[@]}"; do wait "$p"; done

passed=0
failed=0
results=()
for s in $selected; do
    echo "== scenario $s"
    cat "$work/logs/scenario-$s.log"
    status=1 took=? why="no result (see $work/logs/scenario-$s.log)"
    [ -f "$work/results/$s" ] && IFS=$'\t' read -r status took why <"$work/results/$s"
    if [ "$status" = 0 ]; then
        results+=("PASS $s (${took} s)")
        passed=$((passed + 1))
    else
        results+=("FAIL $s (${took} s): $why")
        failed=$((failed + 1))
    fi
    echo "${results[-1]}"
done
kill -0 "$server_pid" 2>/dev/null || { echo "FAIL: the server died (see $work/server.log)"; failed=$((failed + 1)); }
stop_server
echo
printf '%s\n' "${results[@]}"
echo "$passed passed, $failed failed (total ${SECONDS} s); server log $work/server.log"
[ $failed -eq 0 ]
