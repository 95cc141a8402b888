#!/usr/bin/env bash
# SQL statements and client round trips per SyncML session on one PostgreSQL (issue 20: the single-database
# baseline for the Citus comparison), counted by pg_stat_statements (track = all, track_utility = on) on a
# private cluster, for
#   two-way  no-change two-way syncs (32 phones, 2 tenants, closed loop, --sessions N)
#   slow     the first slow sync of a phone sending --contacts vCards (syncml-load --items), --slow-phones phones
#   (and, as a by-product, the first slow sync of 10 contacts that prepares the two-way phones)
# and prints a markdown table: statements per session (top level and nested in plpgsql functions/triggers),
# BEGIN/COMMIT per session, round trips per session, and the top statements by calls per session.
#
#   loadtest/statements_per_session.sh [--sessions 1000] [--contacts 1000] [--slow-phones 4]
#                                      [--encoding wbxml|xml] [--port 18460]
#
# Environment (see lib.sh): SYNCML_RELEASE_BUILD (default build/release), LT_PG_PORT (55460), LT_WORK
# (/tmp/syncml-loadtest; this script keeps everything in LT_WORK/statements: its own cluster `pg`, the
# pg_stat_statements snapshots `snap-*.tsv`, per-phase deltas `delta-*.tsv`, syncml-load reports, server log,
# `report.md`), LT_WORKER_THREADS (4), LT_QUIET_SECONDS (10: idle interval that identifies background queries).
#
# Method. The cluster is this script's own (LT_WORK/statements/pg, not lib.sh's shared LT_WORK/pg) because it
# needs shared_preload_libraries. Accounts for every population are created and a warm-up run (first slow
# syncs and 3 s of sessions: every worker connection open, tables filled) plus VACUUM ANALYZE happen before
# pg_stat_statements_reset(). Snapshots are read from the `postgres` database and filtered by the server's
# database, so the script's own queries are never counted. The janitor is off (SYNCML_JANITOR_INTERVAL=0);
# the readiness check (one transaction per second on its own connection) is identified in a quiet interval
# with the server idle: the statements seen there are dropped from every phase, and BEGIN/COMMIT in the
# proportion the quiet interval shows per background statement. syncml-load always slow-syncs every phone
# first (prepare phase), so:
#   phase A  32 phones, --items 10, prepare only (--duration 0.0001: the measured phase starts no session)
#   phase B  32 other phones, same shape, prepare + --sessions N no-change two-way syncs
#   two-way per session = (B - A) / N;  slow 10 per session = A / 32
#   phase C  --slow-phones phones, --items --contacts, prepare only;  slow per session = C / phones
# Round trips: pg_stat_statements sees queries, not network round trips; top-level statements plus
# transaction control is the proxy (pqxx sends BEGIN and COMMIT as queries of their own). Not included:
# protocol-level Parse of prepared statements (once per connection), connection set-up, failed statements.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

sessions=1000 contacts=1000 slow_phones=4 encoding=wbxml port=18460
quiet_seconds=${LT_QUIET_SECONDS:-10}
while [ $# -gt 0 ]; do
    case $1 in
        --sessions) sessions=$2; shift ;;
        --contacts) contacts=$2; shift ;;
        --slow-phones) slow_phones=$2; shift ;;
        --encoding) encoding=$2; shift ;;
        --port) port=$2; shift ;;
        *) echo "usage: $0 [--sessions N] [--contacts N] [--slow-phones N] [--encoding wbxml|xml] [--port P]" >&2; exit 2 ;;
    esac
    shift
done
work=$LT_WORK/statements
bash "$LT_ROOT/tests/pg-cluster.sh" stop "$work/pg" 2>/dev/null || true
rm -rf "$work"
mkdir -p "$work"
trap lt_cleanup EXIT

lt_build

# Private cluster with pg_stat_statements: pg-cluster.sh initializes and starts it, the settings need a restart.
LT_PG_DIR=$work/pg
bash "$LT_ROOT/tests/pg-cluster.sh" start "$LT_PG_DIR" "$LT_PG_PORT" >/dev/null
cat >>"$LT_PG_DIR/postgresql.conf" <<'EOF'
shared_preload_libraries = 'pg_stat_statements'
pg_stat_statements.track = all
pg_stat_statements.track_utility = on
pg_stat_statements.max = 10000
EOF
bash "$LT_ROOT/tests/pg-cluster.sh" stop "$LT_PG_DIR"
bash "$LT_ROOT/tests/pg-cluster.sh" start "$LT_PG_DIR" "$LT_PG_PORT" >/dev/null
admin_url="postgresql://postgres@127.0.0.1:$LT_PG_PORT/postgres"
db=syncml_statements
lt_pg_createdb "$db"
psql -qAt "$admin_url" -c "CREATE EXTENSION IF NOT EXISTS pg_stat_statements" >/dev/null
[ "$(psql -qAt "$admin_url" -c "SHOW pg_stat_statements.track")" = all ]
lt_migrate 2>"$work/migrate.log"

two_way=(--tenants 2 --users 16 --password pw)
slow=(--tenants 1 --users "$slow_phones" --password pw)
lt_log "creating accounts (warm-up, phases A, B, C)"
lt_accounts "${two_way[@]}" --prefix stw >>"$work/accounts.log" 2>&1
lt_accounts "${two_way[@]}" --prefix sta >>"$work/accounts.log" 2>&1
lt_accounts "${two_way[@]}" --prefix stb >>"$work/accounts.log" 2>&1
lt_accounts "${slow[@]}" --prefix stc >>"$work/accounts.log" 2>&1

export SYNCML_JANITOR_INTERVAL=0
lt_server_start "$port" "$work/server.log"
load() {  # load NAME ARGS... -> syncml-load run, report in $work/NAME.{txt,json}
    local name=$1
    shift
    "$LT_LOAD" run --url "http://127.0.0.1:$port/sync" --encoding "$encoding" --adds 0 --replaces 0 --deletes 0 \
        --no-progress --json "$work/$name.json" "$@" >"$work/$name.txt" || true
}
lt_log "warm-up: 32 first slow syncs and 3 s of sessions, then VACUUM ANALYZE"
load warmup "${two_way[@]}" --prefix stw --items 10 --duration 3
psql -q "$LT_DB_URL" -c "VACUUM ANALYZE"

# snapshot N -> $work/snap-N.tsv: queryid, toplevel, calls, query (whitespace folded) of the server's database
snapshot() {
    psql -qAt -F $'\t' "$admin_url" -c "SELECT s.queryid, s.toplevel, s.calls,
        regexp_replace(s.query, '\\s+', ' ', 'g') FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
        WHERE d.datname = '$db' ORDER BY s.calls DESC" >"$work/snap-$1.tsv"
}
psql -qAt "$admin_url" -c "SELECT pg_stat_statements_reset()" >/dev/null
snapshot 0
lt_log "quiet interval: server idle for $quiet_seconds s"
sleep "$quiet_seconds"
snapshot 1
lt_log "phase A: 32 first slow syncs of 10 contacts"
load phase-a "${two_way[@]}" --prefix sta --items 10 --duration 0.0001
snapshot 2
lt_log "phase B: 32 first slow syncs of 10 contacts, then $sessions no-change two-way sessions"
load phase-b "${two_way[@]}" --prefix stb --items 10 --sessions "$sessions" --duration 600
snapshot 3
lt_log "phase C: $slow_phones first slow syncs of $contacts contacts"
load phase-c "${slow[@]}" --prefix stc --items "$contacts" --duration 0.0001
snapshot 4
dealloc=$(psql -qAt "$admin_url" -c "SELECT dealloc FROM pg_stat_statements_info")

for phase in a b c; do
    for part in prepare measured; do
        for key in sessions_failed errors_total; do
            value=$(lt_json "$work/phase-$phase.json" "$part.$key")
            [ "$value" = 0 ] || { lt_log "phase $phase $part: $key = $value (see $work/phase-$phase.txt)"; exit 1; }
        done
    done
done
[ "$(lt_json "$work/phase-a.json" measured.sessions_ok)" = 0 ] && [ "$(lt_json "$work/phase-c.json" measured.sessions_ok)" = 0 ] ||
    { lt_log "a prepare-only phase ran measured sessions"; exit 1; }
[ "$dealloc" = 0 ] || lt_log "warning: pg_stat_statements evicted $dealloc entries (raise pg_stat_statements.max)"

python3 - "$work" "$sessions" "$contacts" "$encoding" "$quiet_seconds" "$(git -C "$LT_ROOT" log -1 --format=%h 2>/dev/null || echo '?')" <<'EOF' | tee "$work/report.md"
import json, re, sys
from collections import defaultdict

work, sessions, contacts, encoding, quiet_s, commit = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5], sys.argv[6]

# Keyed by (query text, top level): the same text can have several query ids (e.g. parameter types), which
# would show up as +n and -n in a difference of two phases.
def load(n):
    rows = defaultdict(int)
    with open(f"{work}/snap-{n}.tsv") as f:
        for line in f:
            _, top, calls, query = line.rstrip("\n").split("\t", 3)
            rows[(query, top == "t")] += int(calls)
    return rows

snaps = [load(n) for n in range(5)]
text = {k: k[0] for s in snaps for k in s}

def delta(a, b):
    d = {k: snaps[b].get(k, 0) - snaps[a].get(k, 0) for k in set(snaps[a]) | set(snaps[b])}
    return {k: v for k, v in d.items() if v}

def control(query):  # transaction control class or None
    m = re.match(r"\s*(BEGIN|START TRANSACTION|COMMIT|END|ROLLBACK|SAVEPOINT|RELEASE)\b", query, re.I)
    if not m:
        return None
    word = m.group(1).upper()
    return {"START TRANSACTION": "BEGIN", "END": "COMMIT"}.get(word, word if word in ("BEGIN", "COMMIT", "ROLLBACK") else "SAVEPOINT")

# Background (readiness check): every non-control statement of the quiet interval, and the transaction
# control per such statement in the quiet interval's proportion.
quiet = delta(0, 1)
background = {k for k in quiet if control(text[k]) is None}
quiet_bg = sum(quiet[k] for k in background)
quiet_ctl = defaultdict(int)
for k, v in quiet.items():
    if control(text[k]):
        quiet_ctl[k] += v

def clean(d):
    bg = sum(d.get(k, 0) for k in background)
    out = {k: v for k, v in d.items() if k not in background}
    for k, v in quiet_ctl.items():
        out[k] = out.get(k, 0) - (round(v * bg / quiet_bg) if quiet_bg else 0)
    return {k: v for k, v in out.items() if v}, bg

a, bg_a = clean(delta(1, 2))
b, bg_b = clean(delta(2, 3))
c, bg_c = clean(delta(3, 4))
reports = {n: json.load(open(f"{work}/phase-{n}.json")) for n in "abc"}
n_a = reports["a"]["prepare"]["sessions_ok"]
n_b = reports["b"]["measured"]["sessions_ok"]
n_c = reports["c"]["prepare"]["sessions_ok"]
if reports["b"]["prepare"]["sessions_ok"] != n_a:
    sys.exit("phase B prepared a different number of phones than phase A")
two_way = {k: b.get(k, 0) - a.get(k, 0) for k in set(a) | set(b)}
messages = {"two-way": reports["b"]["measured"]["messages"], "c": reports["c"]["prepare"]["messages"],
            "a": reports["a"]["prepare"]["messages"]}
scenarios = [
    (f"no-change two-way sync ({encoding}, B - A)", two_way, n_b, messages["two-way"]),
    (f"first slow sync, {contacts} contacts ({encoding})", c, n_c, messages["c"]),
    (f"first slow sync, 10 contacts ({encoding}, phase A)", a, n_a, messages["a"]),
]

for name, d, n in [("a", a, n_a), ("b", b, n_b), ("c", c, n_c), ("two-way", two_way, n_b)]:
    with open(f"{work}/delta-{name}.tsv", "w") as f:
        f.write("calls\tper_session\ttoplevel\tquery\n")
        for k, v in sorted(d.items(), key=lambda kv: -kv[1]):
            f.write(f"{v}\t{v / n:.3f}\t{'t' if k[1] else 'f'}\t{text[k]}\n")

def fk_check(query):
    return re.match(r'SELECT (1|\$\d+) FROM ONLY "', query) is not None

print(f"## SQL statements and round trips per SyncML session (one PostgreSQL 15, pg_stat_statements)\n")
print(f"Commit {commit}; phases A/B: 32 phones (2 tenants x 16 users, 1 device each), basic auth, closed loop; "
      f"B runs {n_b} no-change two-way sessions (3 messages each) after the same first slow syncs as A; "
      f"C: {n_c} phones, first slow sync of {contacts} contacts each. Background excluded: the readiness "
      f"check's statements ({bg_a} / {bg_b} / {bg_c} in A / B / C, learnt in a {quiet_s} s quiet interval) "
      f"and their BEGIN/COMMIT; janitor off.\n")
print("| scenario | sessions | messages / session | statements | per session | top level / session | nested / session (FK checks) "
      "| BEGIN / session | COMMIT / session | ROLLBACK / session | round trips / session |")
print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
for title, d, n, msgs in scenarios:
    top = sum(v for k, v in d.items() if k[1] and not control(text[k]))
    nested = sum(v for k, v in d.items() if not k[1] and not control(text[k]))
    fk = sum(v for k, v in d.items() if not k[1] and fk_check(text[k]))
    ctl = defaultdict(int)
    for k, v in d.items():
        if control(text[k]) and k[1]:
            ctl[control(text[k])] += v
    trips = top + sum(ctl.values())
    print(f"| {title} | {n} | {msgs / n:.2f} | {top + nested} | {(top + nested) / n:.2f} | {top / n:.2f} | {nested / n:.2f} "
          f"({fk / n:.2f}) | {ctl['BEGIN'] / n:.2f} | {ctl['COMMIT'] / n:.2f} | {ctl['ROLLBACK'] / n:.2f} "
          f"| {trips / n:.2f} |")
print("\nstatements = calls of every SQL statement but transaction control, at top level (sent by the server) "
      "and nested (run inside plpgsql functions and triggers, and PostgreSQL's own foreign-key checks, one per "
      "inserted row and constraint); messages = HTTP requests of the phone (syncml-load); round trips = top-level "
      "statements + BEGIN/COMMIT/ROLLBACK/SAVEPOINT as counted by pg_stat_statements (a proxy: it counts "
      "queries, not network exchanges; Parse of prepared statements and connection set-up are not in it).")
for title, d, n, _ in scenarios[:2]:
    print(f"\nTop 15 statements by calls per session: {title}\n")
    print("| calls / session | level | query (first 100 characters) |")
    print("| --- | --- | --- |")
    for k, v in sorted(d.items(), key=lambda kv: (-kv[1], text[kv[0]]))[:15]:
        q = text[k][:100].replace("|", "\\|")
        print(f"| {v / n:.2f} | {'top' if k[1] else 'nested'} | `{q}` |")
EOF
lt_log "raw data: $work (snap-*.tsv, delta-*.tsv, phase-*.json, report.md)"
