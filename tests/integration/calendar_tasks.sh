#!/usr/bin/env bash
# A phone calendar that holds tasks, end to end against the real syncml-server (issue 36): a scripted phone syncs
# VEVENTs and VTODOs through its one "Calendar" datastore in vCalendar 1.0, and a CalDAV client of the same user sees
# the tasks in its task collection and edits them (tests/integration/calendar_tasks.py says what is checked).
# Environment: SYNCML_BUILD_DIR, SYNCML_TEST_DATABASE_URL; SYNCML_TEST_WORK_DIR (optional).
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$here/lib/one_server.bash"
one_server_setup calendar-tasks

tenant=cal$$  # a database of an earlier run may have its own
admin tenant add "$tenant" && admin tenant set "$tenant" --dav on &&
    admin user add --tenant "$tenant" --user nokia --password pw ||
    { echo "FAIL: tenant and user"; cat "$work/admin.log"; exit 1; }
one_server_start

python3 "$here/calendar_tasks.py" "http://$SYNCML_LISTEN" "$tenant" nokia pw
status=$?
[ $status -eq 0 ] || { echo "server log: $work/server.log"; tail -20 "$work/server.log"; }
exit $status
