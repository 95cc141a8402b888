#!/usr/bin/env bash
# Throw-away Citus cluster for tests: a coordinator and two workers, three PostgreSQL 15 instances on this machine.
#   citus-cluster.sh start DIR PORT        coordinator on PORT, workers on PORT+1 and PORT+2 (data in DIR/n<port>);
#                                          installs Citus first when missing (../shared/vendor/citus/install.sh)
#   citus-cluster.sh stop DIR
#   citus-cluster.sh createdb DIR PORT NAME
#                                          a database with the citus extension on every node and the workers
#                                          registered; prints the coordinator's URL
#   citus-cluster.sh counters PORT NAME    single- and multi-shard executions summed over all nodes since the last
#                                          reset (citus_stat_counters), tab-separated; "reset" as 4th argument resets
# Every node counts single- vs multi-shard executions (citus.enable_stat_counters) and allows logical replication,
# which shard moves without write blocking need.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
pg_bin=${PG_BIN:-/usr/lib/postgresql/15/bin}
vendor=${SYNCML_CITUS_VENDOR:-$here/../../shared/vendor/citus}
usage="usage: citus-cluster.sh start DIR PORT | stop DIR | createdb DIR PORT NAME | counters PORT NAME [reset]"
cmd=${1:?$usage}

as_owner() {
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
node_ports() { echo "$1" $(($1 + 1)) $(($1 + 2)); }
sql() {  # sql PORT DB STATEMENT...: one psql per call, quiet, stops at the first error
    local port=$1 db=$2
    shift 2
    local args=()
    for statement in "$@"; do args+=(-c "$statement"); done
    PGOPTIONS="-c client_min_messages=warning" psql -X -q -At -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$port" -U postgres -d "$db" "${args[@]}"
}

case "$cmd" in
start)
    dir=${2:?cluster directory}
    port=${3:?port}
    if ! bash "$vendor/install.sh" --check; then
        bash "$vendor/install.sh" >&2 || { echo "citus-cluster: installing Citus failed" >&2; exit 1; }
    fi
    mkdir -p "$dir"
    [ "$(id -u)" = 0 ] && chown postgres: "$dir"
    for p in $(node_ports "$port"); do
        node=$dir/n$p
        if [ ! -f "$node/PG_VERSION" ]; then
            as_owner "$pg_bin/initdb" -D "$node" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >"$node.initdb.log" 2>&1 ||
                { cat "$node.initdb.log" >&2; exit 1; }
            cat >>"$node/postgresql.conf" <<CONF
shared_preload_libraries = 'citus'
citus.enable_stat_counters = on
wal_level = logical
max_wal_senders = 10
max_replication_slots = 10
max_worker_processes = 16
CONF
        fi
        as_owner "$pg_bin/pg_ctl" -D "$node" -l "$node/server.log" -w -t 60 \
            -o "-p $p -k /tmp -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
            start >/dev/null
    done
    echo "postgresql://postgres@127.0.0.1:$port/postgres"
    ;;
stop)
    dir=${2:?cluster directory}
    for node in "$dir"/n*; do
        [ -f "$node/postmaster.pid" ] && as_owner "$pg_bin/pg_ctl" -D "$node" -m fast -w stop >/dev/null || true
    done
    ;;
createdb)
    port=${3:?port}
    name=${4:?database name}
    set -- $(node_ports "$port")
    for p in "$@"; do
        sql "$p" postgres "DROP DATABASE IF EXISTS \"$name\" WITH (FORCE)" "CREATE DATABASE \"$name\"" >/dev/null
        sql "$p" "$name" "CREATE EXTENSION citus" >/dev/null
    done
    sql "$1" "$name" "SELECT citus_set_coordinator_host('127.0.0.1', $1)" \
        "SELECT citus_add_node('127.0.0.1', $2)" "SELECT citus_add_node('127.0.0.1', $3)" >/dev/null
    echo "postgresql://postgres@127.0.0.1:$port/$name"
    ;;
counters)
    port=${2:?port}
    name=${3:?database name}
    if [ "${4:-}" = reset ]; then
        sql "$port" "$name" "SELECT run_command_on_all_nodes('SELECT citus_stat_counters_reset()')" >/dev/null
        exit 0
    fi
    # citus_stat_counters is per node; each node reports its own executions (a delegated function runs on a worker).
    sql "$port" "$name" "SELECT sum((split_part(result, ',', 1))::bigint), sum((split_part(result, ',', 2))::bigint)
        FROM run_command_on_all_nodes(\$\$SELECT format('%s,%s', coalesce(sum(query_execution_single_shard), 0),
        coalesce(sum(query_execution_multi_shard), 0)) FROM citus_stat_counters WHERE name = current_database()\$\$)" |
        tr '|' '\t'
    ;;
*)
    echo "$usage" >&2
    exit 2
    ;;
esac
