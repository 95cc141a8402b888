#!/usr/bin/env bash
# Server-alerted sync through a real SMS gateway (issue 37): Kannel's bearerbox and smsbox (Debian kannel) with its
# fake SMSC (kannel-extras), the server sending through Kannel's sendsms; what is checked is in
# tests/integration/push_kannel.py.
# Environment: SYNCML_BUILD_DIR, SYNCML_TEST_DATABASE_URL; SYNCML_TEST_WORK_DIR (optional).
set -uo pipefail
: "${SYNCML_BUILD_DIR:?}" "${SYNCML_TEST_DATABASE_URL:?}"
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
bin=$SYNCML_BUILD_DIR/src/syncml-server
san_decode=$SYNCML_BUILD_DIR/push/san-decode
fakesmsc=/usr/lib/kannel/test/fakesmsc
work=${SYNCML_TEST_WORK_DIR:-$(mktemp -d /tmp/push-kannel.XXXXXX)}/kannel
rm -rf "$work"
mkdir -p "$work"
source "$here/lib/checks.bash"
for tool in /usr/sbin/bearerbox /usr/sbin/smsbox "$fakesmsc" "$san_decode"; do
    [ -x "$tool" ] || { echo "FAIL: $tool missing (Debian kannel, kannel-extras; the test build's san-decode)"; exit 1; }
done

admin_port=$(free_port)
box_port=$(free_port)
smsc_port=$(free_port)
sendsms_port=$(free_port)
cat >"$work/kannel.conf" <<CONF
group = core
admin-port = $admin_port
admin-password = adminpw
smsbox-port = $box_port
log-file = "$work/bearerbox.log"
log-level = 0
box-allow-ip = "127.0.0.1"

group = smsc
smsc = fake
smsc-id = fake
port = $smsc_port
connect-allow-ip = "127.0.0.1"

group = smsbox
bearerbox-host = 127.0.0.1
sendsms-port = $sendsms_port
log-file = "$work/smsbox.log"
log-level = 0

group = sendsms-user
username = syncml
password = smspw
default-sender = 4242
max-messages = 3
concatenation = true

group = sms-service
keyword = default
text = "no service"
CONF
pids=()
stop_all() { for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null; done; wait 2>/dev/null; }
trap stop_all EXIT
/usr/sbin/bearerbox "$work/kannel.conf" >"$work/bearerbox.out" 2>&1 &
pids+=($!)
for _ in $(seq 1 50); do (echo >/dev/tcp/127.0.0.1/"$smsc_port") 2>/dev/null && break; sleep 0.2; done
# -m 0: it sends nothing, and prints every message Kannel gives it.
"$fakesmsc" -H 127.0.0.1 -r "$smsc_port" -m 0 "1 2 text x" >"$work/fakesmsc.log" 2>&1 &
pids+=($!)
/usr/sbin/smsbox "$work/kannel.conf" >"$work/smsbox.out" 2>&1 &
pids+=($!)
for _ in $(seq 1 50); do (echo >/dev/tcp/127.0.0.1/"$sendsms_port") 2>/dev/null && break; sleep 0.2; done

export SYNCML_DATABASE_URL=$SYNCML_TEST_DATABASE_URL SYNCML_DATA_DIR=$work/data
port=$(free_port)
export SYNCML_LISTEN=127.0.0.1:$port SYNCML_METRICS_LISTEN=127.0.0.1:$(free_port)
export SYNCML_PUBLIC_URL=http://127.0.0.1:$port
export SYNCML_PUSH_SMS_URL="http://127.0.0.1:$sendsms_port/cgi-bin/sendsms?username=syncml&password=smspw"
export SYNCML_PUSH_INTERVAL=200ms SYNCML_PUSH_SETTLE=1s
admin() { "$bin" admin "$@" >>"$work/admin.log" 2>&1; }
"$bin" migrate >>"$work/admin.log" 2>&1 || { echo "FAIL: migrate"; tail "$work/admin.log"; exit 1; }
tenant=sms$$
admin tenant add "$tenant" && admin tenant set "$tenant" --dav on --push on &&
    admin user add --tenant "$tenant" --user ann --password pw ||
    { echo "FAIL: tenant and user"; cat "$work/admin.log"; exit 1; }
"$bin" serve >>"$work/server.log" 2>&1 &
pids+=($!)
for _ in $(seq 1 120); do curl -fsS "http://$SYNCML_LISTEN/readyz" >/dev/null 2>&1 && break; sleep 0.5; done
curl -fsS "http://$SYNCML_LISTEN/readyz" >/dev/null 2>&1 || { echo "FAIL: server not ready"; tail -20 "$work/server.log"; exit 1; }

python3 "$here/push_kannel.py" "http://$SYNCML_LISTEN" "$tenant" ann pw "$work/fakesmsc.log" "$san_decode" "$bin" admin
status=$?
[ $status -eq 0 ] || { echo "logs: $work"; grep -i push "$work/server.log" | tail -10; tail -5 "$work/smsbox.log"; }
exit $status
