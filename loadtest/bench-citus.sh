#!/usr/bin/env bash
# One PostgreSQL against the local Citus cluster (issue 20): the same Release server and the same load on one
# PostgreSQL 15 and on Citus (tests/citus-cluster.sh: a coordinator and two workers on this machine), and a
# markdown table with both columns and the ratio Citus / PostgreSQL:
#   (a) no-change two-way sessions/s, closed loop (--phones, --seconds measured after the phones' first sessions,
#       a warm-up and VACUUM ANALYZE first, as bench-pgbench.sh does); on Citus the server is connected to all
#       three nodes (SYNCML_DATABASE_URL="coordinator worker1 worker2")
#   (b) the wall time of a first slow sync of --contacts vCards (syncml-load --items; --slow-phones phones one
#       after another, median), same server as (a)
#   (c) statements and round trips per session (no-change two-way and the --contacts slow sync), counted by
#       pg_stat_statements on the node the server is connected to (PostgreSQL, or the Citus coordinator alone),
#       the method of statements_per_session.sh; on Citus also the statements the workers executed and Citus's
#       own single- and multi-shard execution counters (citus-cluster.sh counters) per session
#
#   loadtest/bench-citus.sh [--seconds 30] [--phones 200] [--sessions 500] [--contacts 1000] [--slow-phones 3]
#                           [--encoding wbxml|xml] [--port 19300] [--citus-port 57800] [--only pg|citus]
#                           [--tenant-cap 100000]
#
# --tenant-cap: every tenant's max_sessions is set to this (0: keep syncml-load's 100 places per tenant). The
# cap is not what is measured: 200 closed-loop phones in 2 tenants keep ~100 sessions per tenant live, and on a
# distributed schema the cap comes from a count every 2 s (session/service/tenant_session_gauge.hpp).
# Environment (see lib.sh): SYNCML_RELEASE_BUILD (default build/release), LT_PG_PORT (the single PostgreSQL,
# 55460), LT_WORK (/tmp/syncml-loadtest; everything stays in LT_WORK/citus-bench: clusters `pg` and `citus`,
# per backend `pg/` and `citus/` with syncml-load reports, server logs, pg_stat_statements snapshots, per-phase
# deltas and summary.json; `report.md`), LT_WORKER_THREADS (4), LT_QUIET_SECONDS (10).
#
# Statement phases (server on one node, janitor off, after account set-up, a warm-up and VACUUM ANALYZE, with
# pg_stat_statements and the Citus counters reset on every node): a quiet interval with the server idle learns
# the background (readiness check, the counter queries of this script), then
#   A  32 phones, first slow sync of 10 contacts only     B  32 other phones, the same, then --sessions two-way
#   C  --slow-phones phones, first slow sync of --contacts only, one after another (also timed)
# two-way per session = (B - A) / sessions, slow per session = C / phones. Round trips = top-level statements
# plus BEGIN/COMMIT/ROLLBACK on the server's node (a proxy: Parse, connection set-up and what Citus sends between
# its nodes are not in it; the worker columns show the latter). On the coordinator pg_stat_statements also marks
# as top level the SQL function bodies Citus evaluates while planning (they name p_ parameters) and Citus's own
# queries: those count as nested. The Citus counters' background is the quiet interval's rate times the phase's
# duration. The report also lists the statements with the most execution time per session.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

seconds=30 phones=200 sessions=500 contacts=1000 slow_phones=3 encoding=wbxml port=19300 citus_port=57800 only=''
tenant_cap=100000
quiet_seconds=${LT_QUIET_SECONDS:-10}
while [ $# -gt 0 ]; do
    case $1 in
        --seconds) seconds=$2; shift ;;
        --phones) phones=$2; shift ;;
        --sessions) sessions=$2; shift ;;
        --contacts) contacts=$2; shift ;;
        --slow-phones) slow_phones=$2; shift ;;
        --encoding) encoding=$2; shift ;;
        --port) port=$2; shift ;;
        --citus-port) citus_port=$2; shift ;;
        --only) only=$2; shift ;;
        --tenant-cap) tenant_cap=$2; shift ;;
        *) echo "usage: $0 [--seconds S] [--phones N] [--sessions N] [--contacts N] [--slow-phones N]" \
                "[--encoding wbxml|xml] [--port P] [--citus-port P] [--only pg|citus] [--tenant-cap N]" >&2; exit 2 ;;
    esac
    shift
done
work=$LT_WORK/citus-bench
citus_dir=$work/citus-cluster
bash "$LT_ROOT/tests/pg-cluster.sh" stop "$work/pg-cluster" 2>/dev/null || true
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
db=syncml_citus_bench

# Per backend: node ports (the first is the one the server's statements are counted on), the server's URLs for
# the throughput runs, and whether Citus counters exist.
nodes=() server_urls='' citus=''

add_pg_stat_statements() {  # add_pg_stat_statements DATADIR LIBRARIES: appended settings win, need a restart
    cat >>"$1/postgresql.conf" <<EOF
shared_preload_libraries = '$2'
pg_stat_statements.track = all
pg_stat_statements.track_utility = on
pg_stat_statements.max = 10000
EOF
}

start_pg() {
    LT_PG_DIR=$work/pg-cluster
    bash "$LT_ROOT/tests/pg-cluster.sh" start "$LT_PG_DIR" "$LT_PG_PORT" >/dev/null
    add_pg_stat_statements "$LT_PG_DIR" pg_stat_statements
    bash "$LT_ROOT/tests/pg-cluster.sh" stop "$LT_PG_DIR"
    bash "$LT_ROOT/tests/pg-cluster.sh" start "$LT_PG_DIR" "$LT_PG_PORT" >/dev/null
    lt_pg_createdb "$db"
    nodes=("$LT_PG_PORT") server_urls=$LT_DB_URL citus=''
}

start_citus() {
    citus_started=1
    bash "$LT_ROOT/tests/citus-cluster.sh" start "$citus_dir" "$citus_port" >/dev/null
    nodes=("$citus_port" $((citus_port + 1)) $((citus_port + 2)))
    local p
    for p in "${nodes[@]}"; do add_pg_stat_statements "$citus_dir/n$p" 'citus,pg_stat_statements'; done
    bash "$LT_ROOT/tests/citus-cluster.sh" stop "$citus_dir"
    bash "$LT_ROOT/tests/citus-cluster.sh" start "$citus_dir" "$citus_port" >/dev/null
    LT_DB_URL=$(bash "$LT_ROOT/tests/citus-cluster.sh" createdb "$citus_dir" "$citus_port" "$db")
    server_urls=$LT_DB_URL
    for p in "${nodes[@]:1}"; do server_urls+=" postgresql://postgres@127.0.0.1:$p/$db"; done
    citus=1
}

node_sql() {  # node_sql PORT DB STATEMENT
    psql -X -qAt -h 127.0.0.1 -p "$1" -U postgres -d "$2" -c "$3"
}

# mark OUT N: Citus counters (summed over the nodes), the time, then a pg_stat_statements snapshot of every node
# (the server's database only; read from `postgres`, so this script's own psql calls are not counted)
mark() {
    local out=$1 n=$2 p
    if [ -n "$citus" ]; then
        bash "$LT_ROOT/tests/citus-cluster.sh" counters "$citus_port" "$db" >"$out/counters-$n.tsv"
    fi
    date +%s.%N >"$out/time-$n"
    for p in "${nodes[@]}"; do
        psql -X -qAt -F $'\t' -h 127.0.0.1 -p "$p" -U postgres -d postgres -c "SELECT s.queryid, s.toplevel, s.calls,
            round(s.total_exec_time::numeric, 3), regexp_replace(s.query, '\\s+', ' ', 'g')
            FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
            WHERE d.datname = '$db' ORDER BY s.calls DESC" >"$out/snap-$n-$p.tsv"
    done
}

load() {  # load OUT NAME ARGS... -> syncml-load run against the current server, report in OUT/NAME.{txt,json}
    local out=$1 name=$2
    shift 2
    "$LT_LOAD" run --url "http://127.0.0.1:$port/sync" --encoding "$encoding" --adds 0 --replaces 0 --deletes 0 \
        --no-progress --json "$out/$name.json" "$@" >"$out/$name.txt" || true
}

server_errors() {  # server_errors LOG -> number of lines the server logged (level warn and above)
    grep -c . "$1" || true
}

measure() {  # measure NAME: statements (server on nodes[0]) then throughput and slow sync (server on server_urls)
    local name=$1 out=$work/$1 p
    local coordinator_url=$LT_DB_URL
    mkdir -p "$out"
    for p in "${nodes[@]}"; do
        node_sql "$p" postgres "CREATE EXTENSION IF NOT EXISTS pg_stat_statements" >/dev/null
    done
    lt_migrate 2>"$out/migrate.log" || { lt_log "$name: migrate failed:"; cat "$out/migrate.log" >&2; exit 1; }
    if [ -n "$citus" ]; then
        node_sql "${nodes[0]}" "$db" "SELECT logicalrelid, partmethod, colocationid FROM pg_dist_partition
            ORDER BY 1" >"$out/distribution.txt"
        grep -q '^users|h|' "$out/distribution.txt" ||
            { lt_log "$name: migrate did not distribute the schema (see $out/distribution.txt)"; exit 1; }
    fi
    local two_way=(--tenants 2 --users 16 --password pw)
    local slow=(--tenants 1 --users "$slow_phones" --password pw)
    local tenants=4
    local population=(--tenants "$tenants" --users $(((phones + tenants - 1) / tenants)) --password pw --prefix ld)
    lt_log "$name: creating accounts"
    local prefix
    for prefix in stw sta stb; do lt_accounts "${two_way[@]}" --prefix "$prefix" >>"$out/accounts.log" 2>&1; done
    lt_accounts "${slow[@]}" --prefix stc >>"$out/accounts.log" 2>&1
    lt_accounts "${slow[@]}" --prefix slt >>"$out/accounts.log" 2>&1
    lt_accounts "${population[@]}" >>"$out/accounts.log" 2>&1
    if [ "$tenant_cap" != 0 ]; then
        local tenant
        for tenant in stw-t0 stw-t1 sta-t0 sta-t1 stb-t0 stb-t1 stc-t0 slt-t0 ld-t0 ld-t1 ld-t2 ld-t3; do
            lt_admin tenant set "$tenant" --max-sessions "$tenant_cap" >>"$out/accounts.log" 2>&1
        done
    fi

    lt_log "$name: statements, server connected to 127.0.0.1:${nodes[0]} only"
    SYNCML_JANITOR_INTERVAL=0 lt_server_start "$port" "$out/server-statements.log"
    load "$out" warmup "${two_way[@]}" --prefix stw --items 10 --duration 3
    node_sql "${nodes[0]}" "$db" "VACUUM ANALYZE"
    for p in "${nodes[@]}"; do node_sql "$p" postgres "SELECT pg_stat_statements_reset()" >/dev/null; done
    [ -z "$citus" ] || bash "$LT_ROOT/tests/citus-cluster.sh" counters "$citus_port" "$db" reset
    mark "$out" 0
    lt_log "$name: quiet interval, server idle for $quiet_seconds s"
    sleep "$quiet_seconds"
    mark "$out" 1
    lt_log "$name: phase A: 32 first slow syncs of 10 contacts"
    load "$out" phase-a "${two_way[@]}" --prefix sta --items 10 --duration 0.0001
    mark "$out" 2
    lt_log "$name: phase B: 32 first slow syncs of 10 contacts, then $sessions no-change two-way sessions"
    load "$out" phase-b "${two_way[@]}" --prefix stb --items 10 --sessions "$sessions" --duration 600
    mark "$out" 3
    lt_log "$name: phase C: $slow_phones first slow syncs of $contacts contacts"
    load "$out" phase-c "${slow[@]}" --prefix stc --items "$contacts" --concurrency 1 --duration 0.0001
    mark "$out" 4
    lt_stop_pid "$LT_SERVER_PID"

    lt_log "$name: throughput, server connected to: $server_urls"
    LT_DB_URL=$server_urls lt_server_start "$port" "$out/server-load.log"
    lt_log "$name: warm-up: first slow syncs and 5 s of sessions, then VACUUM ANALYZE"
    load "$out" load-warmup "${population[@]}" --items 10 --duration 5
    node_sql "${nodes[0]}" "$db" "VACUUM ANALYZE"
    lt_log "$name: syncml-load: $phones phones, closed loop, no-change two-way syncs for $seconds s"
    load "$out" load "${population[@]}" --items 10 --duration "$seconds" --server-pid "$LT_SERVER_PID"
    cat "$out/load.txt"
    lt_log "$name: $slow_phones first slow syncs of $contacts contacts, one after another"
    load "$out" slow-timing "${slow[@]}" --prefix slt --items "$contacts" --concurrency 1 --duration 0.0001
    lt_stop_pid "$LT_SERVER_PID"
    LT_DB_URL=$coordinator_url
    [ "$(server_errors "$out/server-statements.log")" = 0 ] && [ "$(server_errors "$out/server-load.log")" = 0 ] ||
        lt_log "$name: the server logged warnings or errors (first lines in the report)"

    python3 - "$out" "$sessions" "${nodes[*]}" <<'EOF'
import json, re, sys
from collections import defaultdict

out, sessions, nodes = sys.argv[1], int(sys.argv[2]), sys.argv[3].split()

def control(query):  # transaction control class or None
    m = re.match(r"\s*(BEGIN|START TRANSACTION|COMMIT|END|ROLLBACK|SAVEPOINT|RELEASE)\b", query, re.I)
    if not m:
        return None
    word = m.group(1).upper()
    return {"START TRANSACTION": "BEGIN", "END": "COMMIT"}.get(word, word if word in ("BEGIN", "COMMIT", "ROLLBACK") else "SAVEPOINT")

# Statements pg_stat_statements marks top level although the server did not send them: bodies of SQL functions
# that Citus evaluates on the coordinator while planning (they name the functions' p_ parameters) and Citus's own
# queries (distributed transaction recovery, intermediate results, its remote commands).
def internal(query):
    return re.search(r"\bp_[a-z_]+\b|read_intermediate_result|pg_prepared_xacts|citus|assign_distributed_transaction_id"
                     r"|^SET application_name", query) is not None

def load_snap(n, port):  # keyed by (query text, top level): one text may have several query ids
    rows, ms = defaultdict(int), defaultdict(float)
    with open(f"{out}/snap-{n}-{port}.tsv") as f:
        for line in f:
            _, top, calls, total_ms, query = line.rstrip("\n").split("\t", 4)
            rows[(query, top == "t" and not internal(query))] += int(calls)
            ms[(query, top == "t" and not internal(query))] += float(total_ms)
    return rows, ms

reports = {p: json.load(open(f"{out}/phase-{p}.json")) for p in "abc"}
phase_errors = []  # reported, not fatal: on Citus they are the finding
for p, r in reports.items():
    for part in ("prepare", "measured"):
        if r[part]["sessions_failed"] or r[part]["errors_total"]:
            phase_errors.append(f"phase {p} {part}: {r[part]['sessions_failed']} failed sessions, errors {r[part]['errors']}")
n_a = reports["a"]["prepare"]["sessions_ok"]
n_b = reports["b"]["measured"]["sessions_ok"]
n_c = reports["c"]["prepare"]["sessions_ok"]
if reports["b"]["prepare"]["sessions_ok"] != n_a:
    phase_errors.append("phase B prepared a different number of phones than phase A")
n_a, n_b, n_c = max(n_a, 1), max(n_b, 1), max(n_c, 1)  # a phase without sessions is in phase_errors

def node_counts(port):
    loaded = [load_snap(n, port) for n in range(5)]
    snaps, times = [x[0] for x in loaded], [x[1] for x in loaded]
    def delta(a, b):
        d = {k: snaps[b].get(k, 0) - snaps[a].get(k, 0) for k in set(snaps[a]) | set(snaps[b])}
        return {k: v for k, v in d.items() if v}
    def ms(a, b):
        return {k: times[b].get(k, 0) - times[a].get(k, 0) for k in set(times[a]) | set(times[b])}
    ms_a, ms_b, ms_c = ms(1, 2), ms(2, 3), ms(3, 4)
    ms_two_way = {k: ms_b.get(k, 0) - ms_a.get(k, 0) for k in set(ms_a) | set(ms_b)}
    quiet = delta(0, 1)
    background = {k for k in quiet if control(k[0]) is None}
    quiet_bg = sum(quiet[k] for k in background)
    quiet_ctl = {k: v for k, v in quiet.items() if control(k[0])}
    def clean(d):
        bg = sum(d.get(k, 0) for k in background)
        res = {k: v for k, v in d.items() if k not in background}
        for k, v in quiet_ctl.items():
            res[k] = res.get(k, 0) - (round(v * bg / quiet_bg) if quiet_bg else 0)
        return {k: v for k, v in res.items() if v}
    a, b, c = clean(delta(1, 2)), clean(delta(2, 3)), clean(delta(3, 4))
    two_way = {k: b.get(k, 0) - a.get(k, 0) for k in set(a) | set(b)}
    result = {}
    for name, d, n, t in (("two_way", two_way, n_b, ms_two_way), ("slow", c, n_c, ms_c)):
        with open(f"{out}/delta-{name}-{port}.tsv", "w") as f:
            f.write("calls\tper_session\tms_per_session\ttoplevel\tquery\n")
            for k, v in sorted(d.items(), key=lambda kv: -kv[1]):
                f.write(f"{v}\t{v / n:.3f}\t{t.get(k, 0) / n:.3f}\t{'t' if k[1] else 'f'}\t{k[0]}\n")
        slowest = sorted(((t.get(k, 0) / n, v / n, k[0]) for k, v in d.items() if not control(k[0])), reverse=True)[:5]
        top = sum(v for k, v in d.items() if k[1] and not control(k[0]))
        nested = sum(v for k, v in d.items() if not k[1] and not control(k[0]))
        ctl = defaultdict(int)
        for k, v in d.items():
            if k[1] and control(k[0]):
                ctl[control(k[0])] += v
        result[name] = {"sessions": n, "top": top / n, "nested": nested / n, "statements": (top + nested) / n,
                        "begin": ctl["BEGIN"] / n, "commit": ctl["COMMIT"] / n, "rollback": ctl["ROLLBACK"] / n,
                        "round_trips": (top + sum(ctl.values())) / n, "slowest": slowest}
    return result

summary = {"server_node": node_counts(nodes[0]), "phase_errors": phase_errors}
if len(nodes) > 1:
    workers = [node_counts(p) for p in nodes[1:]]
    summary["workers"] = {s: {k: sum(w[s][k] for w in workers) for k in ("top", "nested", "statements")}
                          for s in ("two_way", "slow")}
    t = [float(open(f"{out}/time-{n}").read()) for n in range(5)]
    cnt = [[int(x) for x in open(f"{out}/counters-{n}.tsv").read().split()] for n in range(5)]
    def counters(a, b):  # single, multi between marks a and b minus the quiet interval's rate
        rate = [(cnt[1][i] - cnt[0][i]) / (t[1] - t[0]) for i in range(2)]
        return [cnt[b][i] - cnt[a][i] - rate[i] * (t[b] - t[a]) for i in range(2)]
    ca, cb, cc = counters(1, 2), counters(2, 3), counters(3, 4)
    summary["counters"] = {"two_way": [(cb[i] - ca[i]) / n_b for i in range(2)],
                           "slow": [cc[i] / n_c for i in range(2)],
                           "quiet_per_s": [(cnt[1][i] - cnt[0][i]) / (t[1] - t[0]) for i in range(2)]}
load = json.load(open(f"{out}/load.json"))["measured"]
slow_timing = json.load(open(f"{out}/slow-timing.json"))["prepare"]
summary["load"] = {"sessions_per_s": load["sessions_per_s"], "errors": load["errors_total"], "errors_by_key": load["errors"],
                   "sessions_failed": load["sessions_failed"], "p50_ms": load["latency"]["session_two-way"]["p50_ms"],
                   "p99_ms": load["latency"]["session_two-way"]["p99_ms"]}
phase_c = reports["c"]["prepare"]["latency"]["session_slow"]
summary["slow_sync_one_node"] = {"p50_s": phase_c["p50_ms"] / 1000, "max_s": phase_c["max_ms"] / 1000}
summary["slow_sync"] = {"sessions": slow_timing["sessions_ok"], "failed": slow_timing["sessions_failed"],
                        "errors_by_key": slow_timing["errors"], "p50_s": slow_timing["latency"]["session_slow"]["p50_ms"] / 1000,
                        "max_s": slow_timing["latency"]["session_slow"]["max_ms"] / 1000}
json.dump(summary, open(f"{out}/summary.json", "w"), indent=1)
EOF
}

if [ "$only" != citus ]; then
    start_pg
    measure pg
    bash "$LT_ROOT/tests/pg-cluster.sh" stop "$LT_PG_DIR"
    LT_PG_DIR=''
fi
if [ "$only" != pg ]; then
    start_citus
    measure citus
    bash "$LT_ROOT/tests/citus-cluster.sh" stop "$citus_dir"
    citus_started=''
fi

python3 - "$work" "$phones" "$seconds" "$contacts" "$slow_phones" "$sessions" "$encoding" \
    "$(git -C "$LT_ROOT" log -1 --format=%h 2>/dev/null || echo '?')" <<'EOF' | tee "$work/report.md"
import json, os, sys

work, phones, seconds, contacts, slow_phones, sessions, encoding, commit = sys.argv[1:]
s = {b: json.load(open(f"{work}/{b}/summary.json")) for b in ("pg", "citus") if os.path.exists(f"{work}/{b}/summary.json")}

def get(b, *path):
    v = s.get(b)
    for k in path:
        if v is None:
            return None
        v = v[k] if isinstance(k, int) else v.get(k)
    return v

def fmt(v, digits=2):
    return "-" if v is None else f"{v:.{digits}f}"

def ratio(a, b):
    return "-" if a is None or b is None or a == 0 else f"{b / a:.2f}"

rows = [
    (f"no-change two-way sessions/s ({phones} phones, {seconds} s)", ("load", "sessions_per_s"), 1),
    ("  errors during that run", ("load", "errors"), 0),
    ("  two-way session p50 ms", ("load", "p50_ms"), 1),
    ("  two-way session p99 ms", ("load", "p99_ms"), 1),
    (f"first slow sync of {contacts} contacts, s (median of {slow_phones})", ("slow_sync", "p50_s"), 2),
    (f"  slowest of the {slow_phones}, s", ("slow_sync", "max_s"), 2),
    (f"  the same, server on PostgreSQL / coordinator only (phase C), median s", ("slow_sync_one_node", "p50_s"), 2),
]
for scen, title in (("two_way", "no-change two-way"), ("slow", f"{contacts}-contact slow sync")):
    rows += [
        (f"{title}: statements / session on the server's node", ("server_node", scen, "statements"), 2),
        (f"{title}:   top level (sent by the server)", ("server_node", scen, "top"), 2),
        (f"{title}:   nested (functions, FK checks)", ("server_node", scen, "nested"), 2),
        (f"{title}: BEGIN + COMMIT / session", None, 2),
        (f"{title}: round trips / session", ("server_node", scen, "round_trips"), 2),
        (f"{title}: statements / session run on the workers (top / nested)", ("workers", scen), 2),
        (f"{title}: Citus single-shard executions / session", ("counters", scen, 0), 2),
        (f"{title}: Citus multi-shard executions / session", ("counters", scen, 1), 2),
    ]

print(f"## One PostgreSQL vs Citus (coordinator + 2 workers, one machine)\n")
print(f"Commit {commit}, Release, {encoding}, basic auth. Throughput: server on PostgreSQL / on all three Citus nodes. "
      f"Statements: server on PostgreSQL / on the coordinator only; two-way over {sessions} sessions.\n")
print("| measure | PostgreSQL | Citus | Citus / PostgreSQL |")
print("| --- | --- | --- | --- |")
for title, path, digits in rows:
    if path is None:
        scen = "two_way" if "two-way" in title else "slow"
        vals = [None if b not in s else get(b, "server_node", scen, "begin") + get(b, "server_node", scen, "commit")
                for b in ("pg", "citus")]
    elif path[0] == "workers":
        vals = [get(b, "workers", path[1], "statements") for b in ("pg", "citus")]
        w = get("citus", "workers", path[1])
        cell = "-" if w is None else f"{w['statements']:.2f} ({w['top']:.2f} / {w['nested']:.2f})"
        print(f"| {title} | - | {cell} | - |")
        continue
    else:
        vals = [get(b, *path) for b in ("pg", "citus")]
    print(f"| {title} | {fmt(vals[0], digits)} | {fmt(vals[1], digits)} | {ratio(vals[0], vals[1])} |")
for b in s:
    for e in s[b]["phase_errors"]:
        print(f"\n{b} statement {e}")
    for part in ("load", "slow_sync"):
        errors = get(b, part, "errors_by_key")
        if errors:
            print(f"\n{b} {part}: errors {errors}")
for b in s:
    for scen in ("two_way", "slow"):
        print(f"\n{b}, {scen}: statements with the most execution time per session on the server's node "
              f"(pg_stat_statements total_exec_time; nested time is inside its caller's)\n")
        print("| ms / session | calls / session | query (first 110 characters) |")
        print("| --- | --- | --- |")
        for ms, calls, q in get(b, "server_node", scen, "slowest"):
            q = q[:110].replace("|", "\\|")
            print(f"| {ms:.2f} | {calls:.2f} | `{q}` |")
if "citus" in s:
    q = get("citus", "counters", "quiet_per_s")
    print(f"\nCitus counters of the idle server (subtracted): {q[0]:.2f} single-, {q[1]:.2f} multi-shard executions/s.")
EOF
for name in pg citus; do
    for log in "$work/$name"/server-*.log; do
        [ -s "$log" ] || continue
        echo
        echo "$name: $(grep -c . "$log") lines in $log; the first distinct ones:"
        sed -E 's/[0-9]{4}-[0-9]{2}-[0-9]{2}[ T][0-9:.]+//' "$log" | sort | uniq -c | sort -rn | head -10
    done
done
lt_log "raw data: $work"
