#!/usr/bin/env bash
# Side by side with the reference server (SyncEvolution's syncevo-http-server): the interop harness's
# bench.sh (real SyncEvolution client) against our Release server on a private PostgreSQL cluster and
# against ../shared/interop/anchor-server.sh, for 100 and 1000 contacts (and 10000 with --full), WBXML and
# XML: first slow sync and no-change two-way wall times, and per session through wiretap.py the HTTP
# requests, bytes up/down and server time (sum of the proxy's per-exchange times). Prints one table with
# ratios ours/reference.
#
#   loadtest/bench-vs-reference.sh [--full] [--counts 100,1000] [--repeat 3] [--port 18400]
#
# Env: SYNCML_RELEASE_BUILD (default build/release, built when missing), LT_PG_PORT (55460), LT_WORK.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

counts=100,1000 repeat=3 port=18400
while [ $# -gt 0 ]; do
    case $1 in
        --full) counts=100,1000,10000 ;;
        --counts) counts=$2; shift ;;
        --repeat) repeat=$2; shift ;;
        --port) port=$2; shift ;;
        *) echo "usage: $0 [--full] [--counts LIST] [--repeat N] [--port P]" >&2; exit 2 ;;
    esac
    shift
done
# Five-digit ports throughout: wiretap.py rewrites RespURIs byte for byte, so proxy and server ports need
# the same number of digits.
ref_port=$((port + 10)) tap_ours=$((port + 20)) tap_ref=$((port + 21))
work=$LT_WORK/vs-reference
rm -rf "$work"
mkdir -p "$work"
export ANCHOR_STATE=$work/anchor
trap 'lt_cleanup; "$LT_INTEROP/anchor-server.sh" stop >/dev/null 2>&1 || true' EXIT

lt_build
lt_pg_start bench_vs_reference
lt_migrate
lt_admin tenant add bench >/dev/null
lt_server_start "$port" "$work/server.log"
lt_log "bench.sh against syncml-server (port $port), counts $counts, $repeat runs each"
"$LT_INTEROP/bench.sh" --url "http://127.0.0.1:$port/sync/bench" --counts "$counts" --repeat "$repeat" \
    --tap-port "$tap_ours" --work "$work/ours" \
    --prepare "SYNCML_DATABASE_URL='$LT_DB_URL' '$LT_SERVER' admin user add --tenant bench --user \"\$USER_NAME\" --password \"\$PASSWORD\" >/dev/null" \
    >"$work/ours.out" 2>"$work/ours.err" || { tail -20 "$work/ours.err" >&2; exit 1; }

lt_log "bench.sh against the reference server (port $ref_port)"
"$LT_INTEROP/anchor-server.sh" start --port "$ref_port" >/dev/null
"$LT_INTEROP/bench.sh" --url "http://127.0.0.1:$ref_port/sync" --counts "$counts" --repeat "$repeat" \
    --tap-port "$tap_ref" --work "$work/ref" \
    --prepare '"$INTEROP"/anchor-server.sh add-client --device-id "$DEVICE" --user "$USER_NAME" --password "$PASSWORD" --tenant "$USER_NAME" --stores contacts >/dev/null' \
    >"$work/ref.out" 2>"$work/ref.err" || { tail -20 "$work/ref.err" >&2; exit 1; }

python3 - "$work" "$counts" <<'PY'
import csv, statistics, sys, os
work, counts = sys.argv[1], sys.argv[2].split(",")

def medians(side):
    rows = list(csv.DictReader(open(os.path.join(work, side, "results.tsv")), delimiter="\t"))
    out = {}
    for r in rows:
        out.setdefault((r["count"], r["encoding"]), []).append((float(r["slow_s"]), float(r["twoway_s"])))
    return {k: (statistics.median(a for a, _ in v), statistics.median(b for _, b in v)) for k, v in out.items()}

def wire(side, count, enc, mode):
    path = os.path.join(work, side, "wire-%s-%s-%s" % (count, enc, mode), "exchanges.tsv")
    n = ms = up = down = 0
    for line in open(path):
        f = line.rstrip("\n").split("\t")
        n += 1; ms += float(f[1]); up += int(f[5]); down += int(f[8])
    return n, ms / 1000.0, up, down

def ratio(a, b):
    return "%.2f" % (a / b) if b else "n/a"

ours, ref = medians("ours"), medians("ref")
print("\nbench-vs-reference: wall time of the whole SyncEvolution client run (median), and one session through")
print("wiretap.py: requests, server time (sum of per-exchange times), bytes up/down.  ratio = ours / reference\n")
hdr = "%-6s %-5s | %-24s | %-24s | %-24s | %-15s | %-30s | %-26s"
print(hdr % ("items", "enc", "slow sync s ours/ref/x", "2-way s ours/ref/x", "slow server s ours/ref/x",
             "slow reqs o/r", "slow KB up/down ours | ref", "2-way KB down ours/ref/x"))
for count in counts:
    for enc in ("wbxml", "xml"):
        o, r = ours.get((count, enc)), ref.get((count, enc))
        if not o or not r:
            continue
        os_, rs = wire("ours", count, enc, "slow"), wire("ref", count, enc, "slow")
        ot, rt = wire("ours", count, enc, "two-way"), wire("ref", count, enc, "two-way")
        print(hdr % (count, enc,
                     "%.2f / %.2f / %s" % (o[0], r[0], ratio(o[0], r[0])),
                     "%.2f / %.2f / %s" % (o[1], r[1], ratio(o[1], r[1])),
                     "%.3f / %.3f / %s" % (os_[1], rs[1], ratio(os_[1], rs[1])),
                     "%d / %d" % (os_[0], rs[0]),
                     "%.1f/%.1f | %.1f/%.1f" % (os_[2] / 1024, os_[3] / 1024, rs[2] / 1024, rs[3] / 1024),
                     "%.1f / %.1f / %s" % (ot[3] / 1024, rt[3] / 1024, ratio(ot[3], rt[3]))))
print("\nraw: %s/{ours,ref}/results.tsv and wire-*/exchanges.tsv" % work)
PY
