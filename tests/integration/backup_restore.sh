#!/usr/bin/env bash
# Backup and restore (issue 17): a phone (the real SyncEvolution client) slow-syncs 5 contacts; `backup --out`
# dumps the database; the tenant is deleted (the wipe); `restore` brings it back; the phone's next two-way sync
# is a normal two-way sync (mode 200, not a slow sync) and the server holds the 5 contacts. A file that is no
# backup, a truncated backup and one whose restore fails halfway are refused with nothing changed; so are planted
# files (a .partial or a link at the target, a link as the backup, a directory everyone may write to). Disaster
# recovery (issue 39): a backup of an embedded database with its secret key, restored into a new data directory,
# serves a phone that logs in with md5 (see the last section).
# Environment: SYNCML_BUILD_DIR, SYNCML_TEST_DATABASE_URL (a database of its own: restore replaces its contents),
# SYNCML_SOURCE_DIR, SYNCML_TEST_WORK_DIR (optional).
set -uo pipefail
source_dir=${SYNCML_SOURCE_DIR:?SYNCML_SOURCE_DIR not set}
server=${SYNCML_BUILD_DIR:?SYNCML_BUILD_DIR not set}/src/syncml-server
database_url=${SYNCML_TEST_DATABASE_URL:?SYNCML_TEST_DATABASE_URL not set}
interop=${SYNCML_INTEROP_DIR:-$source_dir/../shared/interop}
work=${SYNCML_TEST_WORK_DIR:-$(mktemp -d /tmp/backup-restore.XXXXXX)}
mkdir -p "$work"
failures=0
pass() { echo "ok: $1"; }
fail() { echo "FAIL: $1"; failures=$((failures + 1)); }
check() {  # check DESCRIPTION COMMAND...
    local what=$1; shift
    if "$@"; then pass "$what"; else fail "$what"; fi
}
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

export SYNCML_DATABASE_URL=$database_url SYNCML_DATA_DIR=$work/data
sync_port=$(free_port)
export SYNCML_LISTEN=127.0.0.1:$sync_port SYNCML_METRICS_LISTEN=127.0.0.1:$(free_port)
server_pid=""
start_server() {
    "$server" serve >>"$work/server.log" 2>&1 &
    server_pid=$!
    for _ in $(seq 1 120); do
        curl -fsS "http://$SYNCML_LISTEN/readyz" >/dev/null 2>&1 && return 0
        kill -0 "$server_pid" 2>/dev/null || break
        sleep 0.5
    done
    echo "FAIL: server not ready"; tail -30 "$work/server.log"; return 1
}
stop_server() {
    [ -n "$server_pid" ] || return 0
    kill -TERM "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
    server_pid=""
}
trap stop_server EXIT
live_contacts() {
    psql "$database_url" -Atc "SELECT count(*) FROM items i JOIN tenants t USING (tenant_id) \
        WHERE t.name = 'bk' AND NOT i.deleted" 2>/dev/null
}
tenants() { "$server" admin tenant list 2>/dev/null | cut -f1 | tr '\n' ' '; }

"$server" migrate >/dev/null || { echo "FAIL: migrate"; exit 1; }
"$server" admin tenant add bk >/dev/null || exit 1
"$server" admin user add --tenant bk --user alice --password pw >/dev/null 2>&1 || exit 1
start_server || exit 1
phone=$work/phone
python3 "$interop/gen-contacts.py" gen --kind contacts --format vcard30 --count 5 --seed 3 \
    --out "$phone/data/contacts" >"$work/client.log" 2>&1 || exit 1
bash "$interop/client.sh" setup --home "$phone" --url "http://$SYNCML_LISTEN/sync/bk" --user alice --password pw \
    --device-id backup-phone --kind contacts --format vcard30 --timeout 60 >>"$work/client.log" 2>&1 || exit 1
check "the phone's slow sync" bash -c "bash '$interop/client.sh' sync --home '$phone' --mode slow >>'$work/client.log' 2>&1"
check "the server holds 5 contacts" test "$(live_contacts)" = 5
stop_server

backup=$work/syncml.dump
check "backup --out writes a file" "$server" backup --out "$backup"
check "the backup is readable by its owner only" test "$(stat -c %a "$backup")" = 600
check "the backup is a pg_dump archive" bash -c "pg_restore --list '$backup' >/dev/null"

"$server" admin tenant delete bk --yes --force >/dev/null
check "the wipe removed the tenant" test "$(live_contacts)" = 0
check "restore" "$server" restore "$backup"
check "the tenant is back" bash -c "[[ ' $(tenants)' == *' bk '* ]]"
check "and its 5 contacts" test "$(live_contacts)" = 5

printf 'not a backup\n' >"$work/bad.dump"
"$server" restore "$work/bad.dump" >"$work/bad-restore.log" 2>&1
check "a file that is no backup is refused" test $? -ne 0
check "and nothing was dropped" test "$(live_contacts)" = 5
"$server" restore "$work/missing.dump" >/dev/null 2>&1
check "a missing file is refused" test $? -ne 0

# --- files planted by someone else (issue 35): no .partial reused, no link followed, no shared directory written ---
printf 'planted\n' >"$work/planted.dump.partial" && chmod 0666 "$work/planted.dump.partial"
check "backup beside a planted .partial file" bash -c "'$server' backup --out '$work/planted.dump' >/dev/null 2>&1"
check "writes the backup (0600)" test "$(stat -c %a "$work/planted.dump")" = 600
check "and leaves the .partial as it was: it is not reused" test "$(cat "$work/planted.dump.partial")" = planted
printf 'root only\n' >"$work/victim.conf"
ln -s "$work/victim.conf" "$work/linked.dump.partial"
"$server" backup --out "$work/linked.dump" >/dev/null 2>&1
check "a .partial planted as a link leads nowhere: the file it names is intact" \
    test "$(cat "$work/victim.conf")" = "root only"
ln -s "$work/victim.conf" "$work/link-target.dump"
"$server" backup --out "$work/link-target.dump" >"$work/link-backup.log" 2>&1
check "backup refuses a target that is a symbolic link (1)" test $? -eq 1
check "naming the path and why" grep -q "link-target.dump: exists and is a symbolic link" "$work/link-backup.log"
check "the link and the file it names are as they were" bash -c "[ -L '$work/link-target.dump' ] &&
    [ \"\$(cat '$work/victim.conf')\" = 'root only' ]"
mkdir -p "$work/open" && chmod 0777 "$work/open"
"$server" backup --out "$work/open/x.dump" >"$work/open-backup.log" 2>&1
check "backup refuses a directory everyone may write to, without the sticky bit (1)" test $? -eq 1
check "and leaves nothing in it" test -z "$(ls -A "$work/open")"
ln -s "$backup" "$work/link.dump"
"$server" restore "$work/link.dump" >"$work/link-restore.log" 2>&1
check "restore refuses a backup named through a symbolic link (1)" test $? -eq 1
check "naming the path and why" grep -q "link.dump: is a symbolic link" "$work/link-restore.log"
check "and nothing was dropped" test "$(live_contacts)" = 5

# A damaged archive whose table of contents still reads (the end of the data cut off): refused, nothing dropped.
head -c $(($(stat -c %s "$backup") * 97 / 100)) "$backup" >"$work/truncated.dump"
check "the truncated archive still lists" bash -c "pg_restore --list '$work/truncated.dump' >/dev/null 2>&1"
"$server" restore "$work/truncated.dump" >"$work/truncated-restore.log" 2>&1
check "a truncated backup is refused" test $? -ne 0
check "and the previous data is in place" test "$(live_contacts)" = 5
# An archive that reads but fails halfway through the restore: a device row of no user (written past the foreign
# keys) makes adding the foreign key fail after every table was loaded. The restore's transaction rolls back.
psql -q "$database_url" -c "SET session_replication_role = replica" -c "INSERT INTO devices (tenant_id, user_id,
    device_uri) SELECT tenant_id, -1, 'orphan' FROM tenants WHERE name = 'bk'" 2>>"$work/client.log"
"$server" backup --out "$work/orphan.dump" >/dev/null 2>&1
psql -q "$database_url" -c "DELETE FROM devices WHERE device_uri = 'orphan'"
"$server" admin tenant add after-backup >/dev/null 2>&1
"$server" restore "$work/orphan.dump" >"$work/orphan-restore.log" 2>&1
check "a restore that fails halfway is refused" test $? -ne 0
check "with the failing statement named" grep -q "foreign key" "$work/orphan-restore.log"
check "and the previous data is in place: the contacts" test "$(live_contacts)" = 5
check "and a tenant added after that backup" bash -c "[[ ' $(tenants)' == *' after-backup '* ]]"

start_server || exit 1
check "the phone's next two-way sync" bash -c "bash '$interop/client.sh' sync --home '$phone' --mode two-way \
    >>'$work/client.log' 2>&1"
last_end=$(grep 'session end' "$work/server.log" | tail -1)
echo "last session: $last_end"
check "was a two-way sync, not a slow one" bash -c "grep -q 'modes=contacts:200' <<<'$last_end'"
check "the server still holds 5 contacts" test "$(live_contacts)" = 5
stop_server

# --- disaster recovery (issue 39): the machine is lost; the backup and its key bring the server back -------------
# The original runs the embedded PostgreSQL, its secret key in <data_dir>/secret.key; a tenant allows md5 logins only,
# so its phone's login needs the sealed md5 secret, which opens with that key alone. The backup writes the key beside
# the dump; a restore into a brand-new data directory (new embedded database, no key) puts it back, the server
# starts, and the phone logs in with md5 and gets its contacts. Without the key, restore says what is missing; a
# different key already there is replaced only with --replace-key.
md5_phone() {  # md5_phone ADDS: one md5 session of dave's phone (nonce kept in $work/dr-phone.nonce)
    python3 "$source_dir/tests/integration/lib/md5_phone.py" "$work/dr-phone.nonce" "http://$SYNCML_LISTEN" dr dave \
        pw IMEI:DR-PHONE "$1" 2>&1 | tee -a "$work/dr-phone.log"
}
unset SYNCML_DATABASE_URL
export SYNCML_DATA_DIR=$work/dr-old
"$server" migrate >>"$work/dr.log" 2>&1 || { echo "FAIL: migrate (embedded)"; tail -20 "$work/dr.log"; exit 1; }
"$server" admin tenant add dr --auth-basic off >>"$work/dr.log" 2>&1 || exit 1
"$server" admin user add --tenant dr --user dave --password pw >>"$work/dr.log" 2>&1 || exit 1
start_server || exit 1
check "the md5 phone adds 3 contacts" test "$(md5_phone 3)" = "login=212 sent=3 received=0"
stop_server
dr_dump=$work/dr.dump
"$server" backup --out "$dr_dump" >"$work/dr-backup.out" 2>&1
check "backup of the embedded database" test $? -eq 0
check "writes the secret key beside the dump" grep -q "secret key saved to $dr_dump.key" "$work/dr-backup.out"
check "mode 0600" test "$(stat -c %a "$dr_dump.key")" = 600
check "the data directory's key" cmp -s "$dr_dump.key" "$work/dr-old/secret.key"
"$server" backup --out "$work/dr-nokey.dump" --no-key >/dev/null 2>&1
check "backup --no-key leaves the key out" bash -c "[ -s '$work/dr-nokey.dump' ] && [ ! -e '$work/dr-nokey.dump.key' ]"
rm -rf "$work/dr-old"  # the machine is lost

export SYNCML_DATA_DIR=$work/dr-new
"$server" restore "$dr_dump" >"$work/dr-restore.out" 2>&1
check "restore into a fresh data directory" test $? -eq 0
check "puts the key back" grep -q "secret key restored to $work/dr-new/secret.key" "$work/dr-restore.out"
check "as the backup's key, mode 0600" bash -c "cmp -s '$dr_dump.key' '$work/dr-new/secret.key' &&
    [ \"\$(stat -c %a '$work/dr-new/secret.key')\" = 600 ]"
start_server || { cat "$work/dr-restore.out"; exit 1; }
check "the server starts, and the md5 phone logs in and gets its 3 contacts" \
    test "$(md5_phone 0)" = "login=212 sent=0 received=3"
stop_server

export SYNCML_DATA_DIR=$work/dr-other
mv "$dr_dump.key" "$work/dr-saved.key"
"$server" restore "$dr_dump" >"$work/dr-nokey.out" 2>&1
check "a restore without the key file fails (1)" test $? -eq 1
check "saying which key is missing and where it goes" grep -q \
    "sealed with the secret key of fingerprint .*, which is not at $work/dr-other/secret.key (there is none)" \
    "$work/dr-nokey.out"
openssl rand -base64 32 >"$work/dr-other/secret.key" && chmod 600 "$work/dr-other/secret.key"
cp "$work/dr-other/secret.key" "$work/dr-other.key"
"$server" restore "$dr_dump" --key "$work/dr-saved.key" >"$work/dr-conflict.out" 2>&1
check "another key in the data directory refuses the restore (1)" test $? -eq 1
check "naming both keys and --replace-key" bash -c "grep -q 'holds another secret key' '$work/dr-conflict.out' &&
    grep -q -- '--replace-key' '$work/dr-conflict.out'"
check "and leaves that key alone" cmp -s "$work/dr-other/secret.key" "$work/dr-other.key"
"$server" restore "$dr_dump" --key "$work/dr-saved.key" --replace-key >"$work/dr-replace.out" 2>&1
check "restore --replace-key" test $? -eq 0
check "puts the backup's key in place" cmp -s "$work/dr-saved.key" "$work/dr-other/secret.key"
check "and keeps the other one aside" bash -c "cmp -s '$work/dr-other.key' '$work/dr-other/'secret.key.replaced-*"

echo "$failures failure(s)"
[ "$failures" -eq 0 ]
