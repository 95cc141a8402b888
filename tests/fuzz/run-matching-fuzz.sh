#!/usr/bin/env bash
# Runs the matching/ fuzz targets (vCard and iCalendar/vCalendar parsers) for a bounded time each, seeded with
# the corpus items. Usage: run-matching-fuzz.sh BUILD_DIR SECONDS  (BUILD_DIR configured with -DSYNCML_FUZZ=ON).
set -euo pipefail
build=${1:?usage: run-matching-fuzz.sh BUILD_DIR SECONDS}
seconds=${2:-20}
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

status=0
for target in vcard_parse_fuzz:vcard ical_parse_fuzz:ical; do
    binary="$build/matching/${target%%:*}"
    seeds="$work/${target##*:}"
    if [ ! -x "$binary" ]; then
        echo "missing fuzz target $binary" >&2
        status=1
        continue
    fi
    echo "== ${target%%:*}: $(ls "$seeds" | wc -l) seeds, ${seconds}s"
    mkdir -p "$work/out-${target%%:*}"
    if ! "$binary" -max_total_time="$seconds" -max_len=16384 -rss_limit_mb=2048 -timeout=10 \
        -artifact_prefix="$work/" "$work/out-${target%%:*}" "$seeds" 2>"$work/${target%%:*}.log"; then
        tail -40 "$work/${target%%:*}.log" >&2
        status=1
    else
        grep -E "Done [0-9]+ runs" "$work/${target%%:*}.log" | tail -1 || true
    fi
done
exit $status
