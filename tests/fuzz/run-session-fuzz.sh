#!/usr/bin/env bash
# Runs the SyncML codec fuzzers (built with -DSYNCML_FUZZ=ON, clang) for SECONDS each, seeded from
# the SyncML/DevInf files of the corpus and session/fuzz/seeds. Exit status is non-zero when a fuzzer
# finds a crash or an input whose re-encoding decodes to another model (the targets abort on both).
# usage: tests/fuzz/run-session-fuzz.sh BUILD_DIR SECONDS
set -euo pipefail

build_dir=${1:?usage: run-session-fuzz.sh BUILD_DIR SECONDS}
seconds=${2:?usage: run-session-fuzz.sh BUILD_DIR SECONDS}
source_dir=${SYNCML_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
corpus_dir=${SYNCML_CORPUS_DIR:-$source_dir/../shared/corpus}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

seed_dirs=(
    horde-xml-wbxml/doc/Horde/Xml/Wbxml/examples txsyncml/txsyncml/tests/fixtures
    devaspot-syncml/apps/simple_sync/test syncgw/test/mimedata/wbxml buteo-syncml/tests_meego/data
    funambol-cpp-client-api/test/testcases funambol-cpp-client-api/test/testcases/testLargeObject2
    wbxml-stream/src/test/examples/syncml10 wbxml-stream/src/test/examples/syncml11
    wbxml-stream/src/test/examples/syncml12 wbxml-stream/src/test/examples/devinf
)

status=0
for fuzzer in xml_decode_fuzz wbxml_decode_fuzz; do
    binary=$(find "$build_dir" -type f -name "$fuzzer" -perm -u+x | head -n 1)
    if [[ -z "$binary" ]]; then
        echo "run-session-fuzz: $fuzzer not found under $build_dir (configure with -DSYNCML_FUZZ=ON)" >&2
        exit 2
    fi
    seeds="$work/$fuzzer-seeds"
    mkdir -p "$seeds" "$work/$fuzzer-corpus" "$work/$fuzzer-artifacts"
    for dir in "${seed_dirs[@]}"; do
        for file in "$corpus_dir/$dir"/*; do
            [[ -f "$file" ]] || continue
            case "$file" in
                *.xml | *.xml1 | *.txt) [[ $fuzzer == xml_decode_fuzz ]] && cp "$file" "$seeds/" ;;
                *.wbxml | *.bin) [[ $fuzzer == wbxml_decode_fuzz ]] && cp "$file" "$seeds/" ;;
            esac
        done
    done
    for file in "$source_dir/session/fuzz/seeds"/*; do
        case "$file" in
            *.xml) [[ $fuzzer == xml_decode_fuzz ]] && cp "$file" "$seeds/" ;;
            *.wbxml) [[ $fuzzer == wbxml_decode_fuzz ]] && cp "$file" "$seeds/" ;;
        esac
    done
    echo "run-session-fuzz: $fuzzer for ${seconds}s with $(ls "$seeds" | wc -l) seeds"
    if ! "$binary" -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
        -artifact_prefix="$work/$fuzzer-artifacts/" "$work/$fuzzer-corpus" "$seeds" > "$work/$fuzzer.log" 2>&1; then
        status=1
        tail -n 40 "$work/$fuzzer.log" >&2
        for artifact in "$work/$fuzzer-artifacts"/*; do
            [[ -f "$artifact" ]] && echo "crash input (base64): $(base64 -w0 "$artifact")" >&2
        done
    else
        grep -E "^#[0-9]+ *DONE" "$work/$fuzzer.log" || tail -n 2 "$work/$fuzzer.log"
    fi
done
exit $status
