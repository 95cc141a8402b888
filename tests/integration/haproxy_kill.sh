#!/usr/bin/env bash
# SIGKILL between two messages: a 300-contact slow sync in small messages (many round trips) through haproxy
# round-robin over two instances; after the session's first few requests one instance is killed with SIGKILL.
# The session must complete on the other instance (haproxy retries or redispatches the request that hit the
# dead one; the server answers a repeated message from its stored reply) and the data must be complete: the
# server holds exactly 300 contacts and a second phone's refresh-from-server gets the same items as the first.
# Environment: SYNCML_BUILD_DIR, SYNCML_TEST_DATABASE_URL, SYNCML_SOURCE_DIR.
set -uo pipefail
work=${SYNCML_TEST_WORK_DIR:-$(mktemp -d /tmp/haproxy-kill.XXXXXX)}
mkdir -p "$work"
source "$(dirname "$0")/lib/haproxy_pair.bash"
trap pair_cleanup EXIT
count=300
start_pair || exit 1
"$server" admin tenant add hakill > /dev/null || exit 1
"$server" admin user add --tenant hakill --user killer --password pw > /dev/null || exit 1

phone() {  # phone NAME: client setup against haproxy
    rm -rf "$work/$1"
    bash "$interop/client.sh" setup --home "$work/$1" --url "$hp_url/sync/hakill" --user killer --password pw \
        --device-id "hakill-$1" --kind contacts --format vcard30 --max-msg-size 4096 --timeout 120 \
        >> "$work/client.log" 2>&1
}

phone A || { echo "FAIL: client setup"; exit 1; }
python3 "$interop/gen-contacts.py" gen --kind contacts --format vcard30 --count $count --seed 11 \
    --out "$work/A/data/contacts" > /dev/null || exit 1

bash "$interop/client.sh" sync --home "$work/A" --mode slow > "$work/sync-A.log" 2>&1 &
sync_pid=$!
killed=0
for _ in $(seq 1 600); do
    before=$(($(sync_requests a) + $(sync_requests b)))
    if [ "$before" -ge 6 ]; then
        kill -KILL "${pair_pid[a]}"
        wait "${pair_pid[a]}" 2> /dev/null
        unset 'pair_pid[a]'
        killed=1
        echo "killed instance a with SIGKILL after $before requests of the session"
        break
    fi
    kill -0 "$sync_pid" 2> /dev/null || break
    sleep 0.05
done
wait "$sync_pid"
sync_status=$?
if [ $killed != 1 ]; then
    echo "FAIL: the sync ended before the kill"; tail -20 "$work/sync-A.log"; exit 1
fi
if [ $sync_status != 0 ]; then
    echo "FAIL: the session did not complete after the kill (exit $sync_status)"
    tail -30 "$work/sync-A.log"; tail -20 "$work/haproxy.log"; exit 1
fi
after_b=$(sync_requests b)
echo "session completed; instance b answered $after_b requests in all"

stored=$(psql "$SYNCML_TEST_DATABASE_URL" -Atc "SELECT count(*) FROM items i JOIN datastores d USING (tenant_id, user_id, datastore_id)
    JOIN tenants t USING (tenant_id) WHERE t.name = 'hakill' AND d.kind = 'contacts' AND NOT i.deleted")
echo "server holds $stored contacts"
[ "$stored" = $count ] || { echo "FAIL: expected $count contacts on the server"; exit 1; }

phone B || { echo "FAIL: client setup B"; exit 1; }
mkdir -p "$work/B/data/contacts"
if ! bash "$interop/client.sh" sync --home "$work/B" --mode refresh-from-server > "$work/sync-B.log" 2>&1; then
    echo "FAIL: refresh-from-server of the second phone"; tail -20 "$work/sync-B.log"; exit 1
fi
if ! python3 "$interop/compare.py" "$work/A/data/contacts" "$work/B/data/contacts" > "$work/compare.log" 2>&1; then
    echo "FAIL: the second phone's items differ from the first's"; head -40 "$work/compare.log"; exit 1
fi
echo "PASS: the session survived SIGKILL of one instance; $count contacts complete on both phones"
