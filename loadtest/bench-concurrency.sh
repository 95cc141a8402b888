#!/usr/bin/env bash
# Many phones at once: (1) 1000 concurrent simulated phones (closed loop, no think time) against one server
# instance for >= 60 s: errors, latency percentiles, server RSS; (1b) the same phones pausing between sessions
# (a mean of --paced-think-ms, exponential), i.e. a load below the server's capacity, where message latency
# rather than queueing shows; (2) one versus two instances behind haproxy (same phone count, fresh accounts
# each) to show how the session rate scales with instances.
#
#   loadtest/bench-concurrency.sh [--phones 1000] [--seconds 60] [--scale-phones 200] [--scale-seconds 30]
#                                 [--think-ms 0] [--paced-think-ms 30000] [--encoding wbxml] [--port 18440]
# --think-ms gives the 1000 phones of run (1) a mean pause between sessions (0: back to back, worst case);
# --paced-think-ms 0 skips run (1b).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

phones=1000 seconds=60 scale_phones=200 scale_seconds=30 encoding=wbxml port=18440 think_ms=0 paced_think_ms=30000
while [ $# -gt 0 ]; do
    case $1 in
        --phones) phones=$2; shift ;;
        --seconds) seconds=$2; shift ;;
        --scale-phones) scale_phones=$2; shift ;;
        --scale-seconds) scale_seconds=$2; shift ;;
        --encoding) encoding=$2; shift ;;
        --think-ms) think_ms=$2; shift ;;
        --paced-think-ms) paced_think_ms=$2; shift ;;
        --port) port=$2; shift ;;
        *) echo "usage: $0 [--phones N] [--seconds S] [--scale-phones N] [--scale-seconds S] [--think-ms MS] [--paced-think-ms MS] [--encoding E] [--port P]" >&2; exit 2 ;;
    esac
    shift
done
work=$LT_WORK/concurrency
rm -rf "$work"
mkdir -p "$work"
trap lt_cleanup EXIT
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"

lt_build
lt_pg_start concurrency
lt_migrate

# population PREFIX PHONES -> array `pop` of syncml-load arguments (10 tenants)
population() {
    local users=$((($2 + 9) / 10))
    pop=(--tenants 10 --users "$users" --prefix "$1" --password pw)
}

# load NAME URL PIDS SECONDS -> runs syncml-load, keeps NAME.json and NAME.txt
load() {
    local name=$1 url=$2 pids=$3 secs=$4 think=${5:-0} pid_args=()
    for p in $pids; do pid_args+=(--server-pid "$p"); done
    "$LT_LOAD" run --url "$url" "${pop[@]}" --encoding "$encoding" --items 10 --duration "$secs" \
        --think-ms "$think" "${pid_args[@]}" --timeout 120 --json "$work/$name.json" --no-progress >"$work/$name.txt" || true
}

lt_server_start "$port" "$work/server-a.log"
pid_a=$LT_SERVER_PID
population c1k "$phones"
lt_log "creating accounts for $phones phones"
lt_accounts "${pop[@]}"
lt_log "$phones concurrent phones against one instance for $seconds s"
load many "http://127.0.0.1:$port/sync" "$pid_a" "$seconds" "$think_ms"
cat "$work/many.txt"
if [ "$paced_think_ms" -gt 0 ]; then
    population paced "$phones"
    lt_accounts "${pop[@]}"
    lt_log "$phones phones pausing ${paced_think_ms} ms (mean) between sessions for $seconds s"
    load paced "http://127.0.0.1:$port/sync" "$pid_a" "$seconds" "$paced_think_ms"
    cat "$work/paced.txt"
fi

lt_server_start $((port + 2)) "$work/server-b.log"
pid_b=$LT_SERVER_PID
# haproxy_start NAME SERVERS... -> haproxy on port+4 with the given backend ports
haproxy_start() {
    local cfg=$work/haproxy-$1.cfg; shift
    {
        printf 'global\n    maxconn 5000\ndefaults\n    mode http\n    timeout connect 5s\n'
        printf '    timeout client 120s\n    timeout server 120s\n    option http-keep-alive\n'
        printf 'frontend syncml\n    bind 127.0.0.1:%s\n    default_backend servers\n' $((port + 4))
        printf 'backend servers\n    balance roundrobin\n'
        for p in "$@"; do printf '    server s%s 127.0.0.1:%s\n' "$p" "$p"; done
    } >"$cfg"
    haproxy -f "$cfg" -db >"$cfg.log" 2>&1 &
    haproxy_pid=$!
    LT_PIDS+=("$haproxy_pid")
    for _ in $(seq 1 50); do (exec 3<>"/dev/tcp/127.0.0.1/$((port + 4))") 2>/dev/null && return 0; sleep 0.1; done
    lt_log "haproxy did not start:"
    cat "$cfg.log" >&2
    return 1
}
for n in 1 2; do
    backends=$port
    pids=$pid_a
    [ "$n" = 2 ] && backends="$port $((port + 2))" && pids="$pid_a $pid_b"
    haproxy_start "$n" $backends
    population "s$n" "$scale_phones"
    lt_accounts "${pop[@]}"
    lt_log "$scale_phones phones through haproxy to $n instance(s) for $scale_seconds s"
    load "scale$n" "http://127.0.0.1:$((port + 4))/sync" "$pids" "$scale_seconds"
    lt_stop_pid "$haproxy_pid"
done

row() {
    local f=$work/$1.json
    printf '%-34s %9s %7s %8s %8s %8s %8s %8s\n' "$2" "$(lt_json "$f" measured.sessions_per_s)" \
        "$(lt_json "$f" measured.errors_total)" "$(lt_json "$f" measured.latency.changes.p50_ms)" \
        "$(lt_json "$f" measured.latency.changes.p99_ms)" "$(lt_json "$f" measured.latency.init.p99_ms)" \
        "$(lt_json "$f" measured.latency.map.p99_ms)" \
        "$(awk -v b="$(lt_json "$f" server.peak_rss_sampled_bytes)" 'BEGIN { printf "%.0f", b / 1048576 }')"
}
echo
printf '%-34s %9s %7s %8s %8s %8s %8s %8s\n' run "sess/s" errors "p50 ms" "p99 ms" "init p99" "map p99" "RSS MB"
row many "$phones phones, 1 instance"
[ "$paced_think_ms" -gt 0 ] && row paced "$phones phones, think ${paced_think_ms} ms"
row scale1 "$scale_phones phones, haproxy -> 1 instance"
row scale2 "$scale_phones phones, haproxy -> 2 instances"
echo "(p50/p99: package 3 message latency; RSS: peak sampled, summed over instances)"
printf 'scaling 2 vs 1 instances: x%s\n' \
    "$(lt_ratio "$(lt_json "$work/scale2.json" measured.sessions_per_s)" "$(lt_json "$work/scale1.json" measured.sessions_per_s)")"
echo "details: $work/*.txt"
