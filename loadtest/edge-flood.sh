#!/usr/bin/env bash
# One tenant's sync latency while another address abuses the server (issue 35): tenant A's phone (syncml-load,
# from 127.0.0.1) runs N no-change two-way sessions one after the other, first on a quiet server, then while
# flood_client.py, from 127.0.0.2,
#   bad-password: sends DAV PROPFINDs with a tenant B user's name and wrong passwords on C connections, looping;
#   idle:         holds M TCP connections open that send nothing.
# Prints p50/p95/max of A's sessions per phase, the ratios to the quiet phase, and what the flood achieved.
# Before the phases a warm-up phone runs the same sessions and the tables are analyzed. A benchmark, not a test: it
# asserts nothing about times.
#
#   loadtest/edge-flood.sh [--quick] [--sessions N] [--flood-clients C] [--idle-connections M] [--port 18700]
#
# --quick: 20 sessions, 100 flood clients, 1000 idle connections (a smoke run of ~1 minute); default: 200
# sessions, 200 flood clients, 5000 idle connections.
# Env: SYNCML_RELEASE_BUILD (default build/release, built when missing), LT_PG_PORT (55460), LT_WORK
# (/tmp/syncml-loadtest), LT_WORKER_THREADS (4), LT_QUEUE_LIMIT (here 256, the server's default, so a tenant's share
# of the queue is what it is in production), EDGE_FLOOD_SOURCE (127.0.0.2).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

sessions=200 flood_clients=200 idle_connections=5000 port=18700 settle=3
while [ $# -gt 0 ]; do
    case $1 in
        --quick) sessions=20 flood_clients=100 idle_connections=1000 settle=2 ;;
        --sessions) sessions=$2; shift ;;
        --flood-clients) flood_clients=$2; shift ;;
        --idle-connections) idle_connections=$2; shift ;;
        --port) port=$2; shift ;;
        *)
            echo "usage: $0 [--quick] [--sessions N] [--flood-clients C] [--idle-connections M] [--port P]" >&2
            exit 2
            ;;
    esac
    shift
done
source_address=${EDGE_FLOOD_SOURCE:-127.0.0.2}
work=$LT_WORK/edge-flood
flood=$LT_ROOT/loadtest/flood_client.py
rm -rf "$work"
mkdir -p "$work"
trap lt_cleanup EXIT

lt_build
lt_pg_start edge_flood
lt_migrate
# Tenant A: one phone per phase, each with fresh accounts (syncml-load's checks assume a new account), so the
# phases do not share a device's history.
phases=(quiet bad-password idle)
for phase in warm-up "${phases[@]}"; do lt_accounts --tenants 1 --users 1 --prefix "ef-$phase" --password pw >/dev/null; done
# Tenant B: DAV on, one user whose name the flood uses with wrong passwords.
lt_admin tenant add flood-b >/dev/null
lt_admin tenant set flood-b --dav on >/dev/null
lt_admin user add --tenant flood-b --user bob --password right-password >/dev/null
LT_QUEUE_LIMIT=${LT_QUEUE_LIMIT:-256} lt_server_start "$port" "$work/server.log"

# start_flood PHASE: flood_client.py in the background for the phase (none for quiet), sets flood_pid.
start_flood() {
    flood_pid=''
    case $1 in
        bad-password)
            python3 "$flood" bad-password --target "127.0.0.1:$port" --source "$source_address" \
                --path /dav/flood-b/bob/ --user bob --clients "$flood_clients" >"$work/flood-$1.json" 2>"$work/flood-$1.log" &
            ;;
        idle)
            python3 "$flood" idle --target "127.0.0.1:$port" --source "$source_address" \
                --connections "$idle_connections" >"$work/flood-$1.json" 2>"$work/flood-$1.log" &
            ;;
        *) return 0 ;;
    esac
    flood_pid=$!
    LT_PIDS+=("$flood_pid")
    sleep "$settle"  # the flood reaches its level before A's sessions start
}

# stop_flood PHASE: stops the flood, then waits until the server has worked off what the flood queued, so the next
# phase does not measure this one's backlog: one more PROPFIND of tenant B queues behind B's own requests, so its
# answer comes when they are done. Writes the seconds that took.
stop_flood() {
    local started=$SECONDS
    if [ -n "$flood_pid" ]; then
        kill -TERM "$flood_pid" 2>/dev/null || true
        wait "$flood_pid" 2>/dev/null || true
        curl -s -o /dev/null --max-time 900 -X PROPFIND -H 'Depth: 0' -u bob:drained \
            "http://127.0.0.1:$port/dav/flood-b/bob/" || true
    fi
    echo $((SECONDS - started)) >"$work/drain-$1.txt"
}

# run_phase PHASE: tenant A's phone, first slow sync (not measured), then N two-way sessions one at a time.
run_phase() {
    local phase=$1
    lt_log "phase $phase: $sessions sessions of tenant A"
    start_flood "$phase"
    "$LT_LOAD" run --url "http://127.0.0.1:$port/sync" --tenants 1 --users 1 --prefix "ef-$phase" --password pw \
        --concurrency 1 --sessions "$sessions" --duration 3600 --items 10 --adds 0 --replaces 0 --deletes 0 \
        --server-pid "$LT_SERVER_PID" --json "$work/load-$phase.json" --no-progress >"$work/load-$phase.txt" || true
    stop_flood "$phase"
}

# The quiet phase must not pay for a new database: a warm-up phone first, then statistics, as bench-pgbench.sh does.
run_phase warm-up
psql -q "$LT_DB_URL" -c "VACUUM ANALYZE"
for phase in "${phases[@]}"; do run_phase "$phase"; done

latency() { lt_json "$work/load-$1.json" "measured.latency.session_two-way.$2"; }
echo
echo "tenant A: $sessions no-change two-way sessions, one at a time, from 127.0.0.1; flood from $source_address"
printf '%-14s %9s %7s %9s %9s %9s %10s %10s %10s %8s\n' phase sessions errors "p50 ms" "p95 ms" "max ms" \
    "p50 ratio" "p95 ratio" "max ratio" "drain s"
for phase in "${phases[@]}"; do
    printf '%-14s %9s %7s %9s %9s %9s %10s %10s %10s %8s\n' "$phase" \
        "$(lt_json "$work/load-$phase.json" measured.sessions_ok)" "$(lt_json "$work/load-$phase.json" measured.errors_total)" \
        "$(latency "$phase" p50_ms)" "$(latency "$phase" p95_ms)" "$(latency "$phase" max_ms)" \
        "$(lt_ratio "$(latency "$phase" p50_ms)" "$(latency quiet p50_ms)")" \
        "$(lt_ratio "$(latency "$phase" p95_ms)" "$(latency quiet p95_ms)")" \
        "$(lt_ratio "$(latency "$phase" max_ms)" "$(latency quiet max_ms)")" "$(cat "$work/drain-$phase.txt")"
done
echo
echo "flood (bad-password: answers by HTTP status; idle: connections held):"
for phase in bad-password idle; do echo "  $phase: $(cat "$work/flood-$phase.json" 2>/dev/null || echo 'no report')"; done
echo "(ratios: loaded / quiet; drain s: how long the server stayed busy with the flood's backlog after it stopped;"
echo " work files in $work)"
