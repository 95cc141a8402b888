#!/usr/bin/env bash
# Shard moves under load (issue 20): phones sync continuously (syncml-load, closed loop) against the Release
# server on the local Citus cluster (tests/citus-cluster.sh, the server connected to all three nodes) while this
# script moves shard groups between the two workers with citus_move_shard_placement (logical replication; the
# cluster runs wal_level = logical), one after another and back. Then it reports the moves (seconds each), the
# sessions that completed and failed, and every error the phones saw, by syncml-load's key (`http:503`,
# `transport:eof`, `SyncHdr:500`, `Add:500`, ...).
#
#   loadtest/citus-shard-move.sh [--seconds 60] [--phones 100] [--shards 3] [--rounds 1] [--mode force_logical]
#                                [--adds 1] [--replaces 1] [--deletes 1] [--encoding wbxml] [--port 19310]
#                                [--citus-port 57820] [--tenant-cap 100000]
#
# Shards: the --shards shard groups (a shard of `users` and the shards co-located with it: a move takes them all)
# on the first worker that hold the most phones' users; each round moves them to the second worker one by one,
# then back (a move Citus's deadlock detection cancels runs again, up to 3 times). The load runs at least --seconds
# and on until the last move ended (syncml-load --stop-file), so every move happens under load however slow the
# machine is. Exit status 1 when a move failed or a phone saw an error that is not retriable: the only retriable
# one is HTTP 503, which our server always sends with Retry-After (session/service/sync_replies.cpp,
# src/server/http_connection.cpp; syncml-load records the status, not the header). A failed session makes that
# phone slow-sync next time, as a real phone would; the load generator does not retry a message itself.
#
# Environment (see lib.sh): SYNCML_RELEASE_BUILD, LT_WORK (work files in LT_WORK/citus-shard-move: cluster,
# server log, load.txt/load.json, progress.txt, moves.tsv), LT_WORKER_THREADS (4).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

seconds=60 phones=100 shards=3 rounds=1 mode=force_logical adds=1 replaces=1 deletes=1 encoding=wbxml
port=19310 citus_port=57820 tenant_cap=100000
while [ $# -gt 0 ]; do
    case $1 in
        --seconds) seconds=$2; shift ;;
        --phones) phones=$2; shift ;;
        --shards) shards=$2; shift ;;
        --rounds) rounds=$2; shift ;;
        --mode) mode=$2; shift ;;
        --adds) adds=$2; shift ;;
        --replaces) replaces=$2; shift ;;
        --deletes) deletes=$2; shift ;;
        --encoding) encoding=$2; shift ;;
        --port) port=$2; shift ;;
        --citus-port) citus_port=$2; shift ;;
        --tenant-cap) tenant_cap=$2; shift ;;
        *) echo "usage: $0 [--seconds S] [--phones N] [--shards N] [--rounds N]" \
                "[--mode force_logical|auto|block_writes]" \
                "[--adds N] [--replaces N] [--deletes N] [--encoding wbxml|xml] [--port P] [--citus-port P]" \
                "[--tenant-cap N]" >&2; exit 2 ;;
    esac
    shift
done
work=$LT_WORK/citus-shard-move
citus_dir=$work/cluster
bash "$LT_ROOT/tests/citus-cluster.sh" stop "$citus_dir" 2>/dev/null || true
rm -rf "$work"
mkdir -p "$work"
citus_started=''
cleanup() {
    lt_cleanup
    [ -z "$citus_started" ] || bash "$LT_ROOT/tests/citus-cluster.sh" stop "$citus_dir"
}
trap cleanup EXIT

lt_build
db=syncml_shard_move
w1=$((citus_port + 1)) w2=$((citus_port + 2))
citus_started=1
bash "$LT_ROOT/tests/citus-cluster.sh" start "$citus_dir" "$citus_port" >/dev/null
LT_DB_URL=$(bash "$LT_ROOT/tests/citus-cluster.sh" createdb "$citus_dir" "$citus_port" "$db")
server_urls="$LT_DB_URL postgresql://postgres@127.0.0.1:$w1/$db postgresql://postgres@127.0.0.1:$w2/$db"
coord() { psql -X -qAt -h 127.0.0.1 -p "$citus_port" -U postgres -d "$db" -c "$1"; }

lt_migrate 2>"$work/migrate.log" || { lt_log "migrate failed:"; cat "$work/migrate.log" >&2; exit 1; }
[ "$(coord "SELECT count(*) FROM pg_dist_partition WHERE logicalrelid = 'users'::regclass")" = 1 ] ||
    { lt_log "migrate did not distribute the schema"; exit 1; }
tenants=4
population=(--tenants "$tenants" --users $(((phones + tenants - 1) / tenants)) --prefix mv --password pw)
lt_log "creating $phones accounts"
lt_accounts "${population[@]}" >"$work/accounts.log" 2>&1
# syncml-load's 100 places per tenant are not under test here (bench-citus.sh --tenant-cap): only the phones'
# errors during the moves are.
if [ "$tenant_cap" != 0 ]; then
    for t in $(seq 0 $((tenants - 1))); do
        lt_admin tenant set "mv-t$t" --max-sessions "$tenant_cap" >>"$work/accounts.log" 2>&1
    done
fi
LT_DB_URL=$server_urls lt_server_start "$port" "$work/server.log"

rm -f "$work/load.stop"
lt_log "syncml-load: $phones phones, closed loop, +$adds/~$replaces/-$deletes per two-way sync, at least $seconds s measured"
"$LT_LOAD" run --url "http://127.0.0.1:$port/sync" "${population[@]}" --encoding "$encoding" --items 10 \
    --adds "$adds" --replaces "$replaces" --deletes "$deletes" --duration 3600 --stop-file "$work/load.stop" \
    --server-pid "$LT_SERVER_PID" --json "$work/load.json" >"$work/load.txt" 2>"$work/progress.txt" &
load_pid=$!
LT_PIDS+=("$load_pid")
load_running() { kill -0 "$load_pid" 2>/dev/null; }
# The progress line says "[run" once every phone has had its first slow sync.
until grep -q '\[run' "$work/progress.txt" 2>/dev/null; do
    load_running || { lt_log "syncml-load ended before its measured phase"; cat "$work/load.txt" >&2; exit 1; }
    sleep 0.5
done
measured_start=$SECONDS
sleep 3

# The shard groups on the first worker with the most of the phones' users (names "mv-u<i>-<j>").
# The user ids come out of a materialized CTE: Citus does not join a distributed table with its catalog tables.
coord "WITH u AS MATERIALIZED (SELECT user_id FROM users WHERE name LIKE 'mv-u%')
    SELECT p.shardid, count(*) FROM u
    JOIN pg_dist_placement p ON p.shardid = get_shard_id_for_distribution_column('users', u.user_id)
    JOIN pg_dist_node n ON n.groupid = p.groupid
    WHERE n.nodeport = $w1 GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT $shards" |
    tr '|' '\t' >"$work/shards.tsv"
mapfile -t moved < <(cut -f1 "$work/shards.tsv")
[ "${#moved[@]}" -gt 0 ] || { lt_log "no shard of the phones' users on worker $w1"; exit 1; }
coord "SELECT count(*) FROM pg_dist_shard s JOIN pg_dist_shard c ON c.logicalrelid IN
    (SELECT logicalrelid FROM pg_dist_partition WHERE colocationid =
        (SELECT colocationid FROM pg_dist_partition WHERE logicalrelid = 'users'::regclass))
    AND c.shardminvalue = s.shardminvalue WHERE s.shardid = ${moved[0]}" >"$work/group-size.txt"
lt_log "moving shard groups ${moved[*]} ($(cat "$work/group-size.txt") shards each; users per group:" \
    "$(cut -f2 "$work/shards.tsv" | paste -sd' ')) between workers $w1 and $w2, $rounds round(s), mode $mode"

move_failures=0 moves_after_load=0
printf 'round\tshard\tfrom\tto\tseconds\tload_running\tload_before\tload_after\tresult\n' >"$work/moves.tsv"
load_progress() {  # the load's latest progress: "<ok> ok <failed> failed" of the measured phase
    tr '\r' '\n' <"$work/progress.txt" | grep '^\[run' | tail -1 | grep -o '[0-9]* ok [0-9]* failed' || echo '-'
}
move() {  # move ROUND SHARD FROM TO
    local start end result running=yes before cancelled=0
    before=$(load_progress)
    start=$(date +%s.%N)
    # Citus's distributed deadlock detection may cancel a move that waits on the phones' transactions; it leaves
    # nothing behind, and the operator runs it again (persistence/DISTRIBUTED.md): so does this script, up to 3 times.
    while ! result=$(coord "SELECT citus_move_shard_placement($2, '127.0.0.1', $3, '127.0.0.1', $4,
            shard_transfer_mode => '$mode')" 2>&1) && [[ $result == *"distributed deadlock"* ]] && [ $cancelled -lt 3 ]; do
        cancelled=$((cancelled + 1))
        coord "CALL citus_cleanup_orphaned_resources()" >/dev/null 2>&1 || true
        sleep 1
    done
    if [ "$(coord "SELECT count(*) FROM pg_dist_placement p JOIN pg_dist_node n ON n.groupid = p.groupid
            WHERE p.shardid = $2 AND n.nodeport = $4")" = 1 ]; then
        result=ok
        [ $cancelled = 0 ] || result="ok (run again after $cancelled cancellation(s) by deadlock detection)"
    else
        result=$(echo "$result" | tr '\n\t' '  ')
        move_failures=$((move_failures + 1))
    fi
    end=$(date +%s.%N)
    load_running || { running=no; moves_after_load=$((moves_after_load + 1)); }
    printf '%s\t%s\t%s\t%s\t%.2f\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" \
        "$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')" "$running" "$before" "$(load_progress)" "$result" |
        tee -a "$work/moves.tsv" >&2
}
for round in $(seq 1 "$rounds"); do
    for shard in "${moved[@]}"; do move "$round" "$shard" "$w1" "$w2"; done
    for shard in "${moved[@]}"; do move "$round" "$shard" "$w2" "$w1"; done
done
coord "CALL citus_cleanup_orphaned_resources()" >/dev/null 2>&1 || true
placements=$(coord "SELECT count(*) FROM pg_dist_placement p JOIN pg_dist_node n ON n.groupid = p.groupid
    WHERE p.shardid IN ($(IFS=,; echo "${moved[*]}")) AND n.nodeport = $w1")
left=$((seconds - (SECONDS - measured_start)))
lt_log "moves done; syncml-load ends in $((left > 0 ? left : 0)) s"
[ "$left" -le 0 ] || sleep "$left"
touch "$work/load.stop"
wait "$load_pid" || true
cat "$work/load.txt"
lt_stop_pid "$LT_SERVER_PID"

echo
echo "## Shard moves under load ($phones phones, at least $seconds s measured, mode $mode)"
echo
echo '| round | shard group | from | to | seconds | load running after | sessions before | sessions after | result |'
echo '| --- | --- | --- | --- | --- | --- | --- | --- | --- |'
tail -n +2 "$work/moves.tsv" |
    awk -F'\t' '{ printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, $6, $7, $8, $9 }'
echo
python3 - "$work/load.json" <<'EOF' | tee "$work/verdict.txt"
import json, sys
r = json.load(open(sys.argv[1]))
print("| phase | seconds | sessions ok | sessions failed | sessions/s | errors |")
print("| --- | --- | --- | --- | --- | --- |")
retriable = {}
other = {}
for part in ("prepare", "measured"):
    p = r[part]
    errors = ", ".join(f"`{k}` {v}" for k, v in sorted(p["errors"].items())) or "none"
    print(f"| {part} | {p['seconds']:.1f} | {p['sessions_ok']} | {p['sessions_failed']} | {p['sessions_per_s']:.1f} | {errors} |")
    for k, v in p["errors"].items():
        target = retriable if k == "http:503" else other
        target[k] = target.get(k, 0) + v
print(f"\nretriable (HTTP 503 + Retry-After): {sum(retriable.values())}; not retriable: {sum(other.values())} {other or ''}")
print("NON_RETRIABLE" if other else "ONLY_RETRIABLE")
EOF
echo
echo "server log: $(grep -c . "$work/server.log" || true) lines (level ${LT_LOG_LEVEL:-warn} and above); most frequent:"
sed -E 's/[0-9]{4}-[0-9]{2}-[0-9]{2}[ T][0-9:.]+//' "$work/server.log" | sort | uniq -c | sort -rn | sed -n 1,15p
echo
echo "shard groups back on worker $w1: $placements of ${#moved[@]}; failed moves: $move_failures;" \
    "moves that ended after the load: $moves_after_load"
lt_log "raw data: $work"
[ "$move_failures" = 0 ] && [ "$placements" = "${#moved[@]}" ] && grep -q ONLY_RETRIABLE "$work/verdict.txt"
