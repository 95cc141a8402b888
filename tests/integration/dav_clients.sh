#!/usr/bin/env bash
# CardDAV/CalDAV with real clients, against our server's DAV front end (tenant davt, DAV switched on):
#   a. vdirsyncer: client 1 (collection URLs) uploads 3 vCards and 2 events (one with RRULE, EXDATE and VALARM)
#      from a local directory; client 2 (discovery from the tenant's DAV base URL) syncs them down; client 1 edits
#      one contact and deletes one; client 2 sees both, no duplicates; a no-change sync transfers nothing;
#   b. SyncEvolution's WebDAV backend (CardDAV + CalDAV, local file stores, local sync): a slow sync gets what
#      vdirsyncer put there; its own add and edits reach vdirsyncer; vdirsyncer's edit, delete and add reach it;
#      a no-change sync writes nothing; its task list (VTODO) and memos (VJOURNAL) do the same round trip with
#      a client writing over CalDAV directly (curl);
#   c. (our server only) a SyncML phone (SyncEvolution as SyncML client, vCard 2.1 and vCalendar 1.0) of the
#      same user: it gets the DAV items, a CardDAV edit reaches it, its edits of a contact and of the recurring
#      event reach vdirsyncer with RRULE, EXDATE and VALARM intact, no duplicates;
#   d. (our server only; DAV_BAD_INPUT=1 forces it) bad requests with curl: malformed PROPFIND body, Depth
#      infinity, invalid vCard, wrong If-Match / If-None-Match, another user's collection, a plain MKCOL, a
#      MKCALENDAR of an existing calendar, missing or wrong credentials, a tenant without DAV; the item counts are
#      unchanged afterwards.
# All DAV clients talk through loadtest/dav_count_proxy.py, which records every exchange in
# $work/dav-requests.jsonl; $work/dav-requests.txt lists the distinct request shapes the clients sent.
# DAV_TARGET=radicale runs the same scenario (a and b) against a Radicale server started here (htpasswd plain
# auth, storage in $work), to check the script and the clients themselves.
# Environment: SYNCML_BUILD_DIR, SYNCML_TEST_DATABASE_URL, SYNCML_SOURCE_DIR (not needed with
# DAV_TARGET=radicale), SYNCML_TEST_WORK_DIR (optional), SYNCML_INTEROP_DIR (optional, for c).
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source_dir=${SYNCML_SOURCE_DIR:-$(cd "$here/../.." && pwd)}
target=${DAV_TARGET:-ours}
case $target in ours|radicale) ;; *) echo "FAIL: DAV_TARGET must be radicale or empty"; exit 1 ;; esac
work=${SYNCML_TEST_WORK_DIR:-$(mktemp -d /tmp/dav-clients.XXXXXX)}
mkdir -p "$work"
work=$(cd "$work" && pwd)
interop=${SYNCML_INTEROP_DIR:-$source_dir/../shared/interop}
proxy_tool=$source_dir/loadtest/dav_count_proxy.py
source "$source_dir/tests/integration/lib/checks.bash"
py=$(python3 -c 'import sys; print(sys.executable)')   # the interpreter itself: a version-manager shim costs ~0.5 s a call
echo "dav_clients: target $target, work directory $work"

pids=()
cleanup() {
    local pid
    for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null; done
}
trap cleanup EXIT
listening() { "$py" -c "import socket, sys; socket.create_connection(('127.0.0.1', int(sys.argv[1])), 1)" "$1" 2>/dev/null; }
wait_listening() {  # PORT PID
    for _ in $(seq 1 120); do listening "$1" && return 0; kill -0 "$2" 2>/dev/null || return 1; sleep 0.25; done
    return 1
}

tenant=davt
user=alice
password=pw
# --- the server ------------------------------------------------------------------------------------------
if [ "$target" = radicale ]; then
    command -v radicale >/dev/null || { echo "FAIL: radicale is not installed"; exit 1; }
    port=$(free_port)
    mkdir -p "$work/radicale"
    printf 'alice:pw\nbob:pw\n' >"$work/radicale/users"
    cat >"$work/radicale/config" <<EOF
[server]
hosts = 127.0.0.1:$port
[auth]
type = htpasswd
htpasswd_filename = $work/radicale/users
htpasswd_encryption = plain
delay = 0
[rights]
type = owner_only
[storage]
filesystem_folder = $work/radicale/store
[web]
type = none
[logging]
level = info
mask_passwords = True
EOF
    # The collections our server has for every user, created the way Radicale stores them.
    for u in alice bob; do
        for c in contacts:VADDRESSBOOK calendar:VEVENT tasks:VTODO memos:VJOURNAL; do
            dir=$work/radicale/store/collection-root/$u/${c%%:*}
            mkdir -p "$dir"
            if [ "${c#*:}" = VADDRESSBOOK ]; then
                echo '{"tag": "VADDRESSBOOK"}' >"$dir/.Radicale.props"
            else
                echo "{\"tag\": \"VCALENDAR\", \"C:supported-calendar-component-set\": \"${c#*:}\"}" >"$dir/.Radicale.props"
            fi
        done
    done
    radicale --config "$work/radicale/config" >>"$work/radicale.log" 2>&1 &
    pids+=($!)
    wait_listening "$port" "${pids[-1]}" || { echo "FAIL: radicale did not start"; tail -20 "$work/radicale.log"; exit 1; }
    prefix=""   # http://HOST/<user>/<collection>/
else
    bin=${SYNCML_BUILD_DIR:?SYNCML_BUILD_DIR not set}/src/syncml-server
    database_url=${SYNCML_TEST_DATABASE_URL:?SYNCML_TEST_DATABASE_URL not set}
    admin() { "$bin" admin "$@" >>"$work/admin.log" 2>&1; }
    export SYNCML_DATABASE_URL=$database_url SYNCML_DATA_DIR=$work/data
    port=$(free_port)
    export SYNCML_LISTEN=127.0.0.1:$port SYNCML_METRICS_LISTEN=127.0.0.1:$(free_port)
    "$bin" migrate >>"$work/admin.log" 2>&1 || { echo "FAIL: migrate"; tail "$work/admin.log"; exit 1; }
    admin tenant add "$tenant" || { echo "FAIL: tenant add $tenant"; cat "$work/admin.log"; exit 1; }
    admin tenant set "$tenant" --dav on || { echo "FAIL: tenant set $tenant --dav on"; cat "$work/admin.log"; exit 1; }
    admin user add --tenant "$tenant" --user alice --password pw || { echo "FAIL: user add alice"; exit 1; }
    admin user add --tenant "$tenant" --user bob --password pw || { echo "FAIL: user add bob"; exit 1; }
    admin tenant add davoff && admin user add --tenant davoff --user carol --password pw ||
        { echo "FAIL: tenant davoff"; exit 1; }
    "$bin" serve >>"$work/server.log" 2>&1 &
    pids+=($!)
    for _ in $(seq 1 120); do curl -fsS "http://$SYNCML_LISTEN/readyz" >/dev/null 2>&1 && break; sleep 0.5; done
    curl -fsS "http://$SYNCML_LISTEN/readyz" >/dev/null 2>&1 || { echo "FAIL: server not ready"; tail -20 "$work/server.log"; exit 1; }
    prefix="dav/$tenant/"   # http://HOST/dav/<tenant>/<user>/<collection>/
fi
direct=http://127.0.0.1:$port

# --- the recording proxy all DAV clients go through -------------------------------------------------------
proxy_port=$(free_port)
requests=$work/dav-requests.jsonl
"$py" "$proxy_tool" serve --listen "$proxy_port" --target "$direct" --log "$requests" >>"$work/proxy.log" 2>&1 &
pids+=($!)
wait_listening "$proxy_port" "${pids[-1]}" || { echo "FAIL: the recording proxy did not start"; cat "$work/proxy.log"; exit 1; }
base=http://127.0.0.1:$proxy_port/$prefix                # DAV base URL of the tenant (discovery starts here)
coll() { echo "${2:-$base}$user/$1/"; }                 # coll COLLECTION [BASE]: a collection URL of $user
mark() { wc -l <"$requests"; }                          # position in the request log
methods_since() { "$py" "$proxy_tool" methods "$requests" --from "$1"; }
no_writes_since() { ! grep -qwE 'PUT|DELETE|PROPPATCH|MKCOL|MOVE|COPY' <<<"$(methods_since "$1")"; }

# --- item files: counts and properties, the same for vdirsyncer, SyncEvolution and phone directories -----------
cat >"$work/items.py" <<'PY'
"""items.py MODE DIR [ARGS]: count | values PROP | lines KEYPROP VALUE | file KEYPROP VALUE | digest
Items are the files under DIR (recursively, hidden files left out); lines are unfolded, property parameters
and groups dropped, names upper-cased: 'NAME:value'. values: the first value of PROP in each item, sorted."""
import hashlib, os, re, sys

def files(top):
    for root, dirs, names in os.walk(top):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for n in sorted(names):
            if not n.startswith("."):
                yield os.path.join(root, n)

def lines(path):
    text = open(path, encoding="utf-8", errors="replace").read()
    text = re.sub(r"\r?\n[ \t]", "", text)
    out = []
    for raw in re.split(r"\r?\n", text):
        if ":" not in raw:
            continue
        left, value = raw.split(":", 1)
        name = left.split(";", 1)[0].split(".")[-1].upper()
        out.append((name, value.strip()))
    return out

def first(item, prop):
    for name, value in item:
        if name == prop:
            return value
    return None

mode, top = sys.argv[1], sys.argv[2]
items = [(p, lines(p)) for p in files(top)] if os.path.isdir(top) else []
if mode == "count":
    print(len(items))
elif mode == "values":
    print("\n".join(sorted(v for v in (first(i, sys.argv[3]) for _, i in items) if v is not None)))
elif mode in ("lines", "file"):
    for path, item in items:
        if first(item, sys.argv[3]) == sys.argv[4]:
            print(path if mode == "file" else "\n".join("%s:%s" % nv for nv in item))
elif mode == "digest":
    h = hashlib.sha256()
    for p in files(top):
        h.update(p.encode() + b"\0" + open(p, "rb").read() + b"\0" + str(os.stat(p).st_mtime_ns).encode())
    print(h.hexdigest())
PY
items() { "$py" "$work/items.py" "$@"; }
# values_are DIR PROP EXPECTED...: the sorted values of PROP over DIR's items are exactly EXPECTED (sorted).
values_are() {
    local dir=$1 prop=$2
    shift 2
    local got want
    got=$(items values "$dir" "$prop")
    want=$(printf '%s\n' "$@" | sort)
    [ "$got" = "$want" ] || { echo "  $dir $prop: got [$(tr '\n' '|' <<<"$got")] want [$(tr '\n' '|' <<<"$want")]"; return 1; }
}
# item_has DIR KEYPROP VALUE PATTERN: the item whose KEYPROP is VALUE has a line matching PATTERN (grep -E).
item_has() {
    local lines
    lines=$(items lines "$1" "$2" "$3")
    grep -qE "$4" <<<"$lines" || { echo "  no line matching $4 in the item with $2 $3:"; sed 's/^/    /' <<<"$lines"; return 1; }
}
# has_recurrence FILE: the lines of the weekly event (items lines) still carry its recurrence and its alarm 15
# minutes before (relative, or absolute for the first occurrence).
has_recurrence() {
    grep -q '^RRULE:.*FREQ=WEEKLY' "$1" && grep -q '^RRULE:.*UNTIL=20260330T090000Z' "$1" &&
        grep -q '^EXDATE:.*20260119T090000Z' "$1" && grep -qx 'BEGIN:VALARM' "$1" &&
        grep -qE '^TRIGGER:(-PT15M|20260105T084500Z)$' "$1" ||
        { echo "  recurrence or alarm lost:"; grep -E '^(DTSTART|RRULE|EXDATE|TRIGGER|BEGIN:VALARM)' "$1" | sed 's/^/    /'; return 1; }
}

# server_count URL [USER]: items in a collection as a Depth 1 PROPFIND lists them (direct, not via the proxy).
server_count() {
    curl -s -u "${2:-$user}:$password" -X PROPFIND -H 'Depth: 1' -H 'Content-Type: application/xml; charset=utf-8' \
        --data '<?xml version="1.0" encoding="utf-8"?><d:propfind xmlns:d="DAV:"><d:prop><d:getetag/></d:prop></d:propfind>' \
        "$1" | "$py" -c '
import sys, urllib.parse, xml.etree.ElementTree as ET
try:
    root = ET.fromstring(sys.stdin.buffer.read())
except ET.ParseError:
    print("unparsable"); sys.exit()
hrefs = [urllib.parse.unquote(h.text or "") for r in root.iter("{DAV:}response") for h in r.findall("{DAV:}href")]
print(sum(1 for h in hrefs if not h.endswith("/")))'
}
server_count_is() { local got; got=$(server_count "$1" "${3:-}"); [ "$got" = "$2" ] || { echo "  $1: $got items, want $2"; return 1; }; }

# --- test data ------------------------------------------------------------------------------------------------
# vcard DIR UID GIVEN FAMILY TEL [NOTE]
vcard() {
    {
        printf 'BEGIN:VCARD\r\nVERSION:3.0\r\nUID:%s\r\nFN:%s %s\r\nN:%s;%s;;;\r\nTEL;TYPE=CELL:%s\r\n' "$2" "$3" "$4" "$4" "$3" "$5"
        printf 'EMAIL;TYPE=INTERNET:%s@example.org\r\n' "$(tr 'A-Z' 'a-z' <<<"$3")"
        [ -n "${6:-}" ] && printf 'NOTE:%s\r\n' "$6"
        printf 'END:VCARD\r\n'
    } >"$1/$2.vcf"
}
# vevent DIR UID SUMMARY DTSTART DTEND [EXTRA LINES...]
vevent() {
    local dir=$1 uid=$2 summary=$3 start=$4 end=$5
    shift 5
    {
        printf 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//syncml-server tests//dav_clients//EN\r\nBEGIN:VEVENT\r\n'
        printf 'UID:%s\r\nDTSTAMP:20260101T090000Z\r\nDTSTART:%s\r\nDTEND:%s\r\nSUMMARY:%s\r\n' "$uid" "$start" "$end" "$summary"
        [ $# -gt 0 ] && printf '%s\r\n' "$@"
        printf 'END:VEVENT\r\nEND:VCALENDAR\r\n'
    } >"$dir/$uid.ics"
}
recurring=(RRULE:FREQ=WEEKLY\;UNTIL=20260330T090000Z EXDATE:20260119T090000Z BEGIN:VALARM ACTION:DISPLAY
    'DESCRIPTION:Standup soon' TRIGGER:-PT15M END:VALARM)
# set_prop FILE PROP VALUE: replaces the (unfolded, first) PROP line of an item file, keeping its parameters.
set_prop() {
    "$py" - "$@" <<'PY'
import re, sys
path, prop, value = sys.argv[1:]
raw = open(path, encoding="utf-8").read()
nl = "\r\n" if "\r\n" in raw else "\n"
lines = re.sub(r"\r?\n[ \t]", "", raw).split(nl)
for i, line in enumerate(lines):
    name = line.split(":", 1)[0].split(";", 1)[0].split(".")[-1].upper()
    if name == prop and ":" in line:
        lines[i] = line.split(":", 1)[0] + ":" + value
        break
else:
    lines.insert(max(i for i, l in enumerate(lines) if l.upper().startswith("END:")), prop + ":" + value)
open(path, "w", encoding="utf-8", newline="").write(nl.join(lines))
PY
}

# --- vdirsyncer -------------------------------------------------------------------------------------------------
# vds_config NAME direct|discover: client NAME with local storage in $work/NAME/{contacts,calendar}.
# direct: the pairs name the two collections (collections = null); discover: from the DAV base URL
# (current-user-principal, home sets, Depth 1 listing), every collection of the server side ("from b").
vds_config() {
    local name=$1 how=$2 dir=$work/$1 collections curl_c curl_e
    mkdir -p "$dir/status"
    if [ "$how" = direct ]; then
        collections=null curl_c=$(coll contacts) curl_e=$(coll calendar)
        mkdir -p "$dir/contacts" "$dir/calendar"
    else
        collections='["from b"]' curl_c=$base curl_e=$base
    fi
    cat >"$dir/config" <<EOF
[general]
status_path = "$dir/status/"

[pair contacts]
a = "contacts_local"
b = "contacts_remote"
collections = $collections
conflict_resolution = "a wins"

[storage contacts_local]
type = "filesystem"
path = "$dir/contacts/"
fileext = ".vcf"

[storage contacts_remote]
type = "carddav"
url = "$curl_c"
username = "$user"
password = "$password"

[pair calendar]
a = "calendar_local"
b = "calendar_remote"
collections = $collections
conflict_resolution = "a wins"

[storage calendar_local]
type = "filesystem"
path = "$dir/calendar/"
fileext = ".ics"

[storage calendar_remote]
type = "caldav"
url = "$curl_e"
username = "$user"
password = "$password"
EOF
}
# vds NAME SUBCOMMAND...: runs vdirsyncer for client NAME, output appended to $work/NAME.log and kept in
# $work/NAME.last; "yes" to its questions (creating local collections found on the server).
vds() {
    local name=$1
    shift
    echo "\$ vdirsyncer $*" >>"$work/$name.log"
    vdirsyncer -c "$work/$name/config" "$@" >"$work/$name.last" 2>&1 < <(yes y)
    local rc=$?
    cat "$work/$name.last" >>"$work/$name.log"
    [ $rc -eq 0 ] || { echo "  vdirsyncer $name $* exited $rc:"; tail -5 "$work/$name.last" | sed 's/^/    /'; }
    return $rc
}
transfers() { grep -cE '^(Copying|Deleting)' "$work/$1.last"; }   # items vdirsyncer moved in its last run

echo "== a. vdirsyncer: two clients, contacts and events (at ${SECONDS}s)"
contacts_direct=$(coll contacts "$direct/$prefix") calendar_direct=$(coll calendar "$direct/$prefix")
vds_config vds1 direct
vds_config vds2 discover
c1=$work/vds1/contacts e1=$work/vds1/calendar
c2=$work/vds2/contacts e2=$work/vds2/calendar
vcard "$c1" dav-contact-1 Person1 Davtest +49305550001
vcard "$c1" dav-contact-2 Person2 Davtest +49305550002
vcard "$c1" dav-contact-3 Person3 Davtest +49305550003
vevent "$e1" dav-event-1 "Weekly standup" 20260105T090000Z 20260105T100000Z "${recurring[@]}"
vevent "$e1" dav-event-2 "Dentist" 20260210T140000Z 20260210T150000Z "LOCATION:Main street 1"
check "a: client 1 discovers its two collections" vds vds1 discover
check "a: client 1 uploads 3 contacts and 2 events" eval 'vds vds1 sync &&
    [ "$(grep -c "^Copying (uploading)" "$work/vds1.last")" = 5 ]'
check "a: the server lists 3 contacts and 2 events" eval 'server_count_is "$contacts_direct" 3 &&
    server_count_is "$calendar_direct" 2'
check "a: client 2 discovers the collections from the base URL" vds vds2 discover
check "a: client 2 found the address book and the calendar" test -d "$c2/contacts" -a -d "$e2/calendar"
check "a: client 2 syncs" vds vds2 sync
check "a: client 2 has the 3 contacts" values_are "$c2" FN "Person1 Davtest" "Person2 Davtest" "Person3 Davtest"
check "a: client 2 has the 2 events" values_are "$e2" SUMMARY "Weekly standup" "Dentist"
check "a: the contacts kept N, TEL and EMAIL" eval 'items lines "$c2" UID dav-contact-2 >"$work/a.c2" &&
    grep -qx "TEL:+49305550002" "$work/a.c2" && grep -qx "EMAIL:person2@example.org" "$work/a.c2" &&
    grep -qx "N:Davtest;Person2;;;" "$work/a.c2"'
check "a: the recurring event kept RRULE, EXDATE and VALARM" eval 'items lines "$e2" UID dav-event-1 >"$work/a.e1" &&
    has_recurrence "$work/a.e1" && grep -qx "DTSTART:20260105T090000Z" "$work/a.e1"'
set_prop "$c1/dav-contact-1.vcf" FN "Person1 Edited"
set_prop "$c1/dav-contact-1.vcf" N "Edited;Person1;;;"
set_prop "$c1/dav-contact-1.vcf" TEL "+49305550011"
rm "$c1/dav-contact-3.vcf"
check "a: client 1 syncs an edit and a deletion" eval 'vds vds1 sync &&
    grep -q "^Copying (updating) item dav-contact-1" "$work/vds1.last" &&
    grep -q "^Deleting item dav-contact-3" "$work/vds1.last" && [ "$(transfers vds1)" = 2 ]'
check "a: client 2 syncs" vds vds2 sync
check "a: client 2 sees the edit and the deletion, no duplicates" values_are "$c2" FN "Person1 Edited" "Person2 Davtest"
check "a: the edited contact's TEL changed" item_has "$c2" UID dav-contact-1 '^TEL:\+49305550011$'
check "a: one UID per contact" test "$(items values "$c2" UID | uniq -d)" = ""
check "a: client 2 still has the 2 events" values_are "$e2" SUMMARY "Weekly standup" "Dentist"
at=$(mark)
d1=$(items digest "$c1")$(items digest "$e1") d2=$(items digest "$c2")$(items digest "$e2")
check "a: no-change sync of client 1 transfers nothing" eval 'vds vds1 sync && [ "$(transfers vds1)" = 0 ]'
check "a: no-change sync of client 2 transfers nothing" eval 'vds vds2 sync && [ "$(transfers vds2)" = 0 ]'
check "a: no PUT or DELETE went to the server, local files untouched" eval 'no_writes_since "$at" &&
    [ "$(items digest "$c1")$(items digest "$e1")" = "$d1" ] &&
    [ "$(items digest "$c2")$(items digest "$e2")" = "$d2" ]'
check "a: the server lists 2 contacts and 2 events" eval 'server_count_is "$contacts_direct" 2 &&
    server_count_is "$calendar_direct" 2'

echo "== b. SyncEvolution WebDAV backend (CardDAV + CalDAV) with local file stores (at ${SECONDS}s)"
se_home=$work/se/home se_data=$work/se/data
mkdir -p "$se_home" "$se_data/contacts" "$se_data/events" "$se_data/tasks" "$se_data/memos" "$work/se/logs"
# se ARGS...: syncevolution in its own home (config, change tracking, logs under $work/se), no D-Bus.
se() {
    (
        export HOME=$se_home XDG_CONFIG_HOME=$se_home/.config XDG_DATA_HOME=$se_home/.local/share \
            XDG_CACHE_HOME=$se_home/.cache
        unset DBUS_SESSION_BUS_ADDRESS DISPLAY
        syncevolution --daemon=no "$@"
    )
}
# se_sync [MODE]: local sync of the file stores (context @default, peer "dav") with the WebDAV stores (context
# @dav); output in $work/se.last (appended to $work/se.log).
se_sync() {
    local args=()
    [ $# -gt 0 ] && args=(--sync "$1")
    se --run "${args[@]}" dav >"$work/se.last" 2>&1
    local rc=$?
    cat "$work/se.last" >>"$work/se.log"
    [ $rc -eq 0 ] && grep -q '^Synchronization successful' "$work/se.last" && return 0
    echo "  syncevolution exited $rc:"
    grep -E 'ERROR|error' "$work/se.last" | head -5 | sed 's/^/    /'
    return 1
}
se_configure() {
    {
        # The server side: context @dav; its peer "target-config" holds the account; one store per collection.
        se --configure --template none keyring=no username="$user" password="$password" syncURL="$base" \
            preventSlowSync=0 printChanges=0 dumpData=0 target-config@dav &&
        se --configure backend=CardDAV database="$(coll contacts)" sync=two-way target-config@dav addressbook &&
        se --configure backend=CalDAV database="$(coll calendar)" sync=two-way target-config@dav calendar &&
        se --configure backend=CalDAVTodo database="$(coll tasks)" sync=two-way target-config@dav todo &&
        se --configure backend=CalDAVJournal database="$(coll memos)" sync=two-way target-config@dav memo &&
        # The client side: context @default with file stores (one item per file); its peer "dav" is a local
        # sync with the @dav context.
        se --configure --template none keyring=no syncURL=local://@dav peerIsClient=1 preventSlowSync=0 \
            printChanges=0 dumpData=0 logdir="$work/se/logs" dav &&
        se --configure backend=file database="$se_data/contacts" databaseFormat=text/vcard uri=addressbook \
            sync=two-way dav contacts &&
        se --configure backend=file database="$se_data/events" databaseFormat=text/calendar uri=calendar \
            sync=two-way dav events &&
        se --configure backend=file database="$se_data/tasks" databaseFormat=text/calendar uri=todo \
            sync=two-way dav tasks &&
        se --configure backend=file database="$se_data/memos" databaseFormat=text/calendar uri=memo \
            sync=two-way dav memos
    } >"$work/se.configure.log" 2>&1
}
check "b: SyncEvolution configures the WebDAV and file stores" se_configure
check "b: SyncEvolution lists the 2 contacts of the address book" eval \
    '[ "$(se --print-items target-config@dav addressbook 2>/dev/null | grep -c .)" = 2 ]'
check "b: first sync (slow) of SyncEvolution" se_sync slow
check "b: SyncEvolution has the contacts vdirsyncer left" values_are "$se_data/contacts" FN "Person1 Edited" "Person2 Davtest"
check "b: SyncEvolution has the 2 events" values_are "$se_data/events" SUMMARY "Weekly standup" "Dentist"
check "b: SyncEvolution's copy of the recurring event has RRULE, EXDATE and VALARM" eval \
    'items lines "$se_data/events" UID dav-event-1 >"$work/b.e1" && has_recurrence "$work/b.e1"'
# SyncEvolution side: a new contact, an edited contact, a new event, an edited event.
vcard "$se_data/contacts" se-contact-1 Sevo Local +49305556001
vevent "$se_data/events" se-event-1 "Lunch" 20260220T120000Z 20260220T130000Z
file=$(items file "$se_data/contacts" FN "Person2 Davtest")
[ -n "$file" ] && set_prop "$file" TEL "+49305550022"
file=$(items file "$se_data/events" SUMMARY "Dentist")
[ -n "$file" ] && set_prop "$file" SUMMARY "Dentist moved"
at=$(mark)
check "b: two-way sync of SyncEvolution's add and edits" se_sync
check "b: it wrote to the server with PUT" eval 'grep -qw PUT <<<"$(methods_since "$at")"'
check "b: vdirsyncer syncs" vds vds1 sync
check "b: vdirsyncer sees SyncEvolution's new contact, no duplicates" values_are "$c1" FN "Person1 Edited" "Person2 Davtest" "Sevo Local"
check "b: vdirsyncer sees SyncEvolution's contact edit" item_has "$c1" UID dav-contact-2 '^TEL:\+49305550022$'
check "b: vdirsyncer sees SyncEvolution's new event and event edit" values_are "$e1" SUMMARY "Weekly standup" "Dentist moved" "Lunch"
check "b: the recurring event still has RRULE, EXDATE and VALARM" eval \
    'items lines "$e1" UID dav-event-1 >"$work/b.e1v" && has_recurrence "$work/b.e1v"'
# vdirsyncer side: an edit, the deletion of SyncEvolution's contact, a new event.
set_prop "$c1/dav-contact-1.vcf" NOTE "Edited again by vdirsyncer"
file=$(items file "$c1" FN "Sevo Local")
[ -n "$file" ] && rm "$file"
vevent "$e1" dav-event-3 "Planning" 20260301T100000Z 20260301T113000Z
check "b: vdirsyncer syncs an edit, a deletion and a new event" eval 'vds vds1 sync && [ "$(transfers vds1)" = 3 ]'
check "b: two-way sync of SyncEvolution" se_sync
check "b: SyncEvolution sees the deletion, no duplicates" values_are "$se_data/contacts" FN "Person1 Edited" "Person2 Davtest"
check "b: SyncEvolution sees vdirsyncer's edit" item_has "$se_data/contacts" FN "Person1 Edited" '^NOTE:Edited again by vdirsyncer$'
check "b: SyncEvolution sees the new event" values_are "$se_data/events" SUMMARY "Weekly standup" "Dentist moved" "Lunch" "Planning"
file=$(items file "$se_data/events" SUMMARY "Lunch")
[ -n "$file" ] && rm "$file"
at=$(mark)
check "b: two-way sync of SyncEvolution's deletion" se_sync
check "b: it deleted on the server with DELETE" eval 'grep -qw DELETE <<<"$(methods_since "$at")"'
check "b: vdirsyncer sees the deletion" eval 'vds vds1 sync && values_are "$e1" SUMMARY "Weekly standup" "Dentist moved" "Planning"'
at=$(mark)
digest=$(items digest "$se_data")
check "b: no-change sync of SyncEvolution" se_sync
check "b: it wrote nothing, locally or to the server" eval 'no_writes_since "$at" && [ "$(items digest "$se_data")" = "$digest" ]'
check "b: client 2 agrees (2 contacts, 3 events, no duplicates)" eval 'vds vds2 sync &&
    values_are "$c2" FN "Person1 Edited" "Person2 Davtest" &&
    values_are "$e2/calendar" SUMMARY "Weekly standup" "Dentist moved" "Planning"'

echo "== b. SyncEvolution's CalDAV task list and memos (at ${SECONDS}s)"
# caldav_put COLLECTION NAME FILE: a PUT as another CalDAV client would send it (direct, not via the proxy).
caldav_put() {
    curl -s -o /dev/null -w '%{http_code}' -u "$user:$password" -X PUT -H 'Content-Type: text/calendar; charset=utf-8' \
        --data-binary @"$3" "$(coll "$1" "$direct/$prefix")$2"
}
caldav_get() { curl -s -u "$user:$password" "$(coll "$1" "$direct/$prefix")$2" | tr -d '\r'; }
# vtodo DIR UID SUMMARY DUE [EXTRA LINES...], vjournal DIR UID SUMMARY DESCRIPTION
vtodo() {
    local dir=$1 uid=$2 summary=$3 due=$4
    shift 4
    {
        printf 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//syncml-server tests//dav_clients//EN\r\nBEGIN:VTODO\r\n'
        printf 'UID:%s\r\nDTSTAMP:20260101T090000Z\r\nDUE:%s\r\nSUMMARY:%s\r\nPRIORITY:1\r\n' "$uid" "$due" "$summary"
        [ $# -gt 0 ] && printf '%s\r\n' "$@"
        printf 'END:VTODO\r\nEND:VCALENDAR\r\n'
    } >"$dir/$uid.ics"
}
vjournal() {
    printf 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//syncml-server tests//dav_clients//EN\r\nBEGIN:VJOURNAL\r\nUID:%s\r\nDTSTAMP:20260101T090000Z\r\nSUMMARY:%s\r\nDESCRIPTION:%s\r\nEND:VJOURNAL\r\nEND:VCALENDAR\r\n' \
        "$2" "$3" "$4" >"$1/$2.ics"
}
vtodo "$se_data/tasks" se-task-1 "File taxes" 20260415T170000Z STATUS:NEEDS-ACTION
vjournal "$se_data/memos" se-memo-1 "Shopping" "Milk and bread"
check "b: SyncEvolution uploads a new task and a new memo" se_sync
check "b: the server lists 1 task and 1 memo" eval 'server_count_is "$(coll tasks "$direct/$prefix")" 1 &&
    server_count_is "$(coll memos "$direct/$prefix")" 1'
check "b: the task arrived with its due date and priority" eval 'caldav_get tasks se-task-1.ics >"$work/b.t1" &&
    grep -q "^BEGIN:VTODO" "$work/b.t1" && grep -q "^DUE:20260415T170000Z" "$work/b.t1" && grep -q "^PRIORITY:1" "$work/b.t1"'
check "b: the memo arrived as a VJOURNAL with its text" eval 'caldav_get memos se-memo-1.ics >"$work/b.m1" &&
    grep -q "^BEGIN:VJOURNAL" "$work/b.m1" && grep -q "^DESCRIPTION:Milk and bread" "$work/b.m1"'
mkdir -p "$work/caldav"
vtodo "$work/caldav" dav-task-2 "Renew passport" 20260601T090000Z
vjournal "$work/caldav" dav-memo-2 "Ideas" "Write the report"
check "b: another CalDAV client adds a task and a memo" eval '[ "$(caldav_put tasks dav-task-2.ics "$work/caldav/dav-task-2.ics")" = 201 ] &&
    [ "$(caldav_put memos dav-memo-2.ics "$work/caldav/dav-memo-2.ics")" = 201 ]'
# Radicale stores a VTODO in a VJOURNAL collection (it does not enforce supported-calendar-component-set).
if [ "$target" = ours ]; then
    check "b: a VTODO in the memo collection is refused" eval \
        '[ "$(caldav_put memos wrong.ics "$work/caldav/dav-task-2.ics")" = 403 ] && server_count_is "$(coll memos "$direct/$prefix")" 2'
fi
file=$(items file "$se_data/tasks" UID se-task-1)
[ -n "$file" ] && set_prop "$file" STATUS COMPLETED
file=$(items file "$se_data/memos" UID se-memo-1)
[ -n "$file" ] && rm "$file"
check "b: two-way sync of SyncEvolution: it completes its task and deletes its memo" se_sync
check "b: SyncEvolution has the other client's task and memo, no duplicates" eval \
    'values_are "$se_data/tasks" SUMMARY "File taxes" "Renew passport" && values_are "$se_data/memos" SUMMARY "Ideas"'
check "b: the server has the completed task and no deleted memo" eval 'item_has "$se_data/tasks" UID se-task-1 "^STATUS:COMPLETED$" &&
    caldav_get tasks se-task-1.ics | grep -q "^STATUS:COMPLETED" && server_count_is "$(coll memos "$direct/$prefix")" 1'
at=$(mark)
digest=$(items digest "$se_data")
check "b: no-change sync of the tasks and memos writes nothing" eval 'se_sync && no_writes_since "$at" &&
    [ "$(items digest "$se_data")" = "$digest" ]'
# vdirsyncer's client 2 discovered every calendar collection, the task list and the memos included.
check "b: vdirsyncer (client 2) gets the task list and the memos, the completed task completed" eval 'vds vds2 sync &&
    values_are "$e2/tasks" SUMMARY "File taxes" "Renew passport" && values_are "$e2/memos" SUMMARY "Ideas" &&
    item_has "$e2/tasks" UID se-task-1 "^STATUS:COMPLETED$"'

if [ "$target" = ours ]; then
    echo "== c. a SyncML phone (vCard 2.1, vCalendar 1.0) and the DAV clients of the same user (at ${SECONDS}s)"
    # The phone is SyncEvolution as a SyncML client (../shared/interop/client.sh), straight to the server.
    phone_home=$work/phone
    pc=$phone_home/data/contacts pe=$phone_home/data/events
    phone_setup() {
        bash "$interop/client.sh" setup --home "$phone_home" --url "http://$SYNCML_LISTEN/sync/$tenant" \
            --user "$user" --password "$password" --device-id dav-phone --kind contacts --format vcard21 \
            >>"$work/phone.log" 2>&1 &&
        bash "$interop/client.sh" setup --home "$phone_home" --kind events --format vcal10 --uri calendar \
            >>"$work/phone.log" 2>&1
    }
    phone_sync() {
        bash "$interop/client.sh" sync --home "$phone_home" "$@" >"$work/phone.last" 2>&1
        local rc=$?
        cat "$work/phone.last" >>"$work/phone.log"
        [ $rc -eq 0 ] || { echo "  phone sync exited $rc:"; tail -8 "$work/phone.last" | sed 's/^/    /'; }
        return $rc
    }
    check "c: phone setup" phone_setup
    check "c: the phone's first (slow) sync" phone_sync --mode slow
    check "c: the phone has the 2 contacts" values_are "$pc" FN "Person1 Edited" "Person2 Davtest"
    check "c: the phone has the 3 events" values_are "$pe" SUMMARY "Weekly standup" "Dentist moved" "Planning"
    check "c: the phone's recurring event has RRULE, EXDATE and an alarm" eval \
        'items lines "$pe" SUMMARY "Weekly standup" >"$work/c.e1" && grep -q "^RRULE:" "$work/c.e1" &&
        grep -q "^EXDATE:" "$work/c.e1" && grep -qE "^(AALARM|DALARM|BEGIN:VALARM)" "$work/c.e1"'
    # A CardDAV edit reaches the phone.
    set_prop "$c1/dav-contact-2.vcf" TEL "+49305557777"
    set_prop "$c1/dav-contact-2.vcf" NOTE "CardDAV edit for the phone"
    check "c: vdirsyncer syncs a contact edit" eval 'vds vds1 sync && [ "$(transfers vds1)" = 1 ]'
    check "c: two-way sync of the phone" phone_sync
    check "c: the CardDAV edit reached the phone" eval 'item_has "$pc" FN "Person2 Davtest" "^TEL:\+49305557777$" &&
        item_has "$pc" FN "Person2 Davtest" "^NOTE:CardDAV edit for the phone$"'
    check "c: the phone still has 2 contacts" values_are "$pc" FN "Person1 Edited" "Person2 Davtest"
    # The phone edits a contact and the recurring event's summary.
    file=$(items file "$pc" FN "Person1 Edited")
    [ -n "$file" ] && sed -i 's/+49305550011/+49305558888/' "$file"
    file=$(items file "$pe" SUMMARY "Weekly standup")
    [ -n "$file" ] && set_prop "$file" SUMMARY "Weekly standup by phone"
    check "c: two-way sync of the phone's edits" phone_sync
    check "c: vdirsyncer syncs" vds vds1 sync
    check "c: the phone's contact edit reached vdirsyncer" item_has "$c1" UID dav-contact-1 '^TEL:\+49305558888$'
    check "c: no duplicate contacts" values_are "$c1" FN "Person1 Edited" "Person2 Davtest"
    check "c: no duplicate events" values_are "$e1" SUMMARY "Weekly standup by phone" "Dentist moved" "Planning"
    check "c: one UID per event" test "$(items values "$e1" UID | uniq -d)" = ""
    check "c: the recurring event kept RRULE, EXDATE and VALARM through the phone" eval \
        'items lines "$e1" SUMMARY "Weekly standup by phone" >"$work/c.e1v" && has_recurrence "$work/c.e1v"'
    check "c: client 2 agrees" eval 'vds vds2 sync && values_are "$c2" FN "Person1 Edited" "Person2 Davtest" &&
        values_are "$e2/calendar" SUMMARY "Weekly standup by phone" "Dentist moved" "Planning"'
    check "c: the server lists 2 contacts and 3 events" eval 'server_count_is "$contacts_direct" 2 &&
        server_count_is "$calendar_direct" 3'
fi

if [ "$target" = ours ] || [ "${DAV_BAD_INPUT:-0}" = 1 ]; then
    echo "== d. bad requests (curl, straight to the server) (at ${SECONDS}s)"
    contacts=$contacts_direct calendar=$calendar_direct bob_contacts=$direct/${prefix}bob/contacts/
    before=$(server_count "$contacts") before_cal=$(server_count "$calendar") before_bob=$(server_count "$bob_contacts" bob)
    existing=$(curl -s -u "$user:$password" -X PROPFIND -H 'Depth: 1' -H 'Content-Type: application/xml' \
        --data '<d:propfind xmlns:d="DAV:"><d:prop><d:getetag/></d:prop></d:propfind>' "$contacts" |
        grep -oE '<([a-zA-Z]+:)?href>[^<]*\.vcf</([a-zA-Z]+:)?href>' | head -1 | sed -E 's/<[^>]*>//g')
    case $existing in http*) ;; *) existing=$direct$existing ;; esac
    # code CURL ARGS...: the HTTP status of one request as $user.
    code() { curl -s -o "$work/d.body" -w '%{http_code}' -u "$user:$password" "$@"; }
    in_set() { local got=$1 c; shift; for c in "$@"; do [ "$got" = "$c" ] && return 0; done; echo "  got $got, want $*"; return 1; }
    propfind='<?xml version="1.0" encoding="utf-8"?><d:propfind xmlns:d="DAV:"><d:prop><d:getetag/></d:prop></d:propfind>'
    check "d: PROPFIND with malformed XML -> 400" in_set "$(code -X PROPFIND -H 'Depth: 1' -H 'Content-Type: application/xml' \
        --data '<d:propfind xmlns:d="DAV:"><d:prop><d:getetag></d:prop>' "$contacts")" 400
    check "d: PROPFIND Depth: infinity on a collection -> 403 (or 400)" in_set "$(code -X PROPFIND -H 'Depth: infinity' \
        -H 'Content-Type: application/xml' --data "$propfind" "$contacts")" 403 400
    check "d: PUT of an invalid vCard -> 400 (or 415)" in_set "$(code -X PUT -H 'Content-Type: text/vcard; charset=utf-8' \
        -H 'If-None-Match: *' --data-binary $'BEGIN:VCARD\r\nVERSION:3.0\r\nthis is no vCard\r\n' "${contacts}bad-card.vcf")" 400 415
    check "d: PUT of an event into the address book -> 400, 403 or 415" in_set "$(code -X PUT -H 'Content-Type: text/calendar' \
        -H 'If-None-Match: *' --data-binary @"$e1/dav-event-3.ics" "${contacts}wrong-kind.ics")" 400 403 415
    check "d: PUT of a vCard into the calendar -> 400, 403 or 415" in_set "$(code -X PUT -H 'Content-Type: text/vcard' \
        -H 'If-None-Match: *' --data-binary @"$c1/dav-contact-1.vcf" "${calendar}wrong-kind.vcf")" 400 403 415
    if [ "$existing" != "$direct" ]; then
        check "d: PUT with a wrong If-Match -> 412" in_set "$(code -X PUT -H 'Content-Type: text/vcard' \
            -H 'If-Match: "no-such-etag"' --data-binary @"$c1/dav-contact-2.vcf" "$existing")" 412
        check "d: PUT with If-None-Match: * on an existing item -> 412" in_set "$(code -X PUT -H 'Content-Type: text/vcard' \
            -H 'If-None-Match: *' --data-binary @"$c1/dav-contact-2.vcf" "$existing")" 412
        check "d: DELETE with a wrong If-Match -> 412" in_set "$(code -X DELETE -H 'If-Match: "no-such-etag"' "$existing")" 412
    else
        fail "d: no item href found in the address book listing"
    fi
    check "d: GET of another user's collection -> 403 or 404" in_set "$(code "$bob_contacts")" 403 404
    check "d: PROPFIND of another user's collection -> 403 or 404" in_set "$(code -X PROPFIND -H 'Depth: 1' \
        -H 'Content-Type: application/xml' --data "$propfind" "$bob_contacts")" 403 404
    check "d: PUT into another user's collection -> 403 or 404" in_set "$(code -X PUT -H 'Content-Type: text/vcard' \
        -H 'If-None-Match: *' --data-binary @"$c1/dav-contact-2.vcf" "${bob_contacts}intruder.vcf")" 403 404
    check "d: a plain MKCOL (no address book or calendar) -> 403 (or 405)" in_set \
        "$(code -X MKCOL "$direct/$prefix$user/newcollection/")" 403 405
    check "d: MKCALENDAR of an existing collection -> 405 (or 403, 409)" in_set \
        "$(code -X MKCALENDAR "$direct/$prefix$user/calendar/")" 403 405 409
    check "d: no credentials -> 401 with a Basic challenge" eval '[ "$(curl -s -o /dev/null -D "$work/d.headers" \
        -w "%{http_code}" -X PROPFIND -H "Depth: 0" "$contacts")" = 401 ] && grep -qi "^WWW-Authenticate: *Basic" "$work/d.headers"'
    check "d: a wrong password -> 401" in_set "$(curl -s -o /dev/null -w '%{http_code}' -u "$user:wrong" -X PROPFIND \
        -H 'Depth: 0' "$contacts")" 401
    if [ "$target" = ours ]; then
        check "d: a tenant without DAV -> 403 or 404" in_set "$(curl -s -o /dev/null -w '%{http_code}' -u carol:pw \
            -X PROPFIND -H 'Depth: 0' "$direct/dav/davoff/carol/contacts/")" 403 404
        # redirect DISCOVERY-PATH METHOD: status and Location of the answer, the Location as a path.
        redirect() { curl -s -o /dev/null -D - -X "$2" "$direct$1" | tr -d '\r' | awk 'NR == 1 { s = $2 }
            tolower($1) == "location:" { l = $2; sub("^https?://[^/]*", "", l) } END { print s, l }'; }
        check "d: GET /.well-known/carddav -> 301 to /dav/default/" test "$(redirect /.well-known/carddav GET)" = "301 /dav/default/"
        check "d: PROPFIND /.well-known/caldav -> 301 to /dav/default/" test "$(redirect /.well-known/caldav PROPFIND)" = "301 /dav/default/"
        # The user's storage quota (issue 35): a user at it gets 507 with RFC 4331's precondition, and the log says why.
        admin tenant set "$tenant" --max-user-bytes 1
        printf 'BEGIN:VCARD\r\nVERSION:3.0\r\nUID:over-quota\r\nFN:Over Quota\r\nN:Quota;Over;;;\r\nEND:VCARD\r\n' \
            >"$work/over-quota.vcf"
        check "d: PUT beyond the user's storage quota -> 507 DAV:quota-not-exceeded" eval '[ "$(code -X PUT \
            -H "Content-Type: text/vcard" -H "If-None-Match: *" --data-binary @"$work/over-quota.vcf" \
            "${contacts}over-quota.vcf")" = 507 ] && grep -q "quota-not-exceeded" "$work/d.body" &&
            grep -q "dav write refused.*limit=user_bytes" "$work/server.log"'
        admin tenant set "$tenant" --max-user-bytes 1073741824
    fi
    check "d: the item counts are unchanged" eval 'server_count_is "$contacts" "$before" &&
        server_count_is "$calendar" "$before_cal" && server_count_is "$bob_contacts" "$before_bob" bob'
fi

"$py" "$proxy_tool" describe "$requests" >"$work/dav-requests.txt" 2>&1
echo "the DAV clients' requests: $work/dav-requests.txt ($(mark) exchanges); ${SECONDS}s in all"
echo "$failures failure(s)"
[ "$failures" -eq 0 ]
