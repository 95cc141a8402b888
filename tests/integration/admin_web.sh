#!/usr/bin/env bash
# The admin web page (issue 39) in a real browser: a server with an admin listener and a token, a phone that failed
# once to log in and then synced, and headless Chromium driven by Selenium (admin_web.py) logging in, seeing the tenant
# with its users, devices, sessions, failed logins and chart, adding and disabling a user, creating a token and
# resetting the device, with no console error or CSP violation; the database and the API confirm the reset. The
# page's screenshot is left in the work directory (SYNCML_TEST_SCREENSHOT=FILE copies it, e.g. to docs/admin-page.png).
# Environment: SYNCML_BUILD_DIR, SYNCML_TEST_DATABASE_URL, SYNCML_SOURCE_DIR, SYNCML_TEST_WORK_DIR (optional).
set -uo pipefail
source_dir=${SYNCML_SOURCE_DIR:?SYNCML_SOURCE_DIR not set}
bin=${SYNCML_BUILD_DIR:?SYNCML_BUILD_DIR not set}/src/syncml-server
database_url=${SYNCML_TEST_DATABASE_URL:?SYNCML_TEST_DATABASE_URL not set}
work=${SYNCML_TEST_WORK_DIR:-$(mktemp -d /tmp/admin-web.XXXXXX)}
mkdir -p "$work"
source "$source_dir/tests/integration/lib/checks.bash"
admin() { "$bin" admin "$@" 2>>"$work/admin.err"; }
sql() { psql "$database_url" -Atc "$1"; }
# Debian's Python has python3-selenium; a python3 earlier on PATH (pyenv) may not.
py=/usr/bin/python3

export SYNCML_DATABASE_URL=$database_url SYNCML_DATA_DIR=$work/data
export SYNCML_LISTEN=127.0.0.1:$(free_port) SYNCML_METRICS_LISTEN=127.0.0.1:$(free_port)
export SYNCML_ADMIN_LISTEN=127.0.0.1:$(free_port)
"$bin" migrate >/dev/null || { echo "FAIL: migrate"; exit 1; }
admin tenant add acme >/dev/null || exit 1
admin user add --tenant acme --user alice --password pw >/dev/null || exit 1
admin user add --tenant acme --user carol --password pw >/dev/null || exit 1
token=$(admin token create --name web-ops --all) || exit 1

"$bin" serve >>"$work/server.log" 2>&1 &
server_pid=$!
trap 'kill -TERM $server_pid 2>/dev/null; wait $server_pid 2>/dev/null' EXIT
for _ in $(seq 1 120); do curl -fsS "http://$SYNCML_LISTEN/readyz" >/dev/null 2>&1 && break; sleep 0.5; done

# --- the page's files, as any client sees them ---------------------------------------------------------------
page() { curl -sS --path-as-is -o "$work/page" -D "$work/page.headers" -w '%{http_code}' "http://$SYNCML_ADMIN_LISTEN$1"; }
has_header() { grep -qiF "$1" "$work/page.headers"; }
check "GET / on the admin port is the page" test "$(page /)" = 200
check "as HTML" has_header "Content-Type: text/html; charset=utf-8"
check "with the strict CSP" has_header "Content-Security-Policy: default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
check "nosniff, no referrer, no store" bash -c "grep -qi '^X-Content-Type-Options: nosniff' '$work/page.headers' &&
    grep -qi '^Referrer-Policy: no-referrer' '$work/page.headers' && grep -qi '^Cache-Control: no-store' '$work/page.headers'"
check "the script is JavaScript" bash -c "test \"\$(curl -s -o /dev/null -w '%{content_type}' http://$SYNCML_ADMIN_LISTEN/ui/app.js)\" = 'text/javascript; charset=utf-8'"
check "the style sheet is CSS" bash -c "test \"\$(curl -s -o /dev/null -w '%{content_type}' http://$SYNCML_ADMIN_LISTEN/ui/admin.css)\" = 'text/css; charset=utf-8'"
check "an unknown file: 404" test "$(page /ui/nothing.js)" = 404
check "a path out of the folder: 404" test "$(page /ui/../CMakeLists.txt)" = 404
check "the SyncML port does not serve the page" test "$(curl -s -o /dev/null -w '%{http_code}' "http://$SYNCML_LISTEN/ui/app.js")" = 404

# --- a phone: one failed login, then a sync -----------------------------------------------------------------
phone() {
    PYTHONPATH="$source_dir/tests/integration/lib" $py - "http://$SYNCML_LISTEN" "$@" <<'PY'
import sys
import syncml_client as sc
from syncml_phone import Phone
base, password, what = sys.argv[1], sys.argv[2], sys.argv[3]
p = Phone(base, "acme", "alice", password, "web-phone")
if what == "login":
    print(p.start(mode=200).header_status())
else:
    print(p.full_sync([("c%d" % i, sc.vcard("Web%d" % i)) for i in range(3)], mode=200) or "done")
PY
}
check "a wrong password is refused (401)" test "$(phone wrong login)" = 401
check "the phone syncs three contacts" test "$(phone pw sync)" = done
check "its store will sync normally next" test "$(sql "SELECT bool_or(needs_slow_sync) FROM device_stores s
    JOIN devices d USING (tenant_id, user_id, device_id) WHERE d.device_uri = 'web-phone'")" = f

# --- the browser ------------------------------------------------------------------------------------------
started=$SECONDS
SYNCML_TEST_ADMIN_URL="http://$SYNCML_ADMIN_LISTEN/" SYNCML_TEST_ADMIN_TOKEN=$token SYNCML_TEST_WORK_DIR=$work \
    timeout 90 $py "$source_dir/tests/integration/admin_web.py" >"$work/browser.log" 2>&1
browser_status=$?
cat "$work/browser.log"
check "the browser test passed ($((SECONDS - started)) s)" test "$browser_status" = 0
check "the reset reached the database: the device will slow-sync" test "$(sql "SELECT bool_and(needs_slow_sync)
    FROM device_stores s JOIN devices d USING (tenant_id, user_id, device_id) WHERE d.device_uri = 'web-phone'")" = t
check "the API says so too" bash -c "curl -fsS -H 'Authorization: Bearer $token' \
    http://$SYNCML_ADMIN_LISTEN/admin/v1/tenants/acme/devices | grep -q '\"device\":\"web-phone\".*\"needs_slow_sync\":true'"
check "the user added on the page exists, disabled" test "$(sql "SELECT disabled_at IS NOT NULL FROM users u JOIN tenants t
    USING (tenant_id) WHERE t.name = 'acme' AND u.name = 'dave'")" = t
check "the token created on the page exists for acme" test "$(sql "SELECT t.name FROM admin_tokens a JOIN tenants t
    ON t.tenant_id = a.scope_tenant_id WHERE a.name = 'web-acme'")" = acme
check "the page's changes are in the audit log" test "$(sql "SELECT string_agg(action, ',' ORDER BY audit_id) FROM admin_audit
    WHERE actor = 'token:web-ops'")" = "user.create,user.disable,token.create,device.reset"
check "a screenshot was taken" test -s "$work/admin-page.png"
if [ -n "${SYNCML_TEST_SCREENSHOT:-}" ] && [ -s "$work/admin-page.png" ]; then cp "$work/admin-page.png" "$SYNCML_TEST_SCREENSHOT"; fi

echo "$failures failure(s)"
[ "$failures" -eq 0 ]
