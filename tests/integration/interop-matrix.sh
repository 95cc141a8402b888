#!/usr/bin/env bash
# The SyncEvolution interop matrix (every kind and format, XML and WBXML, SyncML 1.1, small messages,
# large objects) against our server: the Debug build in $SYNCML_BUILD_DIR on the test database.
# Exit 0 when the matrix ends with "N passed, 0 failed".
set -euo pipefail
: "${SYNCML_BUILD_DIR:?}" "${SYNCML_TEST_DATABASE_URL:?}" "${SYNCML_SOURCE_DIR:?}"
server=$SYNCML_BUILD_DIR/src/syncml-server
interop=${SYNCML_INTEROP_DIR:-$SYNCML_SOURCE_DIR/../shared/interop}
port=${SYNCML_INTEROP_PORT:-18150}
work=${SYNCML_TEST_WORK_DIR:-$(mktemp -d /tmp/interop-matrix.XXXXXX)}/matrix-run
mkdir -p "$work"

export SYNCML_DATABASE_URL=$SYNCML_TEST_DATABASE_URL
export SYNCML_LISTEN=127.0.0.1:$port SYNCML_METRICS_LISTEN=127.0.0.1:$((port + 1)) SYNCML_LOG_LEVEL=warn
"$server" migrate > /dev/null
"$server" admin tenant add matrix > /dev/null
"$server" serve > "$work/server.log" 2>&1 &
pid=$!
cleanup() {
    kill "$pid" 2> /dev/null && wait "$pid" 2> /dev/null
    echo "server log: $work/server.log"
}
trap cleanup EXIT
for _ in $(seq 1 100); do
    curl -sf "http://127.0.0.1:$((port + 1))/healthz" > /dev/null 2>&1 && break
    sleep 0.2
done

"$interop/run-matrix.sh" --url "http://127.0.0.1:$port/sync/matrix" --user-prefix m --password pw \
    --work "$work/matrix" \
    --prepare "\"$server\" admin user add --tenant matrix --user \"\$USER_NAME\" --password \"\$PASSWORD\" > /dev/null"
