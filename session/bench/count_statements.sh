#!/usr/bin/env bash
# Runs match_bench once per N on a fresh database and prints the SQL statements it cost, from
# pg_stat_statements (the cluster needs shared_preload_libraries=pg_stat_statements; the script creates the
# extension in the maintenance database). Statements of the migrations and of filling the datastore are
# included: run with N=0 for that fixed part.
#
# usage: count_statements.sh MATCH_BENCH POSTGRES_URL_WITHOUT_DB [match_bench options] N ...
set -euo pipefail
bench=${1:?match_bench binary}
base=${2:?postgresql://user@host:port}
shift 2
options=()
sizes=()
while [ $# -gt 0 ]; do
    case "$1" in
    --max-msg-size) options+=("$1" "$2"); shift 2 ;;
    --*) options+=("$1"); shift ;;
    *) sizes+=("$1"); shift ;;
    esac
done
psql -qAt "$base/postgres" -c "CREATE EXTENSION IF NOT EXISTS pg_stat_statements" >/dev/null
for n in "${sizes[@]}"; do
    db="stmt_bench_$n"
    psql -qAt "$base/postgres" -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" -c "CREATE DATABASE $db" >/dev/null
    psql -qAt "$base/postgres" -c "SELECT pg_stat_statements_reset()" >/dev/null
    "$bench" "$base/$db" "${options[@]}" "$n" 2>/dev/null | tail -n 1
    psql -qAt "$base/postgres" -c "SELECT 'statements: ' || sum(calls) FROM pg_stat_statements s \
        JOIN pg_database d ON d.oid = s.dbid WHERE d.datname = '$db'"
done
