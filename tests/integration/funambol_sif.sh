#!/usr/bin/env bash
# Funambol's SIF formats end to end against the real syncml-server (issue 36): a scripted client in the manner of
# Funambol's (SIF-C in b64 through scard) and a CardDAV client of the same user share contacts; unreadable SIF and
# encodings we cannot undo get 415 (tests/integration/funambol_sif.py says what is checked).
# Environment: SYNCML_BUILD_DIR, SYNCML_TEST_DATABASE_URL; SYNCML_TEST_WORK_DIR (optional).
set -uo pipefail
: "${SYNCML_BUILD_DIR:?}" "${SYNCML_TEST_DATABASE_URL:?}"
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
bin=$SYNCML_BUILD_DIR/src/syncml-server
work=${SYNCML_TEST_WORK_DIR:-$(mktemp -d /tmp/funambol-sif.XXXXXX)}/funambol
rm -rf "$work"
mkdir -p "$work"
source "$here/lib/checks.bash"

export SYNCML_DATABASE_URL=$SYNCML_TEST_DATABASE_URL SYNCML_DATA_DIR=$work/data
port=$(free_port)
export SYNCML_LISTEN=127.0.0.1:$port SYNCML_METRICS_LISTEN=127.0.0.1:$(free_port)
admin() { "$bin" admin "$@" >>"$work/admin.log" 2>&1; }
"$bin" migrate >>"$work/admin.log" 2>&1 || { echo "FAIL: migrate"; tail "$work/admin.log"; exit 1; }
tenant=fun$$  # a database of an earlier run may have its own
admin tenant add "$tenant" && admin tenant set "$tenant" --dav on &&
    admin user add --tenant "$tenant" --user outlook --password pw ||
    { echo "FAIL: tenant and user"; cat "$work/admin.log"; exit 1; }
"$bin" serve >>"$work/server.log" 2>&1 &
server=$!
trap 'kill -TERM $server 2>/dev/null; wait $server 2>/dev/null' EXIT
for _ in $(seq 1 120); do curl -fsS "http://$SYNCML_LISTEN/readyz" >/dev/null 2>&1 && break; sleep 0.5; done
curl -fsS "http://$SYNCML_LISTEN/readyz" >/dev/null 2>&1 || { echo "FAIL: server not ready"; tail -20 "$work/server.log"; exit 1; }

python3 "$here/funambol_sif.py" "http://$SYNCML_LISTEN" "$tenant" outlook pw
status=$?
[ $status -eq 0 ] || { echo "server log: $work/server.log"; tail -20 "$work/server.log"; }
exit $status
