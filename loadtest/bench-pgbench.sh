#!/usr/bin/env bash
# The machine's database limit versus our session rate: `pgbench -N` (simple update, no branch/teller
# contention) TPS on a private PostgreSQL cluster, then no-change two-way SyncML sessions/s from syncml-load
# against our Release server on the same cluster, and the ratio (target: >= 0.30).
#
#   loadtest/bench-pgbench.sh [--seconds 30] [--clients 16] [--phones 64] [--encoding wbxml] [--port 18430]
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

seconds=30 clients=16 phones=64 encoding=wbxml port=18430
while [ $# -gt 0 ]; do
    case $1 in
        --seconds) seconds=$2; shift ;;
        --clients) clients=$2; shift ;;
        --phones) phones=$2; shift ;;
        --encoding) encoding=$2; shift ;;
        --port) port=$2; shift ;;
        *) echo "usage: $0 [--seconds S] [--clients C] [--phones N] [--encoding wbxml|xml] [--port P]" >&2; exit 2 ;;
    esac
    shift
done
work=$LT_WORK/pgbench
rm -rf "$work"
mkdir -p "$work"
trap lt_cleanup EXIT

lt_build
lt_pg_start pgbench
pg_url=$LT_DB_URL
lt_log "pgbench -i -s 10, then pgbench -N -c $clients -j 2 -T $seconds"
pgbench -q -i -s 10 "$pg_url" >"$work/pgbench-init.log" 2>&1
pgbench -N -c "$clients" -j 2 -T "$seconds" "$pg_url" >"$work/pgbench.log" 2>&1
tps=$(awk '/^tps = / { print $3; exit }' "$work/pgbench.log")

lt_pg_createdb syncml_pgbench
lt_migrate
tenants=4
users=$(((phones + tenants - 1) / tenants))
population=(--tenants "$tenants" --users "$users" --prefix pgb --password pw)
lt_log "creating $((tenants * users)) accounts"
lt_accounts "${population[@]}"
lt_server_start "$port" "$work/server.log"
# pgbench -i ends with VACUUM ANALYZE of its tables; ours get the same after a warm-up that fills them (first
# slow syncs, a few seconds of sessions), so both sides are measured with the statistics a running server has
# from autovacuum instead of the plans PostgreSQL makes for tables it has never analyzed.
lt_log "warm-up: first slow syncs and 5 s of sessions, then VACUUM ANALYZE"
"$LT_LOAD" run --url "http://127.0.0.1:$port/sync" "${population[@]}" --encoding "$encoding" --items 10 \
    --adds 0 --replaces 0 --deletes 0 --duration 5 --no-progress >"$work/warmup.txt" || true
psql -q "$LT_DB_URL" -c "VACUUM ANALYZE"
lt_log "syncml-load: $((tenants * users)) phones, closed loop, no-change two-way syncs for $seconds s"
"$LT_LOAD" run --url "http://127.0.0.1:$port/sync" "${population[@]}" --encoding "$encoding" --items 10 \
    --adds 0 --replaces 0 --deletes 0 --duration "$seconds" --server-pid "$LT_SERVER_PID" \
    --json "$work/load.json" --no-progress >"$work/load.txt" || true
cat "$work/load.txt"
rate=$(lt_json "$work/load.json" measured.sessions_per_s)
errors=$(lt_json "$work/load.json" measured.errors_total)

echo
printf '%-44s %12s\n' "pgbench -N TPS ($clients clients, $seconds s)" "$tps"
printf '%-44s %12s\n' "no-change two-way sessions/s ($((tenants * users)) phones)" "$rate"
printf '%-44s %12s\n' "errors during the session run" "$errors"
printf '%-44s %12s\n' "ratio sessions/s / TPS (target >= 0.30)" "$(lt_ratio "$rate" "$tps")"
[ "$errors" = 0 ]
