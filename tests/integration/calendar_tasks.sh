#!/usr/bin/env bash
# A phone calendar that holds tasks, end to end against the real syncml-server (issue 36): a scripted phone syncs
# VEVENTs and VTODOs through its one "Calendar" datastore in vCalendar 1.0, and a CalDAV client of the same user sees
# the tasks in its task collection and edits them (tests/integration/calendar_tasks.py says what is checked).
# Environment: SYNCML_BUILD_DIR, SYNCML_TEST_DATABASE_URL; SYNCML_TEST_WORK_DIR (optional).
set -uo pipefail
: "${SYNCML_BUILD_DIR:?}" "${SYNCML_TEST_DATABASE_URL:?}"
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
bin=$SYNCML_BUILD_DIR/src/syncml-server
work=${SYNCML_TEST_WORK_DIR:-$(mktemp -d /tmp/calendar-tasks.XXXXXX)}/calendar-tasks
rm -rf "$work"
mkdir -p "$work"
source "$here/lib/checks.bash"

export SYNCML_DATABASE_URL=$SYNCML_TEST_DATABASE_URL SYNCML_DATA_DIR=$work/data
port=$(free_port)
export SYNCML_LISTEN=127.0.0.1:$port SYNCML_METRICS_LISTEN=127.0.0.1:$(free_port)
admin() { "$bin" admin "$@" >>"$work/admin.log" 2>&1; }
"$bin" migrate >>"$work/admin.log" 2>&1 || { echo "FAIL: migrate"; tail "$work/admin.log"; exit 1; }
tenant=cal$$  # a database of an earlier run may have its own
admin tenant add "$tenant" && admin tenant set "$tenant" --dav on &&
    admin user add --tenant "$tenant" --user nokia --password pw ||
    { echo "FAIL: tenant and user"; cat "$work/admin.log"; exit 1; }
"$bin" serve >>"$work/server.log" 2>&1 &
server=$!
trap 'kill -TERM $server 2>/dev/null; wait $server 2>/dev/null' EXIT
for _ in $(seq 1 120); do curl -fsS "http://$SYNCML_LISTEN/readyz" >/dev/null 2>&1 && break; sleep 0.5; done
curl -fsS "http://$SYNCML_LISTEN/readyz" >/dev/null 2>&1 || { echo "FAIL: server not ready"; tail -20 "$work/server.log"; exit 1; }

python3 "$here/calendar_tasks.py" "http://$SYNCML_LISTEN" "$tenant" nokia pw
status=$?
[ $status -eq 0 ] || { echo "server log: $work/server.log"; tail -20 "$work/server.log"; }
exit $status
