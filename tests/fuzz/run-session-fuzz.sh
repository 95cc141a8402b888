#!/usr/bin/env bash
# Runs the SyncML fuzzers (built with -DSYNCML_FUZZ=ON, clang) for SECONDS each, or until RUNS inputs when
# given: the XML and WBXML codecs and the whole message handler (decode -> engine -> encode against the
# in-memory store). Seeds: the SyncML/DevInf files of the corpus and session/fuzz/seeds. Each input is
# bounded to 2 s and the process to 512 MB (issue 15: no input may take more); the exit status is non-zero
# when a fuzzer finds a crash, a timeout, an RSS overrun or a codec round trip that changes the model.
# usage: tests/fuzz/run-session-fuzz.sh BUILD_DIR SECONDS [RUNS]
set -euo pipefail

build_dir=${1:?usage: run-session-fuzz.sh BUILD_DIR SECONDS [RUNS]}
seconds=${2:?usage: run-session-fuzz.sh BUILD_DIR SECONDS [RUNS]}
runs=${3:-}
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

# Which seed files a fuzzer takes: XML, WBXML, or both plus the multi-message sessions (*.msgs, messages
# split at "\n#--#\n", see session/fuzz/message_handler_fuzz.cpp).
wants() {  # wants FUZZER KIND
    case "$1:$2" in
        xml_decode_fuzz:xml | wbxml_decode_fuzz:wbxml | message_handler_fuzz:*) return 0 ;;
        *) return 1 ;;
    esac
}

# Wall-clock seconds per input (see README: loaded machines).
limits=(-max_total_time="$seconds" -max_len=65536 -timeout="${SYNCML_FUZZ_TIMEOUT:-2}" -rss_limit_mb=512)
[[ -n "$runs" ]] && limits+=(-runs="$runs")

status=0
for fuzzer in xml_decode_fuzz wbxml_decode_fuzz message_handler_fuzz; do
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
                *.xml | *.xml1 | *.txt) wants $fuzzer xml && cp "$file" "$seeds/" ;;
                *.wbxml | *.bin) wants $fuzzer wbxml && cp "$file" "$seeds/" ;;
            esac
        done
    done
    for file in "$source_dir/session/fuzz/seeds"/*; do
        case "$file" in
            *.xml) wants $fuzzer xml && cp "$file" "$seeds/" ;;
            *.wbxml) wants $fuzzer wbxml && cp "$file" "$seeds/" ;;
            *.msgs) wants $fuzzer msgs && cp "$file" "$seeds/" ;;
        esac
    done
    echo "run-session-fuzz: $fuzzer for ${seconds}s${runs:+ or $runs runs} with $(ls "$seeds" | wc -l) seeds"
    if ! "$binary" "${limits[@]}" -artifact_prefix="$work/$fuzzer-artifacts/" "$work/$fuzzer-corpus" "$seeds" \
        > "$work/$fuzzer.log" 2>&1; then
        status=1
        tail -n 40 "$work/$fuzzer.log" >&2
        for artifact in "$work/$fuzzer-artifacts"/*; do
            [[ -f "$artifact" ]] && echo "crash input (base64): $(base64 -w0 "$artifact")" >&2
        done
    else
        # The last status line: executions, exec/s and peak RSS.
        grep -E "^#[0-9]+[[:space:]]+DONE" "$work/$fuzzer.log" || tail -n 2 "$work/$fuzzer.log"
    fi
done
exit $status
