#!/usr/bin/env bash
# CardDAV side by side: vdirsyncer uploads N contacts (a first sync of a local directory into an empty address
# book) and then runs a no-change sync, against our Release server's DAV front end (private PostgreSQL cluster)
# and against Radicale, each through dav_count_proxy.py, which counts the HTTP requests and the bytes on the
# wire both ways. Prints one markdown table.
#
#   loadtest/dav_compare.sh [--contacts N] [--radicale-only | --ours-only] [--port 18500]
#
# bytes in = requests to the server (request line, headers, body); bytes out = its responses. seconds = wall
# time of the vdirsyncer run; server s = sum of the proxy's per-exchange times (time spent waiting for the
# server, concurrent requests counted each).
# Env: DAV_COMPARE_CONTACTS (default 1000, --contacts wins), SYNCML_RELEASE_BUILD (default build/release, built
# when missing), LT_PG_PORT (55460), LT_WORK (default /tmp/syncml-loadtest).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

count=${DAV_COMPARE_CONTACTS:-1000} targets="ours radicale" port=18500
while [ $# -gt 0 ]; do
    case $1 in
        --contacts) count=$2; shift ;;
        --radicale-only) targets=radicale ;;
        --ours-only) targets=ours ;;
        --port) port=$2; shift ;;
        *) echo "usage: $0 [--contacts N] [--radicale-only | --ours-only] [--port P]" >&2; exit 2 ;;
    esac
    shift
done
work=$LT_WORK/dav-compare
proxy=$LT_ROOT/loadtest/dav_count_proxy.py
rm -rf "$work"
mkdir -p "$work"
trap lt_cleanup EXIT
rows=() vcard_bytes=0

wait_port() {  # PORT PID
    for _ in $(seq 1 200); do
        python3 -c "import socket, sys; socket.create_connection(('127.0.0.1', int(sys.argv[1])), 1)" "$1" 2>/dev/null &&
            return 0
        kill -0 "$2" 2>/dev/null || return 1
        sleep 0.1
    done
    return 1
}

# gen_contacts DIR N: N different vCard 3.0 files of 200-1300 bytes, named <UID>.vcf; prints their total size.
gen_contacts() {
    python3 - "$1" "$2" <<'PY'
import os, random, sys
out, n = sys.argv[1], int(sys.argv[2])
rnd = random.Random(7)
os.makedirs(out, exist_ok=True)
total = 0
given = ["Anna", "Ben", "Clara", "David", "Eva", "Felix", "Greta", "Hugo", "Ida", "Jonas", "Karla", "Lukas"]
family = ["Meyer", "Schulz", "Wagner", "Becker", "Hoffmann", "Koch", "Richter", "Klein", "Wolf", "Neumann"]
for i in range(n):
    g, f = rnd.choice(given), rnd.choice(family)
    uid = "compare-%06d" % i
    lines = ["BEGIN:VCARD", "VERSION:3.0", "UID:" + uid, "FN:%s %s %d" % (g, f, i), "N:%s;%s;;;" % (f, g),
             "TEL;TYPE=CELL:+4917%08d" % i, "EMAIL;TYPE=INTERNET:%s.%s.%d@example.org" % (g.lower(), f.lower(), i)]
    if i % 2:
        lines.append("ADR;TYPE=HOME:;;Street %d;Berlin;;%05d;Germany" % (i, 10000 + i % 90000))
    if i % 3:
        lines.append("ORG:Company %d;Department %d" % (i % 97, i % 7))
    lines.append("NOTE:" + " ".join(rnd.choice(family).lower() for _ in range(rnd.randint(5, 150))))
    lines.append("END:VCARD")
    with open(os.path.join(out, uid + ".vcf"), "w", newline="") as fh:
        total += fh.write("\r\n".join(lines) + "\r\n")
print(total)
PY
}

# measure NAME DIRECT_URL COLLECTION_PATH: the two vdirsyncer phases against one server (user alice/pw).
measure() {
    local name=$1 direct=$2 path=$3 dir=$work/$1 proxy_port=$((port + 5)) log started ended at
    mkdir -p "$dir/status"
    vcard_bytes=$(gen_contacts "$dir/contacts" "$count")
    log=$dir/requests.jsonl
    python3 "$proxy" serve --listen "$proxy_port" --target "$direct" --log "$log" --body-bytes 0 >"$dir/proxy.log" 2>&1 &
    LT_PIDS+=($!)
    wait_port "$proxy_port" "$!" || { lt_log "the proxy for $name did not start"; return 1; }
    cat >"$dir/config" <<EOF
[general]
status_path = "$dir/status/"

[pair contacts]
a = "local"
b = "remote"
collections = null

[storage local]
type = "filesystem"
path = "$dir/contacts/"
fileext = ".vcf"

[storage remote]
type = "carddav"
url = "http://127.0.0.1:$proxy_port$path"
username = "alice"
password = "pw"
EOF
    vdirsyncer -c "$dir/config" discover >"$dir/discover.log" 2>&1 < <(yes y) ||
        { lt_log "vdirsyncer discover against $name failed"; tail -5 "$dir/discover.log" >&2; return 1; }
    for phase in upload no-change; do
        at=$(wc -l <"$log")
        started=$(date +%s.%N)
        vdirsyncer -c "$dir/config" sync >"$dir/$phase.log" 2>&1 ||
            { lt_log "vdirsyncer sync ($phase) against $name failed"; tail -5 "$dir/$phase.log" >&2; return 1; }
        ended=$(date +%s.%N)
        read -r requests bytes_in bytes_out server_s < <(python3 "$proxy" count "$log" --from "$at")
        local puts
        puts=$(python3 "$proxy" methods "$log" --from "$at" | tr ' ' '\n' | grep -c '^PUT$' || true)
        lt_log "$name $phase: $requests requests ($puts PUT), $(awk -v a="$started" -v b="$ended" 'BEGIN { printf "%.2f", b - a }') s"
        rows+=("| $name | $phase | $requests | $bytes_in | $bytes_out | $(awk -v a="$started" -v b="$ended" \
            'BEGIN { printf "%.2f", b - a }') | $server_s |")
    done
    python3 "$proxy" describe "$log" >"$dir/requests.txt"
    kill "${LT_PIDS[-1]}" 2>/dev/null || true
}

for target in $targets; do
    if [ "$target" = ours ]; then
        lt_build
        lt_pg_start dav_compare
        lt_migrate
        lt_admin tenant add davc >/dev/null
        lt_admin tenant set davc --dav on >/dev/null
        lt_admin user add --tenant davc --user alice --password pw >/dev/null
        lt_server_start "$port" "$work/server.log"
        measure ours "http://127.0.0.1:$port" /dav/davc/alice/contacts/
    else
        rport=$((port + 3))
        mkdir -p "$work/radicale-server/store/collection-root/alice/contacts"
        echo '{"tag": "VADDRESSBOOK"}' >"$work/radicale-server/store/collection-root/alice/contacts/.Radicale.props"
        printf 'alice:pw\n' >"$work/radicale-server/users"
        cat >"$work/radicale-server/config" <<EOF
[server]
hosts = 127.0.0.1:$rport
[auth]
type = htpasswd
htpasswd_filename = $work/radicale-server/users
htpasswd_encryption = plain
[storage]
filesystem_folder = $work/radicale-server/store
[web]
type = none
[logging]
level = warning
EOF
        radicale --config "$work/radicale-server/config" >"$work/radicale.log" 2>&1 &
        LT_PIDS+=($!)
        wait_port "$rport" "$!" || { lt_log "radicale did not start"; tail -5 "$work/radicale.log" >&2; exit 1; }
        measure radicale "http://127.0.0.1:$rport" /alice/contacts/
    fi
done

echo
echo "vdirsyncer $(vdirsyncer --version | awk '{ print $NF }'), $count contacts, $((vcard_bytes / 1024)) KB of vCards"
echo
echo "| server | phase | requests | bytes in | bytes out | seconds | server s |"
echo "| --- | --- | --- | --- | --- | --- | --- |"
printf '%s\n' "${rows[@]}"
