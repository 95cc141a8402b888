#!/usr/bin/env bash
# Server-alerted sync through a real SMS gateway (issue 37): Kannel's bearerbox and smsbox (Debian kannel) with its
# fake SMSC (kannel-extras), the server sending through Kannel's sendsms; what is checked is in
# tests/integration/push_kannel.py.
# Environment: SYNCML_BUILD_DIR, SYNCML_TEST_DATABASE_URL; SYNCML_TEST_WORK_DIR (optional).
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$here/lib/one_server.bash"
one_server_setup kannel
san_decode=$SYNCML_BUILD_DIR/push/san-decode
fakesmsc=/usr/lib/kannel/test/fakesmsc
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
/usr/sbin/bearerbox "$work/kannel.conf" >"$work/bearerbox.out" 2>&1 &
stop_at_exit $!
for _ in $(seq 1 50); do (echo >/dev/tcp/127.0.0.1/"$smsc_port") 2>/dev/null && break; sleep 0.2; done
# -m 0: it sends nothing, and prints every message Kannel gives it.
"$fakesmsc" -H 127.0.0.1 -r "$smsc_port" -m 0 "1 2 text x" >"$work/fakesmsc.log" 2>&1 &
stop_at_exit $!
/usr/sbin/smsbox "$work/kannel.conf" >"$work/smsbox.out" 2>&1 &
stop_at_exit $!
for _ in $(seq 1 50); do (echo >/dev/tcp/127.0.0.1/"$sendsms_port") 2>/dev/null && break; sleep 0.2; done

export SYNCML_PUBLIC_URL=http://127.0.0.1:$port
export SYNCML_PUSH_SMS_URL="http://127.0.0.1:$sendsms_port/cgi-bin/sendsms?username=syncml&password=smspw"
export SYNCML_PUSH_INTERVAL=200ms SYNCML_PUSH_SETTLE=1s
tenant=sms$$
admin tenant add "$tenant" && admin tenant set "$tenant" --dav on --push on &&
    admin user add --tenant "$tenant" --user ann --password pw ||
    { echo "FAIL: tenant and user"; cat "$work/admin.log"; exit 1; }
one_server_start

python3 "$here/push_kannel.py" "http://$SYNCML_LISTEN" "$tenant" ann pw "$work/fakesmsc.log" "$san_decode" "$bin" admin
status=$?
[ $status -eq 0 ] || { echo "logs: $work"; grep -i push "$work/server.log" | tail -10; tail -5 "$work/smsbox.log"; }
exit $status
