# Sourced by the integration scripts that drive real SyncEvolution phones through wiretap.py (client_scenarios.sh,
# filtered_sync.sh). The caller sets server, work, port, metrics_port, tap_port and interop, and configures the
# server through its SYNCML_* environment.
#   start_tapped_server: `$server serve` with its log in $work/server.log, stopped (with a running wiretap) on exit,
#                        once $metrics_port answers /healthz;
#   start_tap DUMP / stop_tap: wiretap.py between tap_port and the server, recording into $work/DUMP;
#   fail MESSAGE: counts into $failures (and returns 1);
#   run_scenarios NAME...: runs scenario_NAME for each, PASS or FAIL with its time; fails when any failed.
# shellcheck source=wait.bash
source "$(dirname "${BASH_SOURCE[0]}")/wait.bash"
tap_pid=""
server_pid=""
failures=0

fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
    return 1
}

stop_tapped_server() {
    [ -n "$tap_pid" ] && kill "$tap_pid" 2> /dev/null
    kill "$server_pid" 2> /dev/null && wait "$server_pid" 2> /dev/null
    echo "work directory: $work (server log: $work/server.log)"
}

start_tapped_server() {
    "$server" serve > "$work/server.log" 2>&1 &
    server_pid=$!
    trap stop_tapped_server EXIT
    wait_for_url "http://127.0.0.1:$metrics_port/healthz" "$server_pid" ||
        fail "the server did not start: $(tail -3 "$work/server.log" | tr '\n' ' ')"
}

start_tap() {
    python3 "$interop/wiretap.py" --listen "$tap_port" --target "http://127.0.0.1:$port" --dump "$work/$1" \
        --decode > "$work/$1.tap.log" 2>&1 &
    tap_pid=$!
    wait_for_port "$tap_port" "$tap_pid" || fail "wiretap did not start: $(tail -3 "$work/$1.tap.log" | tr '\n' ' ')"
}

stop_tap() {
    kill "$tap_pid" 2> /dev/null && wait "$tap_pid" 2> /dev/null
    tap_pid=""
}

run_scenarios() {
    local s before start
    for s in "$@"; do
        before=$failures
        start=$(date +%s)
        "scenario_$s"
        if [ $failures -eq $before ]; then
            echo "PASS: scenario $s ($(($(date +%s) - start)) s)"
        else
            echo "FAIL: scenario $s ($(($(date +%s) - start)) s)"
        fi
    done
    [ $failures -eq 0 ]
}
