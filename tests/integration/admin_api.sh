#!/usr/bin/env bash
# The HTTP admin API (issue 17) against the real binary and database: tokens from the CLI, every endpoint with curl,
# tenant-scoped tokens that see only their tenant (404 for others), bad input (no or wrong token, malformed JSON, bad
# or unknown members, unknown tenant, duplicates, a body too large) answered with clear JSON errors and nothing
# changed, export and import of a user's datastores (round trip into a second user, idempotent re-import, a changed
# item replaced, rejected items, 415 and 400 bodies), the audit log (API and CLI), the request metrics and the
# OpenAPI document.
# Environment: SYNCML_BUILD_DIR, SYNCML_TEST_DATABASE_URL, SYNCML_SOURCE_DIR, SYNCML_TEST_WORK_DIR (optional).
set -uo pipefail
source_dir=${SYNCML_SOURCE_DIR:?SYNCML_SOURCE_DIR not set}
bin=${SYNCML_BUILD_DIR:?SYNCML_BUILD_DIR not set}/src/syncml-server
database_url=${SYNCML_TEST_DATABASE_URL:?SYNCML_TEST_DATABASE_URL not set}
work=${SYNCML_TEST_WORK_DIR:-$(mktemp -d /tmp/admin-api.XXXXXX)}
mkdir -p "$work"
source "$source_dir/tests/integration/lib/checks.bash"
admin() { "$bin" admin "$@" 2>>"$work/admin.err"; }
sql() { psql "$database_url" -Atc "$1"; }

# api METHOD PATH [BODY] [TOKEN] [CONTENT-TYPE]: the status line's code, then the body, in $work/reply.
api() {
    local token=${4-$all_token} type=${5-application/json}
    local args=(-sS -o "$work/reply" -w '%{http_code}' -X "$1" -D "$work/headers")
    [ -n "$token" ] && args+=(-H "Authorization: Bearer $token")
    [ -n "${3-}" ] && args+=(-H "Content-Type: $type" --data-binary "$3")
    curl "${args[@]}" "http://$SYNCML_ADMIN_LISTEN$2"
}
body() { cat "$work/reply"; }
field() { json_field "$(body)" "$1"; }
phone() {
    PYTHONPATH="$source_dir/tests/integration/lib" python3 - "$work/phone.json" "http://$SYNCML_LISTEN" "$@" <<'PY'
import json, os, sys
import syncml_client as sc
from syncml_phone import Phone
state_file, base, steps = sys.argv[1], sys.argv[2], sys.argv[3:]
p = Phone(base, "acme", "alice", os.environ.get("PHONE_PASSWORD", "pw"), "api-phone")
if os.path.exists(state_file):
    saved = json.load(open(state_file))
    p.session_id, p.msg_id, p.resp_uri = saved["session_id"], saved["msg_id"], saved["resp_uri"]
for step in steps:
    if step == "sync3":
        print("sync: " + (p.full_sync([("c%d" % i, sc.vcard("Api%d" % i)) for i in range(3)], mode=200) or "done"))
    elif step == "start":
        print("start: " + p.start(mode=200).header_status())
json.dump({"session_id": p.session_id, "msg_id": p.msg_id, "resp_uri": p.resp_uri}, open(state_file, "w"))
PY
}

export SYNCML_DATABASE_URL=$database_url SYNCML_DATA_DIR=$work/data
export SYNCML_LISTEN=127.0.0.1:$(free_port) SYNCML_METRICS_LISTEN=127.0.0.1:$(free_port)
export SYNCML_ADMIN_LISTEN=127.0.0.1:$(free_port)
"$bin" migrate >/dev/null || { echo "FAIL: migrate"; exit 1; }
admin tenant add acme >/dev/null || exit 1
admin tenant add other >/dev/null || exit 1
admin user add --tenant acme --user alice --password pw >/dev/null || exit 1
admin user add --tenant other --user olga --password pw >/dev/null || exit 1

# --- tokens (CLI) ------------------------------------------------------------------------------------------
all_token=$(admin token create --name ops --all)
acme_token=$(admin token create --name acme-admin --tenant acme)
check "token create prints the token once" bash -c "[[ '$all_token' =~ ^syncml_[0-9a-f]{64}$ && '$acme_token' != '$all_token' ]]"
check "a duplicate token name fails (1)" test "$(status_of admin token create --name ops --all)" = 1
check "a token for an unknown tenant fails (1)" test "$(status_of admin token create --name x --tenant nosuch)" = 1
check "token create needs --tenant or --all (2)" test "$(status_of admin token create --name x)" = 2
check "token list names both, never the token" bash -c "out=\$('$bin' admin token list 2>/dev/null);
    grep -qP '^acme-admin\ttenant=acme\t' <<<\"\$out\" && grep -qP '^ops\ttenant=\*\t' <<<\"\$out\" &&
    ! grep -q syncml_ <<<\"\$out\""
check "only hashes are stored" test "$(sql "SELECT count(*) FROM admin_tokens WHERE token_sha256 =
    sha256(convert_to('$all_token', 'UTF8'))")" = 1
doomed_token=$(admin token create --name doomed --all)
check "token delete without --yes is refused (2)" test "$(status_of admin token delete --name doomed)" = 2
check "token delete" bash -c "'$bin' admin token delete --name doomed --yes >/dev/null 2>&1"

"$bin" serve >>"$work/server.log" 2>&1 &
server_pid=$!
trap 'kill -TERM $server_pid 2>/dev/null; wait $server_pid 2>/dev/null' EXIT
for _ in $(seq 1 120); do curl -fsS "http://$SYNCML_LISTEN/readyz" >/dev/null 2>&1 && break; sleep 0.5; done
check "the phone syncs three contacts" test "$(phone sync3)" = "sync: done"

# --- the listener, the document, authentication ------------------------------------------------------------
check "the OpenAPI document needs no token" test "$(api GET /admin/openapi.json '' '')" = 200
check "it is the document in the repository" cmp -s "$work/reply" "$source_dir/src/admin/api/admin_openapi.json"
check "it is OpenAPI 3 and lists the user routes" test "$(field "j['openapi'][:2], '/admin/v1/tenants/{tenant}/users/{user}' in j['paths']")" = "('3.', True)"
check "the SyncML port does not serve the admin API" test "$(curl -s -o /dev/null -w '%{http_code}' "http://$SYNCML_LISTEN/admin/v1/tenants")" = 404
check "no token: 401" test "$(api GET /admin/v1/tenants '' '')" = 401
check "with WWW-Authenticate: Bearer" grep -qi '^WWW-Authenticate: Bearer' "$work/headers"
check "and a JSON error" test "$(field "'token' in j['error']")" = True
check "a wrong token: 401" test "$(api GET /admin/v1/tenants '' "syncml_$(printf '0%.0s' $(seq 64))")" = 401
check "a malformed token: 401" test "$(api GET /admin/v1/tenants '' garbage)" = 401
check "the deleted token: 401" test "$(api GET /admin/v1/tenants '' "$doomed_token")" = 401
check "an unknown path: 404" test "$(api GET /admin/v1/nothing)" = 404
check "a wrong method: 405 with Allow" bash -c "test \"\$(curl -s -o /dev/null -w '%{http_code}' -X PUT \
    -H 'Authorization: Bearer $all_token' http://$SYNCML_ADMIN_LISTEN/admin/v1/tenants)\" = 405 &&
    curl -s -D - -o /dev/null -X PUT http://$SYNCML_ADMIN_LISTEN/admin/v1/tenants | grep -qi '^Allow: GET, POST'"

# --- tenants -----------------------------------------------------------------------------------------------
check "tenant list" test "$(api GET /admin/v1/tenants)" = 200
check "lists every tenant" test "$(field "sorted(t['name'] for t in j)")" = "['acme', 'default', 'other']"
api GET /admin/v1/tenants '' "$acme_token" >/dev/null
check "a tenant token lists only its tenant" test "$(field "[t['name'] for t in j]")" = "['acme']"
check "tenant create: 201" test "$(api POST /admin/v1/tenants '{"name": "newt", "max_sessions": 5}')" = 201
check "answers the new tenant" test "$(field "j['name'], j['max_sessions'], j['users']")" = "('newt', 5, 0)"
check "a duplicate tenant: 409" test "$(api POST /admin/v1/tenants '{"name": "newt"}')" = 409
check "malformed JSON: 400" test "$(api POST /admin/v1/tenants '{"name": "x",}')" = 400
check "saying where" test "$(field "j['error']")" = "'malformed JSON: expected a member name in double quotes at byte 13'"
check "a member of the wrong type: 400" test "$(api POST /admin/v1/tenants '{"name": "x", "max_sessions": "5"}')" = 400
check "naming the member" test "$(field "j['field'], j['error']")" = "('max_sessions', 'max_sessions must be a whole number, not a string')"
check "an unknown member: 400" test "$(api POST /admin/v1/tenants '{"name": "x", "max_sesions": 5}')" = 400
check "naming it" test "$(field "j['field']")" = "'max_sesions'"
check "a bad tenant name: 400" test "$(api POST /admin/v1/tenants '{"name": "a b"}')" = 400
check "a bad value: 400" test "$(api POST /admin/v1/tenants '{"name": "x", "conflict_policy": "loudest"}')" = 400
check "not JSON: 415" test "$(api POST /admin/v1/tenants 'name=x' "$all_token" application/x-www-form-urlencoded)" = 415
big=$(python3 -c "print('{\"name\": \"' + 'x' * 70000 + '\"}')")
check "a body over 64 KiB: 413" test "$(api POST /admin/v1/tenants "$big")" = 413
check "a tenant token cannot create tenants: 403" test "$(api POST /admin/v1/tenants '{"name": "mine"}' "$acme_token")" = 403
check "none of the refused creates created anything" test "$(sql "SELECT string_agg(name, ',' ORDER BY name) FROM tenants")" = \
    "acme,default,newt,other"
check "tenant show" test "$(api GET /admin/v1/tenants/acme)" = 200
check "with its usage" test "$(field "j['users'], j['devices']")" = "(1, 1)"
check "an unknown tenant: 404" test "$(api GET /admin/v1/tenants/nosuch)" = 404
nosuch_error=$(body)
check "another tenant with a tenant token: 404" test "$(api GET /admin/v1/tenants/other '' "$acme_token")" = 404
check "that reads as if it did not exist" test "$(body | sed 's/other/nosuch/')" = "$nosuch_error"
# Limits, auth modes and the session binding are the operator's (issue 35); the tenant's own policy is its admin's.
check "a tenant token cannot raise its tenant's limits: 403" \
    test "$(api PATCH /admin/v1/tenants/acme '{"max_sessions": 100000}' "$acme_token")" = 403
check "nor switch its auth modes: 403" test "$(api PATCH /admin/v1/tenants/acme '{"auth_md5": false}' "$acme_token")" = 403
check "nor its session binding: 403" \
    test "$(api PATCH /admin/v1/tenants/acme '{"session_binding": "token-or-address"}' "$acme_token")" = 403
check "nor its users' storage quota: 403" \
    test "$(api PATCH /admin/v1/tenants/acme '{"max_user_bytes": 0}' "$acme_token")" = 403
check "but sets its conflict policy: 200" \
    test "$(api PATCH /admin/v1/tenants/acme '{"conflict_policy": "server_wins"}' "$acme_token")" = 200
check "tenant update: 200" test "$(api PATCH /admin/v1/tenants/newt '{"auth_md5": false, "max_devices_per_user": 3}')" = 200
check "changes only what it names" test "$(field "j['auth_md5'], j['max_devices_per_user'], j['max_sessions']")" = "(False, 3, 5)"
check "a storage quota beyond 2^31 bytes: 200" test "$(api PATCH /admin/v1/tenants/newt '{"max_user_bytes": 5368709120}')" = 200
check "is kept whole" test "$(field "j['max_user_bytes']")" = 5368709120
check "a negative storage quota: 400" test "$(api PATCH /admin/v1/tenants/newt '{"max_user_bytes": -1}')" = 400
check "a bad update: 400" test "$(api PATCH /admin/v1/tenants/newt '{"max_sessions": 0}')" = 400
check "changes nothing" test "$(sql "SELECT max_sessions || ',' || auth_md5 FROM tenants WHERE name = 'newt'")" = "5,false"
check "update of another tenant with a tenant token: 404" \
    test "$(api PATCH /admin/v1/tenants/other '{"max_sessions": 1}' "$acme_token")" = 404
check "changes nothing there" test "$(sql "SELECT max_sessions FROM tenants WHERE name = 'other'")" = 100

# --- users -------------------------------------------------------------------------------------------------
check "user create: 201" test "$(api POST /admin/v1/tenants/acme/users '{"name": "bob", "password": "bob pw"}')" = 201
check "answers the user with its datastores" test "$(field "j['name'], [d['name'] for d in j['datastores']]")" = \
    "('bob', ['calendar', 'contacts', 'memos', 'tasks'])"
check "a duplicate user: 409" test "$(api POST /admin/v1/tenants/acme/users '{"name": "bob", "password": "x"}')" = 409
check "a user without password: 400" test "$(api POST /admin/v1/tenants/acme/users '{"name": "carl"}')" = 400
check "naming password" test "$(field "j['field']")" = "'password'"
check "a user in an unknown tenant: 404" test "$(api POST /admin/v1/tenants/nosuch/users '{"name": "x", "password": "x"}')" = 404
check "a user in another tenant with a tenant token: 404" \
    test "$(api POST /admin/v1/tenants/other/users '{"name": "mallory", "password": "x"}' "$acme_token")" = 404
check "no user was added by the refused requests" test "$(sql "SELECT string_agg(u.name, ',' ORDER BY u.name) FROM users u")" = \
    "alice,bob,olga"
check "the tenant token works in its tenant" test "$(api GET /admin/v1/tenants/acme/users '' "$acme_token")" = 200
check "user list" test "$(field "[(u['name'], u['disabled']) for u in j]")" = "[('alice', False), ('bob', False)]"
check "user show: 200" test "$(api GET /admin/v1/tenants/acme/users/alice)" = 200
check "with usage: items per datastore, devices, last sync" test "$(field \
    "[d['items'] for d in j['datastores'] if d['name'] == 'contacts'], j['devices'], j['last_sync'] is not None")" = \
    "([3], 1, True)"
check "and the bytes its items take, counted by the writes, with the tenant's quota" test "$(field \
    "j['stored_bytes'] == sum(d['stored_bytes'] for d in j['datastores']), j['stored_bytes'], j['max_user_bytes']")" = \
    "(True, $(sql "SELECT sum(octet_length(i.content)) FROM users u JOIN items i ON i.tenant_id = u.tenant_id
        AND i.user_id = u.user_id WHERE u.name = 'alice' AND NOT i.deleted"), 1073741824)"
check "an unknown user: 404" test "$(api GET /admin/v1/tenants/acme/users/nobody)" = 404
check "says so" test "$(field "j['error']")" = "\"no user 'nobody' in tenant 'acme'\""
check "set password: 204" test "$(api PUT /admin/v1/tenants/acme/users/bob/password '{"password": "new pw"}')" = 204
check "an empty password: 400" test "$(api PUT /admin/v1/tenants/acme/users/bob/password '{"password": ""}')" = 400
check "disable: 204" test "$(api POST /admin/v1/tenants/acme/users/bob/disable)" = 204
check "shows as disabled" test "$(api GET /admin/v1/tenants/acme/users/bob >/dev/null; field "j['disabled']")" = True
check "enable: 204" test "$(api POST /admin/v1/tenants/acme/users/bob/enable)" = 204
check "shows as enabled" test "$(api GET /admin/v1/tenants/acme/users/bob >/dev/null; field "j['disabled']")" = False
check "user delete: 204" test "$(api DELETE /admin/v1/tenants/acme/users/bob)" = 204
check "deleting it again: 404" test "$(api DELETE /admin/v1/tenants/acme/users/bob)" = 404
check "a user of another tenant with a tenant token: 404" test "$(api DELETE /admin/v1/tenants/other/users/olga '' "$acme_token")" = 404
check "olga is still there" test "$(sql "SELECT count(*) FROM users WHERE name = 'olga'")" = 1

# --- devices and sessions ----------------------------------------------------------------------------------
check "device list" test "$(api GET /admin/v1/tenants/acme/users/alice/devices)" = 200
check "names the phone" test "$(field "[(d['device'], d['datastores']) for d in j]")" = "[('api-phone', 1)]"
check "device show" test "$(api GET /admin/v1/tenants/acme/users/alice/devices/api-phone)" = 200
check "with its datastore view" test "$(field "[(d['datastore'], d['mapped_items'], d['needs_slow_sync']) for d in j['datastores']]")" = \
    "[('contacts', 3, False)]"
check "an unknown device: 404" test "$(api GET /admin/v1/tenants/acme/users/alice/devices/nothing)" = 404
win=/admin/v1/tenants/acme/users/alice/devices/api-phone/window
check "device window: 200" test "$(api GET $win)" = 200
check "is the tenant's until the device has one" test "$(field "j['source'], j['window_past_days']")" = "('tenant', 0)"
check "device window set: 200" test "$(api PUT $win '{"window_past_days": 30, "window_future_days": 365}')" = 200
check "is the device's own, the rest as before" test \
    "$(field "j['source'], j['window_past_days'], j['window_future_days'], j['window_max_items']")" = "('device', 30, 365, 0)"
check "stored on the device" test "$(sql "SELECT window_past_days FROM devices WHERE device_uri = 'api-phone'")" = 30
check "a negative value: 400" test "$(api PUT $win '{"window_max_items": -1}')" = 400
check "an unknown member: 400" test "$(api PUT $win '{"past_days": 3}')" = 400
check "an empty change: 400" test "$(api PUT $win '{}')" = 400
check "of another tenant with a tenant token: 404" test \
    "$(api GET /admin/v1/tenants/other/users/alice/devices/api-phone/window '' "$acme_token")" = 404
check "inherit: 200" test "$(api PUT $win '{"inherit": true}')" = 200
check "the tenant's again" test "$(field "j['source']")" = "'tenant'"
check "the device's own is gone" test "$(sql "SELECT window_past_days IS NULL FROM devices WHERE device_uri = 'api-phone'")" = t
check "device reset" test "$(api POST /admin/v1/tenants/acme/devices/api-phone/reset)" = 200
check "resets one device" test "$(field "j['devices_reset']")" = 1
check "its next sync is slow" test "$(sql "SELECT bool_and(needs_slow_sync) FROM device_stores")" = t
check "the phone starts a session" test "$(phone start)" = "start: 212"
check "session list" test "$(api GET '/admin/v1/tenants/acme/sessions?user=alice')" = 200
session=$(field "[s['id'] for s in j if not s['finished']][0]")
check "shows the open session" bash -c "[[ '$session' =~ ^[0-9]+$ ]]"
check "sessions of another tenant with a tenant token: 404" test "$(api GET /admin/v1/tenants/other/sessions '' "$acme_token")" = 404
check "session kill: 204" test "$(api DELETE "/admin/v1/tenants/acme/sessions/$session")" = 204
check "killing it again: 404" test "$(api DELETE "/admin/v1/tenants/acme/sessions/$session")" = 404
check "a session id that is no number: 404" test "$(api DELETE /admin/v1/tenants/acme/sessions/x1)" = 404
check "device delete: 204" test "$(api DELETE /admin/v1/tenants/acme/users/alice/devices/api-phone)" = 204
check "the user's items stay" test "$(api GET /admin/v1/tenants/acme/users/alice >/dev/null; field "j['devices'], [d['items'] for d in j['datastores'] if d['name'] == 'contacts']")" = \
    "(0, [3])"

# --- export and import of a user's data --------------------------------------------------------------------
u=/admin/v1/tenants/acme/users
count_items() {  # count_items USER KIND: live items of acme's USER in datastore KIND
    sql "SELECT count(*) FROM items i JOIN datastores ds USING (tenant_id, user_id, datastore_id) JOIN users us
        USING (tenant_id, user_id) JOIN tenants t USING (tenant_id) WHERE t.name = 'acme' AND us.name = '$1'
        AND ds.kind = '$2' AND NOT i.deleted"
}
check "export of alice's contacts: 200" test "$(api GET $u/alice/export/contacts)" = 200
check "as text/vcard" grep -qi '^Content-Type: text/vcard; charset=utf-8' "$work/headers"
cp "$work/reply" "$work/alice.vcf"
check "with the phone's three vCards 3.0" test "$(grep -c '^BEGIN:VCARD' "$work/alice.vcf")/$(grep -c '^VERSION:3.0' \
    "$work/alice.vcf")/$(grep -c '^FN:Api' "$work/alice.vcf")" = 3/3/3
printf '%s\r\n' BEGIN:VCALENDAR VERSION:2.0 PRODID:-//test//EN BEGIN:VTIMEZONE TZID:Europe/Berlin BEGIN:STANDARD \
    DTSTART:19701025T030000 TZOFFSETFROM:+0200 TZOFFSETTO:+0100 END:STANDARD END:VTIMEZONE BEGIN:VEVENT UID:zoned-1 \
    'DTSTART;TZID=Europe/Berlin:20261210T090000' SUMMARY:Standup END:VEVENT BEGIN:VEVENT UID:weekly-1 \
    DTSTART:20261201T120000Z RRULE:FREQ=WEEKLY\;COUNT=5 SUMMARY:Lunch END:VEVENT BEGIN:VEVENT UID:weekly-1 \
    RECURRENCE-ID:20261208T120000Z DTSTART:20261208T130000Z 'SUMMARY:Lunch later' END:VEVENT END:VCALENDAR \
    >"$work/in.ics"
check "calendar import: 200" test "$(api POST $u/alice/import/calendar "@$work/in.ics" "$all_token" text/calendar)" = 200
check "answers what it did" test "$(field "j['datastore'], j['items'], j['added'], j['updated'], j['unchanged'], j['rejected']")" = \
    "('calendar', 2, 2, 0, 0, [])"
check "export of the calendar: 200" test "$(api GET $u/alice/export/calendar)" = 200
check "as text/calendar" grep -qi '^Content-Type: text/calendar; charset=utf-8' "$work/headers"
cp "$work/reply" "$work/alice.ics"
check "one VCALENDAR with both events, the exception and the time zone once" test "$(grep -c '^BEGIN:VCALENDAR' \
    "$work/alice.ics") $(grep -c '^BEGIN:VEVENT' "$work/alice.ics") $(grep -c '^BEGIN:VTIMEZONE' "$work/alice.ics")" = "1 3 1"
check "memos import: 200" test "$(api POST $u/alice/import/memos '["Shopping: milk", "Ideas\nsecond line"]')" = 200
check "adds both" test "$(field "j['added']")" = 2
check "export of the memos: a JSON array of their texts" test "$(api GET $u/alice/export/memos)" = 200
check "as application/json" grep -qi '^Content-Type: application/json' "$work/headers"
check "with their texts" test "$(field "sorted(j)")" = "['Ideas\\nsecond line', 'Shopping: milk']"
cp "$work/reply" "$work/alice.memos"

check "a second user" test "$(api POST $u '{"name": "carla", "password": "pw"}')" = 201
check "import of alice's contacts into carla: 200" \
    test "$(api POST $u/carla/import/contacts "@$work/alice.vcf" "$all_token" 'text/vcard; charset=utf-8')" = 200
check "adds three" test "$(field "j['items'], j['added'], j['updated'], j['unchanged']")" = "(3, 3, 0, 0)"
check "and her calendar" test "$(api POST $u/carla/import/calendar "@$work/alice.ics" "$all_token" text/calendar)" = 200
check "and her memos" test "$(api POST $u/carla/import/memos "@$work/alice.memos")" = 200
for store in contacts calendar memos; do
    api GET $u/carla/export/$store >/dev/null
    case $store in contacts) file=alice.vcf ;; calendar) file=alice.ics ;; memos) file=alice.memos ;; esac
    check "carla's $store export equals alice's" cmp -s "$work/reply" "$work/$file"
done
check "importing the same contacts again: 200" \
    test "$(api POST $u/carla/import/contacts "@$work/alice.vcf" "$all_token" text/vcard)" = 200
check "adds nothing, all unchanged" test "$(field "j['added'], j['updated'], j['unchanged']")" = "(0, 0, 3)"
check "the same calendar again changes nothing either" test "$(api POST $u/carla/import/calendar "@$work/alice.ics" \
    "$all_token" text/calendar >/dev/null; field "j['added'], j['updated'], j['unchanged']")" = "(0, 0, 2)"
check "and the same memos" test "$(api POST $u/carla/import/memos "@$work/alice.memos" >/dev/null; field "j['added'], j['unchanged']")" = "(0, 2)"
check "no duplicates" test "$(count_items carla contacts) $(count_items carla calendar) $(count_items carla memos)" = "3 2 2"
sed 's/^SUMMARY:Standup\r$/SUMMARY:Standup moved\r/' "$work/alice.ics" >"$work/changed.ics"
check "a changed event replaces the stored one" test "$(api POST $u/carla/import/calendar "@$work/changed.ics" "$all_token" \
    text/calendar >/dev/null; field "j['added'], j['updated'], j['unchanged']")" = "(0, 1, 1)"
check "in place" test "$(count_items carla calendar) $(api GET $u/carla/export/calendar >/dev/null; grep -c '^SUMMARY:Standup moved' "$work/reply")" = "2 1"
check "a task in a calendar import is rejected" test "$(api POST $u/carla/import/calendar \
    $'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VTODO\r\nUID:t1\r\nSUMMARY:Taxes\r\nEND:VTODO\r\nEND:VCALENDAR\r\n' \
    "$all_token" text/calendar >/dev/null; field "j['added'], j['rejected']")" = \
    "(0, [{'item': 1, 'error': 'not an event (VEVENT)'}])"
check "a wrong content type: 415" test "$(api POST $u/carla/import/contacts "@$work/alice.vcf" "$all_token" text/plain)" = 415
check "names the right one" test "$(field "j['error']")" = "'the body of a contacts import must be text/vcard'"
check "memos as text: 415" test "$(api POST $u/carla/import/memos 'Shopping' "$all_token" text/plain)" = 415
check "a body that holds no vCard: 400" test "$(api POST $u/carla/import/contacts 'hello' "$all_token" text/vcard)" = 400
check "memos that are no array of strings: 400" test "$(api POST $u/carla/import/memos '["a", 1]')" = 400
check "saying which" test "$(field "j['error']")" = "'memo 2 is a number, not a string'"
check "none of them changed anything" test "$(count_items carla contacts) $(count_items carla calendar) $(count_items carla memos)" = "3 2 2"
check "an unknown datastore: 404" test "$(api GET $u/carla/export/notes)" = 404
check "an unknown user: 404" test "$(api GET $u/nobody/export/contacts)" = 404
check "an import into an unknown user: 404" test "$(api POST $u/nobody/import/contacts "@$work/alice.vcf" "$all_token" text/vcard)" = 404
check "the tenant token exports in its tenant" test "$(api GET $u/alice/export/contacts '' "$acme_token")" = 200
check "but not from another tenant: 404" test "$(api GET /admin/v1/tenants/other/users/olga/export/contacts '' "$acme_token")" = 404
check "nor imports there: 404" test "$(api POST /admin/v1/tenants/other/users/olga/import/contacts "@$work/alice.vcf" \
    "$acme_token" text/vcard)" = 404
check "olga got nothing" test "$(sql "SELECT count(*) FROM items i JOIN datastores ds USING (tenant_id, user_id, datastore_id)
    JOIN users us USING (tenant_id, user_id) WHERE us.name = 'olga'")" = 0
python3 -c "
import sys
for i in range(1000): sys.stdout.write('BEGIN:VCARD\r\nVERSION:3.0\r\nUID:bulk-%d\r\nFN:Bulk %d\r\nN:Bulk;%d;;;\r\nNOTE:%s\r\nEND:VCARD\r\n' % (i, i, i, 'x' * 200))
" >"$work/bulk.vcf"
check "an import over 64 KiB ($(( $(stat -c %s "$work/bulk.vcf") / 1024 )) KiB): 200" \
    test "$(api POST $u/carla/import/contacts "@$work/bulk.vcf" "$all_token" text/vcard)" = 200
check "adds its 1000 contacts" test "$(field "j['added']")" = 1000
head -c $((32 * 1024 * 1024 + 1)) /dev/zero >"$work/huge"
check "an import over 32 MiB: 413" test "$(api POST $u/carla/import/contacts "@$work/huge" "$all_token" text/vcard)" = 413
check "imports are audited as user.import_items" test "$(api GET '/admin/v1/audit?limit=500' >/dev/null; field \
    "sorted(set((a['target'], a['result']) for a in j if a['action'] == 'user.import_items'))")" = \
    "[('alice', 'ok'), ('carla', 'invalid'), ('carla', 'ok'), ('nobody', 'not found'), ('olga', 'not found')]"
check "exports are logged" grep -q 'user data exported.*tenant=acme.*user=alice.*datastore=contacts' "$work/server.log"

# --- tenant delete -----------------------------------------------------------------------------------------
check "deleting a tenant with users: 409" test "$(api DELETE /admin/v1/tenants/acme)" = 409
check "says how to go ahead" test "$(field "'force=true' in j['error']")" = True
check "a tenant token cannot delete tenants: 403" test "$(api DELETE '/admin/v1/tenants/acme?force=true' '' "$acme_token")" = 403
check "acme is still there" test "$(sql "SELECT count(*) FROM tenants WHERE name = 'acme'")" = 1
check "deleting an empty tenant: 204" test "$(api DELETE /admin/v1/tenants/newt)" = 204
check "deleting one with users and force: 204" test "$(api DELETE '/admin/v1/tenants/other?force=true')" = 204
check "deleting an unknown tenant: 404" test "$(api DELETE /admin/v1/tenants/other)" = 404

# --- audit log, metrics ------------------------------------------------------------------------------------
admin user add --tenant acme --user cli-user --password pw >/dev/null
check "audit list" test "$(api GET '/admin/v1/audit?limit=500')" = 200
check "records API changes with token, action, target and result" test "$(field \
    "[(a['actor'], a['action'], a['tenant'], a['target'], a['result']) for a in j if a['action'] == 'user.create' and a['tenant'] == 'acme']")" = \
    "[('cli', 'user.create', 'acme', 'cli-user', 'ok'), ('token:ops', 'user.create', 'acme', 'carla', 'ok'), ('token:ops', 'user.create', 'acme', 'carl', 'invalid'), ('token:ops', 'user.create', 'acme', 'bob', 'conflict'), ('token:ops', 'user.create', 'acme', 'bob', 'ok'), ('cli', 'user.create', 'acme', 'alice', 'ok')]"
check "and refused ones" test "$(field "[(a['actor'], a['tenant'], a['result']) for a in j if a['action'] == 'user.create' and a['tenant'] == 'other']")" = \
    "[('token:acme-admin', 'other', 'not found'), ('cli', 'other', 'ok')]"
check "reads are not recorded" test "$(field "[a for a in j if a['action'].endswith(('.list', '.show'))]")" = "[]"
api GET /admin/v1/audit '' "$acme_token" >/dev/null
check "a tenant token reads only its tenant's audit" test "$(field "sorted(set(a['tenant'] for a in j))")" = "['acme']"
check "admin audit list --tenant shows API entries too" bash -c "'$bin' admin audit list --tenant acme 2>/dev/null |
    grep -qP '\ttoken:ops\tdevice.delete\ttenant=acme\ttarget=api-phone\tok$'"
curl -fsS "http://$SYNCML_METRICS_LISTEN/metrics" >"$work/metrics"
check "admin requests are counted by route and status" \
    grep -q '^syncml_admin_requests_total{.*route="/admin/v1/tenants".*status="201"} 1' "$work/metrics"
check "a duplicate among them" \
    grep -q '^syncml_admin_requests_total{.*route="/admin/v1/tenants/{tenant}/users".*status="409"} 1' "$work/metrics"
check "and as HTTP requests of the admin route" grep -q 'syncml_http_requests_total{.*route="admin"' "$work/metrics"
check "the server log names refused admin requests" grep -q 'reason=.*no tenant named' "$work/server.log"

echo "$failures failure(s)"
[ "$failures" -eq 0 ]
