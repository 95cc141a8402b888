#!/usr/bin/env bash
# Funambol's SIF formats end to end against the real syncml-server (issue 36): a scripted client in the manner of
# Funambol's (SIF-C in b64 through scard) and a CardDAV client of the same user share contacts; unreadable SIF and
# encodings we cannot undo get 415 (tests/integration/funambol_sif.py says what is checked).
# Environment: SYNCML_BUILD_DIR, SYNCML_TEST_DATABASE_URL; SYNCML_TEST_WORK_DIR (optional).
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$here/lib/one_server.bash"
one_server_setup funambol

tenant=fun$$  # a database of an earlier run may have its own
admin tenant add "$tenant" && admin tenant set "$tenant" --dav on &&
    admin user add --tenant "$tenant" --user outlook --password pw ||
    { echo "FAIL: tenant and user"; cat "$work/admin.log"; exit 1; }
one_server_start

python3 "$here/funambol_sif.py" "http://$SYNCML_LISTEN" "$tenant" outlook pw
status=$?
[ $status -eq 0 ] || { echo "server log: $work/server.log"; tail -20 "$work/server.log"; }
exit $status
