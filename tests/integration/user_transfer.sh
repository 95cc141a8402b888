#!/usr/bin/env bash
# Per-user export and import (issue 17), against the real binary and database: a scripted phone syncs contacts,
# events (one in a VTIMEZONE, one recurring with an exception), a task and memos; `user export` writes them as
# contacts.vcf, calendar.ics, tasks.ics and memos/*.txt; the user is deleted; `user import` into a new user adds
# the same items (same counts; exporting the new user gives the same files; importing again adds nothing), and a
# fresh phone of the new user gets them as server adds in its first sync. Bad input (unknown user, non-empty export
# directory, beyond the item limit, planted links, a directory of someone else or one everyone may write to) changes
# nothing. Then with the real SyncEvolution client (../shared/interop): carol's phone sends contacts and
# events, carol is exported, deleted and imported as dave, and a fresh phone of dave slow-syncs the same items.
# Environment: SYNCML_BUILD_DIR, SYNCML_TEST_DATABASE_URL, SYNCML_SOURCE_DIR, SYNCML_TEST_WORK_DIR (optional).
set -uo pipefail
source_dir=${SYNCML_SOURCE_DIR:?SYNCML_SOURCE_DIR not set}
bin=${SYNCML_BUILD_DIR:?SYNCML_BUILD_DIR not set}/src/syncml-server
database_url=${SYNCML_TEST_DATABASE_URL:?SYNCML_TEST_DATABASE_URL not set}
work=${SYNCML_TEST_WORK_DIR:-$(mktemp -d /tmp/user-transfer.XXXXXX)}
mkdir -p "$work"
source "$source_dir/tests/integration/lib/checks.bash"
admin() { "$bin" admin "$@" 2>>"$work/admin.err"; }
# phone USER DEVICE STORE ACTION: a scripted phone (tests/integration/lib/syncml_phone.py) syncs STORE; ACTION
# "fill" adds this test's items of the store (a slow sync), "fetch" adds nothing (a slow sync of a new device) and
# prints how many items the server sent.
phone() {
    PYTHONPATH="$source_dir/tests/integration/lib" python3 - "http://$SYNCML_LISTEN" "$@" <<'PY'
import sys
import syncml_client as sc
from syncml_phone import Phone
base, user, device, store, action = sys.argv[1:6]
ZONE = ("BEGIN:VTIMEZONE\r\nTZID:Europe/Berlin\r\nBEGIN:STANDARD\r\nDTSTART:19701025T030000\r\n"
        "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU\r\nTZOFFSETFROM:+0200\r\nTZOFFSETTO:+0100\r\nEND:STANDARD\r\n"
        "BEGIN:DAYLIGHT\r\nDTSTART:19700329T020000\r\nRRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU\r\n"
        "TZOFFSETFROM:+0100\r\nTZOFFSETTO:+0200\r\nEND:DAYLIGHT\r\nEND:VTIMEZONE\r\n")
def cal(body):
    return "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n" + body + "END:VCALENDAR\r\n"
ITEMS = {
    "contacts": ("text/vcard", [sc.vcard("Ada Lovelace", "engine notes"), sc.vcard("Alan Turing"),
                                sc.vcard("Grace Hopper", "COBOL")]),
    "calendar": ("text/calendar", [
        cal(ZONE + "BEGIN:VEVENT\r\nUID:zoned-1\r\nDTSTART;TZID=Europe/Berlin:20261210T090000\r\n"
            "DTEND;TZID=Europe/Berlin:20261210T100000\r\nSUMMARY:Standup Berlin\r\nEND:VEVENT\r\n"),
        cal("BEGIN:VEVENT\r\nUID:weekly-1\r\nDTSTART:20261201T120000Z\r\nDTEND:20261201T130000Z\r\n"
            "RRULE:FREQ=WEEKLY;COUNT=5\r\nSUMMARY:Lunch\r\nEND:VEVENT\r\n"
            "BEGIN:VEVENT\r\nUID:weekly-1\r\nRECURRENCE-ID:20261208T120000Z\r\nDTSTART:20261208T130000Z\r\n"
            "DTEND:20261208T140000Z\r\nSUMMARY:Lunch later\r\nEND:VEVENT\r\n")]),
    "tasks": ("text/calendar", [cal("BEGIN:VTODO\r\nUID:todo-1\r\nSUMMARY:File taxes\r\nDUE:20261231T170000Z\r\n"
                                    "STATUS:NEEDS-ACTION\r\nEND:VTODO\r\n")]),
    "memos": ("text/plain", ["Shopping: milk, eggs", "Ideas\nsecond line"]),
}
p = Phone(base, "xfer", user, "pw", device, store=store)
mime, items = ITEMS[store]
adds = [("%s%d" % (store, i), data) for i, data in enumerate(items)] if action == "fill" else []
error = p.full_sync(adds, mode=201, mime=mime)
print(error or "%s %d" % (action, len(p.server_items)))
PY
}
live_items() {  # live_items USER: "kind=count ..." of the user's live items
    psql "$database_url" -Atc "SELECT string_agg(kind || '=' || n, ' ' ORDER BY kind) FROM (SELECT ds.kind,
        count(i.item_id) FILTER (WHERE NOT i.deleted) AS n FROM datastores ds JOIN users u USING (tenant_id, user_id)
        JOIN tenants t USING (tenant_id) LEFT JOIN items i USING (tenant_id, user_id, datastore_id)
        WHERE t.name = 'xfer' AND u.name = '$1' GROUP BY ds.kind) c"
}

export SYNCML_DATABASE_URL=$database_url SYNCML_DATA_DIR=$work/data
export SYNCML_LISTEN=127.0.0.1:$(free_port) SYNCML_METRICS_LISTEN=127.0.0.1:$(free_port)
"$bin" migrate >/dev/null || { echo "FAIL: migrate"; exit 1; }
admin tenant add xfer >/dev/null || exit 1
admin user add --tenant xfer --user alice --password pw >/dev/null || exit 1
"$bin" serve >>"$work/server.log" 2>&1 &
server_pid=$!
trap 'kill -TERM $server_pid 2>/dev/null; wait $server_pid 2>/dev/null' EXIT
for _ in $(seq 1 120); do curl -fsS "http://$SYNCML_LISTEN/readyz" >/dev/null 2>&1 && break; sleep 0.5; done

for store in contacts calendar tasks memos; do
    check "the phone syncs its $store" test "$(phone alice alice-phone $store fill)" = "fill 0"
done
expected="calendar=2 contacts=3 memos=2 tasks=1"
check "the server holds them" test "$(live_items alice)" = "$expected"

out=$work/export
check "user export" bash -c "'$bin' admin user export --tenant xfer --user alice --out '$out' >'$work/export.out' 2>&1"
cat "$work/export.out" | grep -v ' info '
check "it reports the counts" grep -q "^3 contacts, 2 events, 1 tasks, 2 memos exported from user alice" "$work/export.out"
check "contacts.vcf holds 3 vCards 3.0" test "$(grep -c '^BEGIN:VCARD' "$out/contacts.vcf")/$(grep -c '^VERSION:3.0' "$out/contacts.vcf")" = 3/3
check "and their fields" bash -c "grep -q '^FN:Ada Lovelace' '$out/contacts.vcf' && grep -q '^NOTE:COBOL' '$out/contacts.vcf'"
check "calendar.ics is one iCalendar 2.0 object" test "$(grep -c '^BEGIN:VCALENDAR' "$out/calendar.ics")/$(grep -c '^VERSION:2.0' "$out/calendar.ics")" = 1/1
check "with both events, the exception and the time zone once" test "$(grep -c '^BEGIN:VEVENT' "$out/calendar.ics") \
$(grep -c '^RECURRENCE-ID' "$out/calendar.ics") $(grep -c '^BEGIN:VTIMEZONE' "$out/calendar.ics")" = "3 1 1"
check "tasks.ics holds the task" bash -c "grep -q '^SUMMARY:File taxes' '$out/tasks.ics' && grep -c '^BEGIN:VTODO' '$out/tasks.ics' | grep -qx 1"
check "one text file per memo" test "$(ls "$out/memos" | tr '\n' ' ')" = "0001.txt 0002.txt "
check "with the memo's text" grep -q "milk, eggs" "$out/memos/0001.txt" "$out/memos/0002.txt"
check "the files are readable by their owner only" test "$(stat -c %a "$out/contacts.vcf" "$out/memos/0001.txt" | sort -u)" = 600
check "export into a non-empty directory fails (1)" test "$(status_of admin user export --tenant xfer --user alice --out "$out")" = 1
check "export of an unknown user fails (1)" test "$(status_of admin user export --tenant xfer --user nobody --out "$work/x")" = 1
check "and creates nothing" test ! -e "$work/x"

check "user delete" bash -c "'$bin' admin user delete --tenant xfer --user alice --yes >/dev/null 2>&1"
admin user add --tenant xfer --user bob --password pw >/dev/null
check "import into an unknown user fails (1)" test "$(status_of admin user import --tenant xfer --user alice --in "$out")" = 1
check "import from a missing directory fails (1)" test "$(status_of admin user import --tenant xfer --user bob --in "$work/none")" = 1
check "import needs all of --tenant, --user and --in (2)" test "$(status_of admin user import --tenant xfer --in "$out")" = 2
check "and nothing was added" test "$(live_items bob)" = "calendar=0 contacts=0 memos=0 tasks=0"

# --- files planted by someone else (issue 35): links are not followed, foreign or shared directories not written --
# A "secret" that reads as a vCard and a memo: through a link, the old import took it in as the user's items.
secret=$work/app.password
printf 'BEGIN:VCARD\r\nVERSION:3.0\r\nFN:server secret\r\nEND:VCARD\r\n' >"$secret"
mkdir -p "$work/planted" "$work/planted-memo/memos"
ln -s "$secret" "$work/planted/contacts.vcf"
check "import refuses a contacts.vcf that is a symbolic link (1)" \
    test "$(status_of admin user import --tenant xfer --user bob --in "$work/planted")" = 1
check "naming the file and why" bash -c "'$bin' admin user import --tenant xfer --user bob --in '$work/planted' 2>&1 |
    grep -q 'refused: $work/planted/contacts.vcf: is a symbolic link'"
ln -s "$secret" "$work/planted-memo/memos/0001.txt"
check "and a memo that is a symbolic link (1)" \
    test "$(status_of admin user import --tenant xfer --user bob --in "$work/planted-memo")" = 1
rm "$work/planted/contacts.vcf" && ln -s "$work/planted-memo/memos" "$work/planted/memos"
check "and a memos directory that is a symbolic link (1)" \
    test "$(status_of admin user import --tenant xfer --user bob --in "$work/planted")" = 1
check "nothing of the secret was imported" test "$(live_items bob)" = "calendar=0 contacts=0 memos=0 tasks=0"
mkdir -p "$work/victim" && ln -s "$work/victim" "$work/linked-export"
check "export refuses a target directory that is a symbolic link (1)" \
    test "$(status_of admin user export --tenant xfer --user bob --out "$work/linked-export")" = 1
check "and writes nothing where it leads" test -z "$(ls -A "$work/victim")"
mkdir -p "$work/open" && chmod 0777 "$work/open"
check "export refuses a directory everyone may write to, without the sticky bit (1)" \
    test "$(status_of admin user export --tenant xfer --user bob --out "$work/open/export")" = 1
check "and creates nothing in it" test -z "$(ls -A "$work/open")"
mkdir -p "$work/sticky" && chmod 1777 "$work/sticky"
check "export into a new directory in a sticky shared one works" \
    bash -c "'$bin' admin user export --tenant xfer --user bob --out '$work/sticky/export' >/dev/null 2>&1"
check "the new directory is private" test "$(stat -c %a "$work/sticky/export")" = 700
if [ "$(id -u)" = 0 ]; then
    mkdir -p "$work/foreign" && chown 65534 "$work/foreign"
    check "export refuses a directory of another user (1)" \
        test "$(status_of admin user export --tenant xfer --user bob --out "$work/foreign/export")" = 1
    check "and writes nothing there" test -z "$(ls -A "$work/foreign")"
fi
admin tenant set xfer --max-items-per-datastore 2 >/dev/null
check "an import beyond the tenant's item limit fails (1)" test "$(status_of admin user import --tenant xfer --user bob --in "$out")" = 1
check "and adds nothing, not even the stores within the limit" test "$(live_items bob)" = "calendar=0 contacts=0 memos=0 tasks=0"
admin tenant set xfer --max-items-per-datastore 100000 >/dev/null
check "user import into a new user" bash -c "'$bin' admin user import --tenant xfer --user bob --in '$out' >'$work/import.out' 2>&1"
check "it reports the counts" grep -q "^3 contacts, 2 events, 1 tasks, 2 memos imported into user bob" "$work/import.out"
check "the new user holds the same items" test "$(live_items bob)" = "$expected"
check "all of them added" grep -q "^8 added, 0 updated, 0 unchanged, 0 rejected$" "$work/import.out"
check "importing the same files again" bash -c "'$bin' admin user import --tenant xfer --user bob --in '$out' >'$work/import2.out' 2>&1"
check "adds nothing: every item is unchanged" grep -q "^0 added, 0 updated, 8 unchanged, 0 rejected$" "$work/import2.out"
check "the user holds no duplicates" test "$(live_items bob)" = "$expected"
check "exporting the new user gives the same files" bash -c "'$bin' admin user export --tenant xfer --user bob \
    --out '$work/export2' >/dev/null 2>&1 && diff -r '$out' '$work/export2'"
guids=$(psql "$database_url" -Atc "SELECT count(DISTINCT guid) FROM items i JOIN datastores ds USING (tenant_id, user_id, datastore_id)
    JOIN users u USING (tenant_id, user_id) WHERE u.name = 'bob'")
check "each item has a GUID of its own" test "$guids" = 8
for store in contacts calendar tasks memos; do
    case $store in contacts) n=3 ;; calendar) n=2 ;; tasks) n=1 ;; memos) n=2 ;; esac
    check "a fresh phone of the new user gets its $store as server adds" \
        test "$(phone bob bob-phone $store fetch)" = "fetch $n"
done
check "and no duplicates came of it" test "$(live_items bob)" = "$expected"

# --- after real SyncEvolution syncs: a fresh phone of the imported user gets the same items (compare.py) ----
interop=${SYNCML_INTEROP_DIR:-$source_dir/../shared/interop}
se_phone() {  # se_phone USER KIND HOME: set up a SyncEvolution phone and slow-sync it
    bash "$interop/client.sh" setup --home "$3" --url "http://$SYNCML_LISTEN/sync/xfer" --user "$1" --password pw \
        --device-id "$1-se-$2" --kind "$2" --timeout 60 >>"$work/client.log" 2>&1 &&
        bash "$interop/client.sh" sync --home "$3" --mode slow >>"$work/client.log" 2>&1
}
admin user add --tenant xfer --user carol --password pw >/dev/null
for kind in contacts events; do
    python3 "$interop/gen-contacts.py" gen --kind $kind --count 6 --seed transfer \
        --out "$work/se-carol-$kind/data/$kind" >>"$work/client.log" 2>&1
    check "SyncEvolution sends carol's $kind" se_phone carol $kind "$work/se-carol-$kind"
done
check "export carol" bash -c "'$bin' admin user export --tenant xfer --user carol --out '$work/se-export' >/dev/null 2>&1"
check "delete carol" bash -c "'$bin' admin user delete --tenant xfer --user carol --yes >/dev/null 2>&1"
admin user add --tenant xfer --user dave --password pw >/dev/null
check "import into dave" bash -c "'$bin' admin user import --tenant xfer --user dave --in '$work/se-export' >/dev/null 2>&1"
for kind in contacts events; do
    check "a fresh SyncEvolution phone of dave gets the $kind" se_phone dave $kind "$work/se-dave-$kind"
    check "the same $kind as carol's phone (compare.py)" python3 "$interop/compare.py" --quiet \
        "$work/se-carol-$kind/data/$kind" "$work/se-dave-$kind/data/$kind"
done

echo "$failures failure(s)"
[ "$failures" -eq 0 ]
