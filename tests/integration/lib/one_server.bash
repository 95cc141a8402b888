# Sourced by the integration scripts that run one server of the test build against the test database and then drive
# it with a client of their own: the work directory, the listeners on free ports, the schema, an admin command, the
# server started and awaited, and every process the script names stopped when it exits.
# Needs SYNCML_BUILD_DIR and SYNCML_TEST_DATABASE_URL; SYNCML_TEST_WORK_DIR is optional.
: "${SYNCML_BUILD_DIR:?}" "${SYNCML_TEST_DATABASE_URL:?}"
source "$(dirname "${BASH_SOURCE[0]}")/checks.bash"
source "$(dirname "${BASH_SOURCE[0]}")/wait.bash"
bin=$SYNCML_BUILD_DIR/src/syncml-server
stopped_at_exit=()

# one_server_setup NAME: a fresh $work for NAME, the server's database, data directory and listeners ($port,
# $metrics_port), and the schema migrated
one_server_setup() {
    work=${SYNCML_TEST_WORK_DIR:-$(mktemp -d "/tmp/$1.XXXXXX")}/$1
    rm -rf "$work"
    mkdir -p "$work"
    export SYNCML_DATABASE_URL=$SYNCML_TEST_DATABASE_URL SYNCML_DATA_DIR=$work/data
    port=$(free_port)
    metrics_port=$(free_port)
    export SYNCML_LISTEN=127.0.0.1:$port SYNCML_METRICS_LISTEN=127.0.0.1:$metrics_port
    "$bin" migrate >>"$work/admin.log" 2>&1 || { echo "FAIL: migrate"; tail "$work/admin.log"; exit 1; }
}
# admin ARGS...: an admin command, its output in $work/admin.log
admin() { "$bin" admin "$@" >>"$work/admin.log" 2>&1; }
# stop_at_exit PID...: processes ended (TERM, then awaited) when the script exits
stop_at_exit() {
    stopped_at_exit+=("$@")
    trap 'kill -TERM "${stopped_at_exit[@]}" 2>/dev/null; wait "${stopped_at_exit[@]}" 2>/dev/null' EXIT
}
# one_server_start: `serve` in the background ($server, its log $work/server.log), awaited until it is ready
one_server_start() {
    "$bin" serve >>"$work/server.log" 2>&1 &
    server=$!
    stop_at_exit $server
    wait_for_url "http://$SYNCML_LISTEN/readyz" $server ||
        { echo "FAIL: server not ready"; tail -20 "$work/server.log"; exit 1; }
}
