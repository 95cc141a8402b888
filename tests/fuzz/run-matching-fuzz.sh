#!/usr/bin/env bash
# Runs the matching/ fuzz targets (vCard, iCalendar/vCalendar and SIF parsers) for a bounded time each, seeded with
# the corpus items (and matching/fuzz/seeds for SIF), and prints each target's executions and peak RSS.
# Usage: run-matching-fuzz.sh BUILD_DIR SECONDS [RUNS]  (BUILD_DIR configured with -DSYNCML_FUZZ=ON); a target stops
# after SECONDS or RUNS inputs, whichever comes first (10^6 inputs: run-matching-fuzz.sh build/fuzz 900 1000000).
# Every input must finish within 2 s and the process stay under 512 MB (the parse limits of issue 15 keep an item's
# cost linear and small): a slower input or more memory is a failure, like a crash.
set -euo pipefail
build=${1:?usage: run-matching-fuzz.sh BUILD_DIR SECONDS [RUNS]}
seconds=${2:-20}
runs=${3:--1}
max_len=${SYNCML_FUZZ_MAX_LEN:-16384}
timeout=${SYNCML_FUZZ_TIMEOUT:-2}  # wall-clock seconds per input (see README: loaded machines)
root=$(cd "$(dirname "$0")/../.." && pwd)
corpus=${SYNCML_CORPUS_DIR:-$root/../shared/corpus}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Seeds are copied into a scratch directory: libFuzzer writes new inputs into its first corpus directory.
seed() {  # seed NAME EXTENSION...
    local dir="$work/$1"; shift
    mkdir -p "$dir"
    for ext in "$@"; do
        find "$corpus" -type f -iname "*.$ext" -size -16k -print0 | while IFS= read -r -d '' f; do
            cp "$f" "$dir/$(echo "$f" | md5sum | cut -c1-16).$ext"
        done
    done
}
seed vcard vcf
seed ical ics vcs
# Funambol's SIF items: the corpus has its LOItemTest contacts; the seeds add an appointment, a task and a note.
mkdir -p "$work/sif"
find "$corpus" -type f -iname "sif*.txt" -exec cp {} "$work/sif/" \;
cp "$root"/matching/fuzz/seeds/sif_*.xml "$work/sif/"

status=0
for target in vcard_parse_fuzz:vcard ical_parse_fuzz:ical sif_parse_fuzz:sif; do
    binary="$build/matching/${target%%:*}"
    seeds="$work/${target##*:}"
    if [ ! -x "$binary" ]; then
        echo "missing fuzz target $binary" >&2
        status=1
        continue
    fi
    echo "== ${target%%:*}: $(ls "$seeds" | wc -l) seeds, ${seconds}s, runs ${runs}"
    mkdir -p "$work/out-${target%%:*}"
    if ! "$binary" -max_total_time="$seconds" -runs="$runs" -max_len="$max_len" -rss_limit_mb=512 -timeout="$timeout" \
        -print_final_stats=1 -artifact_prefix="$work/" "$work/out-${target%%:*}" "$seeds" \
        2>"$work/${target%%:*}.log"; then
        tail -40 "$work/${target%%:*}.log" >&2
        for artifact in "$work"/crash-* "$work"/timeout-* "$work"/oom-* "$work"/slow-unit-*; do
            [ -f "$artifact" ] && echo "failing input $(basename "$artifact") (base64): $(base64 -w0 "$artifact")" >&2
        done
        status=1
    else
        grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "$work/${target%%:*}.log" || true
    fi
done
exit $status
