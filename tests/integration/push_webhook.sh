#!/usr/bin/env bash
# Server-alerted sync through the real server (issue 37): phones and a CardDAV client of one user, the server's
# webhook posting to a receiver here; what is checked is in tests/integration/push_webhook.py.
# Environment: SYNCML_BUILD_DIR, SYNCML_TEST_DATABASE_URL; SYNCML_TEST_WORK_DIR (optional).
set -uo pipefail
: "${SYNCML_BUILD_DIR:?}" "${SYNCML_TEST_DATABASE_URL:?}"
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
bin=$SYNCML_BUILD_DIR/src/syncml-server
work=${SYNCML_TEST_WORK_DIR:-$(mktemp -d /tmp/push-webhook.XXXXXX)}/push
rm -rf "$work"
mkdir -p "$work"
source "$here/lib/checks.bash"

export SYNCML_DATABASE_URL=$SYNCML_TEST_DATABASE_URL SYNCML_DATA_DIR=$work/data
port=$(free_port)
metrics_port=$(free_port)
hook_port=$(free_port)
export SYNCML_LISTEN=127.0.0.1:$port SYNCML_METRICS_LISTEN=127.0.0.1:$metrics_port
export SYNCML_PUBLIC_URL=http://127.0.0.1:$port
export SYNCML_PUSH_WEBHOOK_URL=http://127.0.0.1:$hook_port/hook SYNCML_PUSH_INTERVAL=200ms SYNCML_PUSH_SETTLE=2s
admin() { "$bin" admin "$@" >>"$work/admin.log" 2>&1; }
"$bin" migrate >>"$work/admin.log" 2>&1 || { echo "FAIL: migrate"; tail "$work/admin.log"; exit 1; }
tenant=push$$  # a database of an earlier run may have its own
admin tenant add "$tenant" && admin tenant set "$tenant" --dav on --push on &&
    admin user add --tenant "$tenant" --user ann --password pw ||
    { echo "FAIL: tenant and user"; cat "$work/admin.log"; exit 1; }

# The operator's relay: records each POST's JSON body as one line, answers 204.
cat >"$work/hook.py" <<'PY'
import http.server, sys
log = sys.argv[2]
class Hook(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        with open(log, "a") as f:
            f.write(body.decode() + "\n")
        self.send_response(204)
        self.end_headers()
    def log_message(self, *args):
        pass
http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Hook).serve_forever()
PY
python3 "$work/hook.py" "$hook_port" "$work/hooks.jsonl" &
hook=$!
"$bin" serve >>"$work/server.log" 2>&1 &
server=$!
trap 'kill -TERM $server $hook 2>/dev/null; wait $server $hook 2>/dev/null' EXIT
for _ in $(seq 1 120); do curl -fsS "http://$SYNCML_LISTEN/readyz" >/dev/null 2>&1 && break; sleep 0.5; done
curl -fsS "http://$SYNCML_LISTEN/readyz" >/dev/null 2>&1 || { echo "FAIL: server not ready"; tail -20 "$work/server.log"; exit 1; }

python3 "$here/push_webhook.py" "http://$SYNCML_LISTEN" "http://127.0.0.1:$metrics_port/metrics" "$tenant" ann pw \
    "$work/hooks.jsonl" "$bin" admin
status=$?
grep -q "push sender started" "$work/server.log" || { echo "FAIL: no push sender in the server log"; status=1; }
[ $status -eq 0 ] || { echo "server log: $work/server.log"; grep -i push "$work/server.log" | tail -20; }
exit $status
