#!/usr/bin/env bash
# Server-alerted sync through the real server (issue 37): phones and a CardDAV client of one user, the server's
# webhook posting to a receiver here; what is checked is in tests/integration/push_webhook.py.
# Environment: SYNCML_BUILD_DIR, SYNCML_TEST_DATABASE_URL; SYNCML_TEST_WORK_DIR (optional).
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$here/lib/one_server.bash"
one_server_setup push
hook_port=$(free_port)
export SYNCML_PUBLIC_URL=http://127.0.0.1:$port
export SYNCML_PUSH_WEBHOOK_URL=http://127.0.0.1:$hook_port/hook SYNCML_PUSH_INTERVAL=200ms SYNCML_PUSH_SETTLE=2s
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
stop_at_exit $!
one_server_start

python3 "$here/push_webhook.py" "http://$SYNCML_LISTEN" "http://127.0.0.1:$metrics_port/metrics" "$tenant" ann pw \
    "$work/hooks.jsonl" "$bin" admin
status=$?
grep -q "push sender started" "$work/server.log" || { echo "FAIL: no push sender in the server log"; status=1; }
[ $status -eq 0 ] || { echo "server log: $work/server.log"; grep -i push "$work/server.log" | tail -20; }
exit $status
