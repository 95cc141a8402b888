#!/usr/bin/env bash
# Many collections per user (issue 38), end to end against the real syncml-server, in well under two minutes:
#   a. a Thunderbird/DAVx5-like CalDAV client with curl: discovery (principal, calendar-home-set), MKCALENDAR "work"
#      with a colour and events and tasks, PROPPATCH rename and recolour, PROPFIND of the home listing it with its
#      properties, a recurring event with an exception and an alarm and a VTODO PUT into it, sync-collection from a
#      token after changes, the privileges and Allow it advertises;
#   b. SyncML phones of the same user: phone A's calendar datastore pointed at "work" by `admin device collection`,
#      phone B naming it in its datastore URI (./calendar?collection=work): each gets exactly the events of "work" (the
#      recurring event once, with its exception; not the task, not the default calendar's event), a CalDAV change in
#      "work" reaches each once, and phone C of the default calendar gets none of it;
#   c. DELETE of the collection: it is gone for CalDAV, both phones get Deletes of what they held from it, then phone A
#      syncs the default calendar again and phone B's Alert for the collection gets 404.
# Environment: SYNCML_BUILD_DIR, SYNCML_TEST_DATABASE_URL; SYNCML_TEST_WORK_DIR (optional).
set -uo pipefail
: "${SYNCML_BUILD_DIR:?}" "${SYNCML_TEST_DATABASE_URL:?}"
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
bin=$SYNCML_BUILD_DIR/src/syncml-server
work=${SYNCML_TEST_WORK_DIR:-$(mktemp -d /tmp/dav-collections.XXXXXX)}/dav-collections
rm -rf "$work"
mkdir -p "$work"
source "$here/lib/checks.bash"

export SYNCML_DATABASE_URL=$SYNCML_TEST_DATABASE_URL SYNCML_DATA_DIR=$work/data
port=$(free_port)
export SYNCML_LISTEN=127.0.0.1:$port SYNCML_METRICS_LISTEN=127.0.0.1:$(free_port)
admin() { "$bin" admin "$@" 2>>"$work/admin.log"; }
"$bin" migrate >>"$work/admin.log" 2>&1 || { echo "FAIL: migrate"; tail "$work/admin.log"; exit 1; }
tenant=coll$$  # a database of an earlier run may have its own
user=alice
admin tenant add "$tenant" >/dev/null && admin tenant set "$tenant" --dav on >/dev/null &&
    admin user add --tenant "$tenant" --user "$user" --password pw >/dev/null ||
    { echo "FAIL: tenant and user"; cat "$work/admin.log"; exit 1; }
"$bin" serve >>"$work/server.log" 2>&1 &
server=$!
trap 'kill -TERM $server 2>/dev/null; wait $server 2>/dev/null' EXIT
for _ in $(seq 1 120); do curl -fsS "http://$SYNCML_LISTEN/readyz" >/dev/null 2>&1 && break; sleep 0.5; done
curl -fsS "http://$SYNCML_LISTEN/readyz" >/dev/null 2>&1 || { echo "FAIL: server not ready"; tail -20 "$work/server.log"; exit 1; }

base=http://$SYNCML_LISTEN
home=/dav/$tenant/$user/
work_url=${home}work/
ns='xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav" xmlns:cs="http://calendarserver.org/ns/" xmlns:ical="http://apple.com/ns/ical/"'
# dav METHOD PATH [BODY [HEADER...]]: the status code; the body in $work/body, the headers in $work/headers.
dav() {
    local method=$1 path=$2 body=${3:-}
    shift 3 2>/dev/null || shift $#
    local args=(-s -o "$work/body" -D "$work/headers" -w '%{http_code}' -u "$user:pw" -X "$method")
    for h in "$@"; do args+=(-H "$h"); done
    [ -n "$body" ] && args+=(-H 'Content-Type: application/xml; charset=utf-8' --data-binary "$body")
    curl "${args[@]}" "$base$path"
}
put() {  # put PATH FILE [HEADER...]: the status code of a PUT of FILE as text/calendar
    local path=$1 file=$2
    shift 2
    local args=(-s -o "$work/body" -D "$work/headers" -w '%{http_code}' -u "$user:pw" -X PUT
        -H 'Content-Type: text/calendar; charset=utf-8' --data-binary "@$file")
    for h in "$@"; do args+=(-H "$h"); done
    curl "${args[@]}" "$base$path"
}
body_has() { grep -q -- "$1" "$work/body"; }
token_of() { sed -n 's:.*<d\:sync-token>\([^<]*\)</d\:sync-token>.*:\1:p' "$work/body" | head -1; }
hrefs() { grep -o '<d:href>[^<]*</d:href>' "$work/body" | sed 's:<[^>]*>::g' | sort | tr '\n' ' '; }
phone() {  # phone NAME DEVICE STORE MODE: one session of a scripted phone (dav_collections_phone.py), its line
    python3 "$here/dav_collections_phone.py" "$work/phone-$1.json" "$base" "$tenant" "$user" pw "$2" "$3" "$4" \
        2>>"$work/phone.log" | tee -a "$work/phones.log"
}
field() { tr ';' '\n' <<<"$1" | sed -n "s/^$2=//p"; }  # field LINE KEY: a value of a phone's line

# ---- a. the CalDAV client -----------------------------------------------------------------------------------
t0=$SECONDS
check "a: discovery names the calendar home" eval '[ "$(dav PROPFIND "/dav/$tenant/principals/$user/" \
    "<d:propfind $ns><d:prop><c:calendar-home-set/></d:prop></d:propfind>" "Depth: 0")" = 207 ] && body_has "$home"'
check "a: OPTIONS on a new URL allows MKCALENDAR and MKCOL, DAV says extended-mkcol" eval \
    '[ "$(dav OPTIONS "$work_url")" = 200 ] && grep -qi "^Allow:.*MKCALENDAR" "$work/headers" &&
     grep -qi "^DAV:.*extended-mkcol" "$work/headers" && ! grep -qi "^Allow:.*MOVE" "$work/headers"'
check "a: the home grants bind (calendars can be made there)" eval '[ "$(dav PROPFIND "$home" \
    "<d:propfind $ns><d:prop><d:current-user-privilege-set/></d:prop></d:propfind>" "Depth: 0")" = 207 ] &&
    body_has "<d:bind/>" && ! body_has "<d:write-properties/>"'
mkcalendar="<c:mkcalendar $ns><d:set><d:prop><d:displayname>Work</d:displayname>
<ical:calendar-color>#1E90FFFF</ical:calendar-color><c:supported-calendar-component-set><c:comp name=\"VEVENT\"/>
<c:comp name=\"VTODO\"/></c:supported-calendar-component-set></d:prop></d:set></c:mkcalendar>"
check "a: MKCALENDAR work with a name, colour, events and tasks -> 201" test "$(dav MKCALENDAR "$work_url" "$mkcalendar")" = 201
check "a: MKCALENDAR work again -> 405" test "$(dav MKCALENDAR "$work_url" "$mkcalendar")" = 405
proppatch="<d:propertyupdate $ns><d:set><d:prop><d:displayname>Office</d:displayname>
<ical:calendar-color>#FF8800FF</ical:calendar-color></d:prop></d:set></d:propertyupdate>"
check "a: PROPPATCH rename and recolour -> 207, 200 for each" eval '[ "$(dav PROPPATCH "$work_url" "$proppatch")" = 207 ] &&
    [ "$(grep -o "HTTP/1.1 200" "$work/body" | wc -l)" = 1 ] && ! body_has "HTTP/1.1 4"'
listing="<d:propfind $ns><d:prop><d:resourcetype/><d:displayname/><ical:calendar-color/>
<c:supported-calendar-component-set/><cs:getctag/></d:prop></d:propfind>"
check "a: PROPFIND of the home lists work with its new name and colour" eval '[ "$(dav PROPFIND "$home" "$listing" \
    "Depth: 1")" = 207 ] && body_has "$work_url" && body_has "<d:displayname>Office</d:displayname>" &&
    body_has "#FF8800FF" && body_has "${home}calendar/"'
check "a: work takes VEVENT and VTODO, the default calendar VEVENT only" eval '[ "$(dav PROPFIND "$work_url" \
    "$listing" "Depth: 0")" = 207 ] && body_has "name=\"VTODO\"" && [ "$(dav PROPFIND "${home}calendar/" "$listing" \
    "Depth: 0")" = 207 ] && ! body_has "name=\"VTODO\""'
sync_body() { echo "<d:sync-collection $ns><d:sync-token>$1</d:sync-token><d:sync-level>1</d:sync-level><d:prop><d:getetag/></d:prop></d:sync-collection>"; }
dav REPORT "$work_url" "$(sync_body "")" >/dev/null
token0=$(token_of)
check "a: an initial sync-collection of work gives a token" test -n "$token0"

cat >"$work/standup.ics" <<'EOF'
BEGIN:VCALENDAR
VERSION:2.0
PRODID:-//Mozilla.org/NONSGML Mozilla Calendar V1.1//EN
BEGIN:VEVENT
UID:standup-1@example.org
DTSTAMP:20260101T080000Z
DTSTART:20260105T090000Z
DTEND:20260105T091500Z
RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=8
SUMMARY:Standup
BEGIN:VALARM
ACTION:DISPLAY
TRIGGER:-PT10M
DESCRIPTION:Standup
END:VALARM
END:VEVENT
BEGIN:VEVENT
UID:standup-1@example.org
DTSTAMP:20260101T080000Z
RECURRENCE-ID:20260112T090000Z
DTSTART:20260112T100000Z
DTEND:20260112T101500Z
SUMMARY:Standup
END:VEVENT
END:VCALENDAR
EOF
cat >"$work/report.ics" <<'EOF'
BEGIN:VCALENDAR
VERSION:2.0
PRODID:-//DAVx5//EN
BEGIN:VTODO
UID:report-1@example.org
DTSTAMP:20260101T080000Z
DUE:20260110T170000Z
SUMMARY:Write report
END:VTODO
END:VCALENDAR
EOF
cat >"$work/dentist.ics" <<'EOF'
BEGIN:VCALENDAR
VERSION:2.0
PRODID:-//test//EN
BEGIN:VEVENT
UID:dentist-1@example.org
DTSTAMP:20260101T080000Z
DTSTART:20260107T150000Z
DTEND:20260107T160000Z
SUMMARY:Dentist
END:VEVENT
END:VCALENDAR
EOF
sed -i 's/$/\r/' "$work"/*.ics
check "a: PUT of a recurring event with an exception and an alarm into work -> 201" \
    test "$(put "${work_url}standup.ics" "$work/standup.ics" 'If-None-Match: *')" = 201
check "a: PUT of a VTODO into work -> 201" test "$(put "${work_url}report.ics" "$work/report.ics" 'If-None-Match: *')" = 201
check "a: PUT of the VTODO into the default calendar -> 403 supported-calendar-component" eval \
    '[ "$(put "${home}calendar/report.ics" "$work/report.ics")" = 403 ] && body_has "supported-calendar-component"'
check "a: PUT of an event into the default calendar -> 201" test "$(put "${home}calendar/dentist.ics" "$work/dentist.ics")" = 201
check "a: GET of the event from work keeps its exception and alarm" eval '[ "$(dav GET "${work_url}standup.ics")" = 200 ] &&
    [ "$(grep -c "^BEGIN:VEVENT" "$work/body")" = 2 ] && body_has "RECURRENCE-ID" && body_has "TRIGGER:-PT10M" &&
    body_has "RRULE:FREQ=WEEKLY"'
check "a: sync-collection from the first token lists both new items" eval '[ "$(dav REPORT "$work_url" \
    "$(sync_body "$token0")")" = 207 ] && [ "$(hrefs)" = "${work_url}report.ics ${work_url}standup.ics " ]'
token1=$(token_of)
echo "  (the CalDAV part took $((SECONDS - t0)) s)"

# ---- b. SyncML phones ------------------------------------------------------------------------------------------
# Phone A comes into being with a contacts sync; an operator then points its calendar at work before its first
# calendar sync (so that its slow sync brings nothing of the default calendar into work).
a=$(phone A-contacts IMEI:A contacts slow)
check "b: phone A's first (contacts) sync completes" test "$(field "$a" completed)" = yes
check "b: admin device collection points phone A's calendar at work" eval 'admin device collection --tenant "$tenant" \
    --user "$user" --device IMEI:A --datastore calendar --collection work >"$work/admin.out" &&
    grep -q "$(printf "^calendar\twork\$")" "$work/admin.out"'
check "b: a task datastore cannot be pointed at an address book" eval '! admin device collection --tenant "$tenant" \
    --user "$user" --device IMEI:A --datastore tasks --collection contacts >/dev/null'
shown=$(admin device collection --tenant "$tenant" --user "$user" --device IMEI:A --json)
check "b: device collection --json names work as phone A's calendar" test \
    "$(json_field "$shown" '[c["collection"] for c in j["collections"] if c["datastore"] == "calendar"]')" = "['work']"
a=$(phone A IMEI:A calendar slow)
check "b: phone A's calendar gets exactly the events of work (the recurring one, once)" \
    test "$(field "$a" held)" = Standup
b=$(phone B IMEI:B "calendar?collection=work" slow)
check "b: phone B (./calendar?collection=work) gets exactly the events of work" test "$(field "$b" held)" = Standup
c=$(phone C IMEI:C calendar slow)
check "b: phone C (default calendar) gets the default calendar's event only" test "$(field "$c" held)" = Dentist

# A CalDAV client edits the recurring event and adds one: each phone of work gets both once, phone C nothing.
sed -i 's/^SUMMARY:Standup\r$/SUMMARY:Daily standup\r/' "$work/standup.ics"
sed -e 's/dentist-1/review-1/' -e 's/Dentist/Review/' "$work/dentist.ics" >"$work/review.ics"
check "b: CalDAV edits the recurring event in work -> 204" test "$(put "${work_url}standup.ics" "$work/standup.ics")" = 204
check "b: CalDAV adds an event to work -> 201" test "$(put "${work_url}review.ics" "$work/review.ics")" = 201
a=$(phone A IMEI:A calendar two-way)
check "b: phone A's two-way sync gets the edit and the new event" \
    test "$(field "$a" alert) $(field "$a" held)" = "200 Daily standup|Review"
b=$(phone B IMEI:B "calendar?collection=work" two-way)
check "b: phone B's two-way sync gets them too" test "$(field "$b" held)" = "Daily standup|Review"
check "b: each change reached phone B once (one Replace, one Add)" test "$(field "$b" replaces)/$(field "$b" adds)" = "Daily standup/Review"
b=$(phone B IMEI:B "calendar?collection=work" two-way)
check "b: phone B's next sync gets nothing again" test "$(field "$b" adds)$(field "$b" replaces)$(field "$b" deletes)" = ""
c=$(phone C IMEI:C calendar two-way)
check "b: phone C of the default calendar gets none of it" test "$(field "$c" adds)$(field "$c" replaces)$(field "$c" deletes)" = ""
check "b: sync-collection from the later token lists the edit and the new event" eval '[ "$(dav REPORT "$work_url" \
    "$(sync_body "$token1")")" = 207 ] && [ "$(hrefs)" = "${work_url}review.ics ${work_url}standup.ics " ]'

# ---- c. DELETE of the collection ---------------------------------------------------------------------------------
check "c: DELETE of the default calendar -> 403" test "$(dav DELETE "${home}calendar/")" = 403
check "c: DELETE of work -> 204" test "$(dav DELETE "$work_url")" = 204
check "c: work is gone for CalDAV (PROPFIND 404, not in the home)" eval '[ "$(dav PROPFIND "$work_url" "$listing" \
    "Depth: 0")" = 404 ] && [ "$(dav PROPFIND "$home" "$listing" "Depth: 1")" = 207 ] && ! body_has "$work_url"'
a=$(phone A IMEI:A calendar two-way)
check "c: phone A gets Deletes of what it held from work" test "$(field "$a" deletes)/$(field "$a" held)" = "Daily standup|Review/"
b=$(phone B IMEI:B "calendar?collection=work" two-way)
check "c: phone B too" test "$(field "$b" deletes)/$(field "$b" held)" = "Daily standup|Review/"
a=$(phone A IMEI:A calendar two-way)
check "c: then phone A syncs the default calendar (a slow sync, 508) and gets its event" \
    test "$(field "$a" alert) $(field "$a" held)" = "508 Dentist"
b=$(phone B IMEI:B "calendar?collection=work" two-way)
check "c: and phone B's Alert for the collection that is no more gets 404" test "$(field "$b" alert)" = 404
check "c: phone A's calendar is the default again" eval 'admin device collection --tenant "$tenant" --user "$user" \
    --device IMEI:A | grep -q "^calendar.calendar (default)"'
check "c: a new work is a new collection, empty" eval '[ "$(dav MKCALENDAR "$work_url" "$mkcalendar")" = 201 ] &&
    [ "$(dav REPORT "$work_url" "$(sync_body "")")" = 207 ] && [ "$(hrefs)" = "" ]'
check "no request was answered 5xx" eval '! grep -q "status=5[0-9][0-9]" "$work/server.log"'
echo "dav_collections took $((SECONDS - t0)) s"
[ $failures -eq 0 ] || { echo "server log: $work/server.log"; tail -20 "$work/server.log"; }
echo "$failures failure(s)"
exit $((failures > 0))
