#!/usr/bin/env bash
# Shared helpers of the loadtest/bench-*.sh scripts (sourced, not run): Release build, a private PostgreSQL
# cluster, server instances, cleanup of everything started. Everything listens on 127.0.0.1 only.

LT_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
LT_INTEROP=${SYNCML_INTEROP_DIR:-$LT_ROOT/../shared/interop}
LT_BUILD=${SYNCML_RELEASE_BUILD:-$LT_ROOT/build/release}
LT_PG_PORT=${LT_PG_PORT:-55460}
LT_WORK=${LT_WORK:-/tmp/syncml-loadtest}
LT_PIDS=()
LT_PG_DIR=''

lt_log() { echo "[$(date +%H:%M:%S)] $*" >&2; }

# Release binaries (syncml-server, syncml-load); built when missing. -Werror off: GCC 12 -O2 emits false
# -Wrestrict warnings in std::string code that Debug builds do not see.
lt_build() {
    if [ ! -x "$LT_BUILD/src/syncml-server" ] || [ ! -x "$LT_BUILD/loadtest/syncml-load" ]; then
        lt_log "building Release binaries in $LT_BUILD"
        cmake -S "$LT_ROOT" -B "$LT_BUILD" -DCMAKE_BUILD_TYPE=Release -DSYNCML_TESTS=OFF -DSYNCML_WERROR=OFF >/dev/null
        cmake --build "$LT_BUILD" --target syncml-server syncml-load -j"$(nproc)" >/dev/null
    fi
    LT_SERVER=$LT_BUILD/src/syncml-server
    LT_LOAD=$LT_BUILD/loadtest/syncml-load
}

# lt_pg_start NAME -> sets LT_DB_URL to a fresh database NAME on the private cluster
lt_pg_start() {
    LT_PG_DIR=$LT_WORK/pg
    mkdir -p "$LT_WORK"
    bash "$LT_ROOT/tests/pg-cluster.sh" start "$LT_PG_DIR" "$LT_PG_PORT" >/dev/null
    lt_pg_createdb "$1"
}

lt_pg_createdb() {
    LT_DB_URL=$(bash "$LT_ROOT/tests/pg-cluster.sh" createdb "$LT_PG_DIR" "$LT_PG_PORT" "$1")
}

# lt_server_start PORT LOGFILE -> starts syncml-server on 127.0.0.1:PORT (metrics on PORT+1), sets LT_SERVER_PID.
# Every simulated phone comes from 127.0.0.1: the per-address limits meant for the Internet (connections, password
# checks per minute) would measure the limiter, not the server, so they are opened wide here.
lt_server_start() {
    local port=$1 log=$2
    SYNCML_MAX_CONNECTIONS_PER_ADDRESS=${SYNCML_MAX_CONNECTIONS_PER_ADDRESS:-1000000} \
        SYNCML_CLIENT_LOGINS_PER_MINUTE=${SYNCML_CLIENT_LOGINS_PER_MINUTE:-100000} \
        SYNCML_CLIENT_LOGIN_BURST=${SYNCML_CLIENT_LOGIN_BURST:-100000} \
        SYNCML_DATABASE_URL=$LT_DB_URL SYNCML_LISTEN=127.0.0.1:$port SYNCML_METRICS_LISTEN=127.0.0.1:$((port + 1)) \
        SYNCML_LOG_LEVEL=${LT_LOG_LEVEL:-warn} SYNCML_WORKER_THREADS=${LT_WORKER_THREADS:-4} \
        SYNCML_WORKER_QUEUE_LIMIT=${LT_QUEUE_LIMIT:-2048} "$LT_SERVER" serve >"$log" 2>&1 &
    LT_SERVER_PID=$!
    LT_PIDS+=("$LT_SERVER_PID")
    for _ in $(seq 1 150); do
        curl -sf "http://127.0.0.1:$((port + 1))/healthz" >/dev/null 2>&1 && return 0
        kill -0 "$LT_SERVER_PID" 2>/dev/null || break
        sleep 0.2
    done
    lt_log "syncml-server on port $port did not start; log:"
    tail -20 "$log" >&2
    return 1
}

lt_migrate() { SYNCML_DATABASE_URL=$LT_DB_URL "$LT_SERVER" migrate >/dev/null; }

# lt_admin ARGS... -> syncml-server admin ARGS on the current database
lt_admin() { SYNCML_DATABASE_URL=$LT_DB_URL "$LT_SERVER" admin "$@"; }

# lt_accounts LOAD_ARGS... -> creates the tenants and users of a syncml-load population
lt_accounts() { SYNCML_DATABASE_URL=$LT_DB_URL "$LT_LOAD" accounts --server "$LT_SERVER" --execute "$@"; }

lt_stop_pid() {
    local pid=$1
    kill "$pid" 2>/dev/null || return 0
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
}

lt_cleanup() {
    local pid
    for pid in "${LT_PIDS[@]}"; do lt_stop_pid "$pid"; done
    LT_PIDS=()
    [ -z "$LT_PG_DIR" ] || bash "$LT_ROOT/tests/pg-cluster.sh" stop "$LT_PG_DIR"
}

# lt_json FILE PATH -> one value of a syncml-load JSON report, e.g. lt_json r.json measured.sessions_per_s
lt_json() {
    python3 -c 'import json,sys
v=json.load(open(sys.argv[1]))
for k in sys.argv[2].split("."): v=v[k]
print(round(v,2) if isinstance(v,float) else v)' "$1" "$2"
}

lt_ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }
