#!/usr/bin/env bash
# Short ids for a phone that keeps short GUIDs, against the real syncml-server (issue 36): a Nokia E51 (its DevInf
# from ../shared/corpus declares MaxGUIDSize 8 for its notes) gets ids of at most 8 bytes in every Add, Replace and
# Delete, its Map of them maps the right notes, and a Map item naming no item of ours gets 404
# (tests/integration/short_guids.py says what is checked).
# Environment: SYNCML_BUILD_DIR, SYNCML_TEST_DATABASE_URL, SYNCML_CORPUS_DIR; SYNCML_TEST_WORK_DIR (optional).
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
corpus=${SYNCML_CORPUS_DIR:-$here/../../../shared/corpus}
source "$here/lib/one_server.bash"
one_server_setup short_guids

tenant=guid$$  # a database of an earlier run may have its own
admin tenant add "$tenant" && admin user add --tenant "$tenant" --user nokia --password pw ||
    { echo "FAIL: tenant and user"; cat "$work/admin.log"; exit 1; }
one_server_start

python3 "$here/short_guids.py" "http://$SYNCML_LISTEN" "$tenant" nokia pw "$corpus/syncgw/test/mimedata/wbxml/out01.xml"
status=$?
if grep -q "a Map item names no item of ours" "$work/server.log"; then
    echo "PASS: the unknown Map item is logged"
else
    echo "FAIL: no log line for the unknown Map item"
    status=1
fi
[ $status -eq 0 ] || { echo "server log: $work/server.log"; tail -20 "$work/server.log"; }
exit $status
