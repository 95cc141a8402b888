#!/usr/bin/env bash
# Admin commands that look into accounts and sessions (issue 17), against the real binary and database: a scripted
# phone syncs three contacts; tenant/user/device show report them (lines and --json); unknown names fail (1).
# session list shows the phone's open session; after session kill its next message gets a challenge and stores
# nothing, and the phone starts a new session.
# Environment: SYNCML_BUILD_DIR, SYNCML_TEST_DATABASE_URL, SYNCML_SOURCE_DIR, SYNCML_TEST_WORK_DIR (optional).
set -uo pipefail
source_dir=${SYNCML_SOURCE_DIR:?SYNCML_SOURCE_DIR not set}
bin=${SYNCML_BUILD_DIR:?SYNCML_BUILD_DIR not set}/src/syncml-server
database_url=${SYNCML_TEST_DATABASE_URL:?SYNCML_TEST_DATABASE_URL not set}
work=${SYNCML_TEST_WORK_DIR:-$(mktemp -d /tmp/admin-inspect.XXXXXX)}
mkdir -p "$work"
source "$source_dir/tests/integration/lib/checks.bash"
admin() { "$bin" admin "$@" 2>>"$work/admin.err"; }
# phone STEP...: the scripted phone (tests/integration/lib/syncml_phone.py) of alice's device insp-phone; its
# SessionID and RespURI are kept in $work/phone.json between calls.
phone() {
    PYTHONPATH="$source_dir/tests/integration/lib" python3 - "$work/phone.json" "http://$SYNCML_LISTEN" "$@" <<'PY'
import json, os, sys
import syncml_client as sc
from syncml_phone import Phone
state_file, base, steps = sys.argv[1], sys.argv[2], sys.argv[3:]
p = Phone(base, "insp", os.environ.get("PHONE_USER", "alice"), os.environ.get("PHONE_PASSWORD", "pw"),
          os.environ.get("PHONE_DEVICE", "insp-phone"))
if os.path.exists(state_file):
    saved = json.load(open(state_file))
    p.session_id, p.msg_id, p.resp_uri = saved["session_id"], saved["msg_id"], saved["resp_uri"]
for step in steps:
    if step == "sync3":
        error = p.full_sync([("c%d" % i, sc.vcard("Inspect%d" % i)) for i in range(3)], mode=200)
        print("sync: " + (error or "done"))
    elif step == "start":
        print("start: " + p.start(mode=200).header_status())
    elif step == "continue":
        reply = p.send_changes([("c9", sc.vcard("After"))])
        print("continue: %s %s" % (reply.header_status(), reply.codes("Sync")))
json.dump({"session_id": p.session_id, "msg_id": p.msg_id, "resp_uri": p.resp_uri}, open(state_file, "w"))
PY
}

export SYNCML_DATABASE_URL=$database_url SYNCML_DATA_DIR=$work/data
export SYNCML_LISTEN=127.0.0.1:$(free_port) SYNCML_METRICS_LISTEN=127.0.0.1:$(free_port)
"$bin" migrate >/dev/null || { echo "FAIL: migrate"; exit 1; }
admin tenant add insp >/dev/null || exit 1
admin user add --tenant insp --user alice --password pw >/dev/null || exit 1
admin user add --tenant insp --user bob --password pw >/dev/null || exit 1
admin user disable --tenant insp --user bob >/dev/null || exit 1
"$bin" serve >>"$work/server.log" 2>&1 &
server_pid=$!
trap 'kill -TERM $server_pid 2>/dev/null; wait $server_pid 2>/dev/null' EXIT
for _ in $(seq 1 120); do curl -fsS "http://$SYNCML_LISTEN/readyz" >/dev/null 2>&1 && break; sleep 0.5; done

check "the phone syncs three contacts" test "$(phone sync3)" = "sync: done"

# --- tenant / user / device show --------------------------------------------------------------------------
out=$(admin tenant show insp)
check "tenant show: users and devices" bash -c "grep -qxP 'users\t2' <<<'$out' && grep -qxP 'disabled_users\t1' <<<'$out' &&
    grep -qxP 'devices\t1' <<<'$out' && grep -q '^settings.*conflict=merge' <<<'$out'"
json=$(admin tenant show insp --json)
check "tenant show --json" test "$(json_field "$json" "j['name'], j['users'], j['devices'], j['max_sessions']")" = \
    "('insp', 2, 1, 100)"
out=$(admin user show --tenant insp --user alice)
check "user show: items per datastore" bash -c "grep -qP '^datastore\tcontacts\titems=3\t' <<<'$out' &&
    grep -qP '^datastore\tcalendar\titems=0\t' <<<'$out'"
check "user show: devices and last sync" bash -c "grep -qxP 'devices\t1' <<<'$out' &&
    grep -qP '^last_sync\t20\d\d-\d\d-\d\dT' <<<'$out' && grep -qxP 'disabled\tno' <<<'$out'"
check "user show: the bytes its items take and the tenant's quota" bash -c "grep -qxP 'stored_bytes\t[1-9]\d*' <<<'$out' &&
    grep -qxP 'max_user_bytes\t1073741824' <<<'$out' && grep -qP '^datastore\tcontacts\titems=3\t.*\tstored_bytes=[1-9]' <<<'$out'"
json=$(admin user show --tenant insp --user alice --json)
check "user show --json" test "$(json_field "$json" \
    "j['devices'], j['disabled'], [(d['name'], d['items']) for d in j['datastores'] if d['name'] == 'contacts'], \
     j['last_sync'] is not None")" = "(1, False, [('contacts', 3)], True)"
json=$(admin user show --tenant insp --user bob --json)
check "user show of a user who never synced" test "$(json_field "$json" "j['disabled'], j['devices'], j['last_sync']")" = \
    "(True, 0, None)"
out=$(admin device show --tenant insp --user alice --device insp-phone)
check "device show: its datastore view" bash -c "grep -qP '^datastore\tcontacts\tremote_uri=[^\t]*contacts\t.*slow_sync_next=no\tmapped_items=3' <<<'$out'"
json=$(admin device show --tenant insp --user alice --device insp-phone --json)
check "device show --json" test "$(json_field "$json" \
    "j['device'], j['user'], [(d['datastore'], d['mapped_items'], d['needs_slow_sync']) for d in j['datastores']]")" = \
    "('insp-phone', 'alice', [('contacts', 3, False)])"
check "tenant show of an unknown tenant fails (1)" test "$(status_of admin tenant show nosuch)" = 1
check "user show of an unknown user fails (1)" test "$(status_of admin user show --tenant insp --user nobody)" = 1
check "user show in an unknown tenant fails (1)" test "$(status_of admin user show --tenant nosuch --user alice)" = 1
check "device show of an unknown device fails (1)" \
    test "$(status_of admin device show --tenant insp --user alice --device nothing)" = 1
check "show without its name is a usage error (2)" test "$(status_of admin user show --tenant insp)" = 2
check "the errors say what was not found" grep -q "no user 'nobody' in tenant 'insp'" "$work/admin.err"

# --- session list / kill ----------------------------------------------------------------------------------
check "a finished session is listed as finished" bash -c "admin() { '$bin' admin \"\$@\" 2>/dev/null; };
    admin session list --tenant insp | grep -qP '\tuser=alice\tdevice=insp-phone\t.*\tfinished$'"
check "the phone starts a session" test "$(phone start)" = "start: 212"
out=$(admin session list --tenant insp --user alice | grep -P '\topen$')
id=$(cut -f1 <<<"$out")
check "session list shows it: user, device, started, last message, one message" bash -c \
    "grep -qP '^\d+\tsession=\d+\tuser=alice\tdevice=insp-phone\tstarted=20.*Z\tlast_message=20.*Z\tmessages=1\topen$' <<<'$out'"
json=$(admin session list --tenant insp --json)
check "session list --json" test "$(json_field "$json" "[(s['user'], s['device'], s['messages']) for s in j if s['id'] == $id]")" = \
    "[('alice', 'insp-phone', 1)]"
check "session list of bob is empty" test -z "$(admin session list --tenant insp --user bob)"
check "session list of an unknown user fails (1)" test "$(status_of admin session list --tenant insp --user nobody)" = 1
check "session kill without --yes is refused (2)" test "$(status_of admin session kill --tenant insp --session "$id")" = 2
check "session kill of a malformed id fails (1)" test "$(status_of admin session kill --tenant insp --session x1 --yes)" = 1
check "session kill in another tenant fails (1)" test "$(status_of admin session kill --tenant default --session "$id" --yes)" = 1
check "session kill" bash -c "'$bin' admin session kill --tenant insp --session '$id' --yes >/dev/null 2>&1"
check "the session is gone" bash -c "! '$bin' admin session list --tenant insp 2>/dev/null | grep -q '^$id\b'"
check "killing it again fails (1)" test "$(status_of admin session kill --tenant insp --session "$id" --yes)" = 1
continued=$(phone continue)
echo "after the kill: $continued"
check "its next message finds no session: a challenge, nothing applied" bash -c "grep -qE '^continue: 40[17] ' <<<'$continued'"
check "the contact it carried was not stored" bash -c "'$bin' admin user show --tenant insp --user alice 2>/dev/null |
    grep -qP '^datastore\tcontacts\titems=3\t'"
check "the device starts a new session and syncs" test "$(phone sync3)" = "sync: done"

# --- user import FILE.csv ---------------------------------------------------------------------------------
hash=$(psql "$database_url" -Atc "SELECT password_hash FROM users WHERE name = 'alice'")
cat >"$work/users.csv" <<CSV
tenant,user,password
insp,carol,carol pw
insp,alice,other
nosuch,dave,pw
insp,erin
insp,"frank, jr","pw,with ""quotes"""
insp,"grace
insp,heidi,$hash
insp,bad:name,pw
CSV
admin user import "$work/users.csv" >"$work/import.out"
check "an import with failed lines exits 1" test $? -eq 1
cat "$work/import.out"
check "the report names each line" bash -c "grep -qx 'line 2: insp/carol added' '$work/import.out' &&
    grep -qx 'line 3: insp/alice skipped: exists already' '$work/import.out' &&
    grep -qx \"line 4: nosuch/dave failed: no tenant named 'nosuch'\" '$work/import.out' &&
    grep -q '^line 5: failed: expected 3 columns' '$work/import.out' &&
    grep -qx 'line 6: insp/frank, jr added' '$work/import.out' &&
    grep -qx 'line 7: failed: unbalanced quotes' '$work/import.out' &&
    grep -qx 'line 8: insp/heidi added' '$work/import.out' &&
    grep -q '^line 9: insp/bad:name failed: ' '$work/import.out'"
check "and sums it up" grep -qx "$work/users.csv: 3 added, 1 skipped (exist already), 4 failed" "$work/import.out"
check "the users after a bad line were added" bash -c "'$bin' admin user list --tenant insp 2>/dev/null | grep -qx heidi"
check "an existing user kept its password" test "$(psql "$database_url" -Atc \
    "SELECT password_hash FROM users WHERE name = 'alice'")" = "$hash"
check "a hash is stored as given" test "$(psql "$database_url" -Atc \
    "SELECT password_hash FROM users WHERE name = 'heidi'")" = "$hash"
check "nothing of a failed line was written" test "$(psql "$database_url" -Atc \
    "SELECT count(*) FROM users WHERE name IN ('dave', 'erin', 'bad:name')")" = 0
check "an imported password logs in" test "$(PHONE_USER=carol PHONE_PASSWORD='carol pw' PHONE_DEVICE=carol-phone \
    phone start)" = "start: 212"
check "an imported hash logs in with its password" test "$(PHONE_USER=heidi PHONE_PASSWORD=pw PHONE_DEVICE=heidi-phone \
    phone start)" = "start: 212"
check "a password with a comma and quotes" test "$(PHONE_USER='frank, jr' PHONE_PASSWORD='pw,with "quotes"' \
    PHONE_DEVICE=frank-phone phone start)" = "start: 212"
printf 'insp,ivan,pw\n' >"$work/noheader.csv"
check "a file without the header fails (1)" test "$(status_of admin user import "$work/noheader.csv")" = 1
check "and adds nobody" bash -c "! '$bin' admin user list --tenant insp 2>/dev/null | grep -qx ivan"
check "a missing file fails (1)" test "$(status_of admin user import "$work/missing.csv")" = 1

# --- client values in the text output (issue 35): a device id that a phone chose with a line break, a tab and
# terminal escapes prints as one escaped value, so it can forge no line of device list, session list or audit list.
forged=$'forged\n2026-12-07 00:00:00+00\tcli\tuser.delete\ttenant=insp\x1b[2J\xc2\x9b31m'
tab=$'\t'
escaped='forged\n2026-12-07 00:00:00+00\tcli\tuser.delete\ttenant=insp\u001b[2J\u009b31m'
psql -q "$database_url" -v forged="$forged" <<'SQL'
UPDATE devices SET device_uri = :'forged' WHERE device_uri = 'insp-phone';
UPDATE sessions SET device_uri = :'forged' WHERE device_uri = 'insp-phone';
SQL
check "device list prints the forged id as one escaped value on one line" bash -c "
    out=\$('$bin' admin device list --tenant insp --user alice 2>/dev/null) &&
    [ \"\$(wc -l <<<\"\$out\")\" = 1 ] && grep -qF '$escaped' <<<\"\$out\" && ! grep -q \$'\\x1b' <<<\"\$out\""
check "device show too" bash -c "'$bin' admin device show --tenant insp --user alice --device \"\$1\" 2>/dev/null |
    grep -qxF 'device${tab}$escaped'" _ "$forged"
check "session list too" bash -c "'$bin' admin session list --tenant insp 2>/dev/null | grep -qF 'device=$escaped${tab}'"
admin device reset --tenant insp --device "$forged" >/dev/null
check "audit list prints an entry of that device as one line" bash -c "
    out=\$('$bin' admin audit list --tenant insp --limit 1 2>/dev/null) &&
    [ \"\$(wc -l <<<\"\$out\")\" = 1 ] && grep -qF 'target=$escaped${tab}' <<<\"\$out\""

echo "$failures failure(s)"
[ "$failures" -eq 0 ]
