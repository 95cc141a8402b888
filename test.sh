#!/usr/bin/env bash
# Sets everything up and runs all tests: installs the Debian packages, builds the Debug+ASan+UBSan test build,
# runs the static checks, the unit tests (ctest), the integration and interop tests against a PostgreSQL 15
# cluster started here, and the fuzz targets for a bounded time. Prints "N passed, N failed" at the end.
# Environment: SYNCML_FUZZ_SECONDS (default 20 per target), SYNCML_TEST_FILTER (regex on integration script names),
# SYNCML_TEST_BUILD_DIR (default build/test), SYNCML_TEST_JOBS (integration scripts and the fuzz job at a time,
# default 2).
set -uo pipefail
root=$(cd "$(dirname "$0")" && pwd)
build=${SYNCML_TEST_BUILD_DIR:-$root/build/test}
fuzz_build="$root/build/fuzz"
work="$root/build/test-work"
fuzz_seconds=${SYNCML_FUZZ_SECONDS:-20}
jobs=$(nproc)

"$root/cmake/install-deps.sh" test || { echo "dependency installation failed" >&2; exit 1; }

passed=0
failed=0
failures=()
started=$SECONDS
record() {  # record NAME STATUS [SECONDS]: with the seconds it took (default: since the previous record), to keep an
    local took="(${3:-$((SECONDS - started))} s)"  # eye on the 45-minute budget
    started=$SECONDS
    if [ "$2" -eq 0 ]; then
        passed=$((passed + 1)); echo "PASS $1 $took"
    else
        failed=$((failed + 1)); failures+=("$1"); echo "FAIL $1 $took"
    fi
}

echo "== build (Debug, ASan+UBSan)"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Debug -DSYNCML_SANITIZE=ON -DSYNCML_TESTS=ON \
    -DSYNCML_BENCHMARKS=OFF -DSYNCML_WERROR=ON >/dev/null || exit 1
cmake --build "$build" -j"$jobs" || { echo "build failed" >&2; exit 1; }

echo "== static checks"
for check in "$root"/tests/checks/*.sh; do
    bash "$check" "$root"
    record "check $(basename "$check" .sh)" $?
done

rm -rf "$work"
mkdir -p "$work"
chmod 755 "$root/build" "$work"
# Below the kernel's ephemeral ports (32768-60999), which the scripts' free ports come from while both lanes run.
pg_port=$((25000 + RANDOM % 900))
pg_dir="$work/pg"
cleanup() { bash "$root/tests/pg-cluster.sh" stop "$pg_dir"; }
trap cleanup EXIT
echo "== PostgreSQL test cluster on port $pg_port"
bash "$root/tests/pg-cluster.sh" start "$pg_dir" "$pg_port" >/dev/null || { echo "cannot start PostgreSQL" >&2; exit 1; }

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export SYNCML_BUILD_DIR="$build" SYNCML_SOURCE_DIR="$root" SYNCML_CORPUS_DIR="$root/../shared/corpus"
# Tests create many users; PBKDF2 at the production cost (600,000 iterations) costs ~1 s of CPU per hash under
# ASan. The cost of new hashes is a setting, not behaviour under test.
export SYNCML_PASSWORD_HASH_ITERATIONS=${SYNCML_PASSWORD_HASH_ITERATIONS:-1000}

echo "== unit tests"
export SYNCML_TEST_DATABASE_URL
SYNCML_TEST_DATABASE_URL=$(bash "$root/tests/pg-cluster.sh" createdb "$pg_dir" "$pg_port" unit_tests)
(cd "$build" && ctest -V -j"$jobs" --timeout 600) >"$work/ctest.log" 2>&1
status=$?
grep -E "tests passed|tests failed|Failed|\*\*\*|\[  FAILED  \]" "$work/ctest.log" | tail -40
# ctest counts gtest shards; these are the tests inside them.
grep -oE "\[  PASSED  \] [0-9]+ test" "$work/ctest.log" | awk '{n += $4} END {print n + 0, "unit tests passed"}'
[ $status -ne 0 ] && tail -200 "$work/ctest.log"
record "unit tests (ctest)" $status

echo "== integration tests and fuzz targets (${fuzz_seconds}s each), two jobs at a time"
# Each integration script has its own database, ports and work directory, and waits on clients and servers about
# half of its time: two at a time took 355 s for interop-matrix and matching_scenarios against 539 s one after the
# other. The fuzz build and runs are one more job. The longest start first so that the two lanes end together.
# Every job writes "STATUS SECONDS LABEL" lines to $work/NAME.result and its output to $work/NAME*.log.
run_integration() {  # run_integration SCRIPT
    local script=$1 name status begin=$SECONDS
    name=$(basename "$script" .sh)
    mkdir -p "$work/$name"
    # The interop clients build a small preload library in their cache; a cache per script keeps two from
    # writing the same file at once.
    SYNCML_TEST_DATABASE_URL=$(bash "$root/tests/pg-cluster.sh" createdb "$pg_dir" "$pg_port" "it_${name//-/_}") \
        INTEROP_CACHE="$work/$name/interop-cache" SYNCML_TEST_WORK_DIR="$work/$name" \
        bash "$script" >"$work/$name.log" 2>&1
    status=$?
    echo "$status $((SECONDS - begin)) integration $name" >"$work/$name.result"
    echo "-- $name done ($((SECONDS - begin)) s)"
}
run_fuzz() {  # the clang build of the fuzz targets, then each tests/fuzz script for $fuzz_seconds per target
    local status begin=$SECONDS script name
    CC=clang CXX=clang++ cmake -S "$root" -B "$fuzz_build" -DCMAKE_BUILD_TYPE=Debug -DSYNCML_FUZZ=ON -DSYNCML_WERROR=OFF \
        -DSYNCML_TESTS=OFF >"$work/fuzz.log" 2>&1 &&
        cmake --build "$fuzz_build" --target fuzz_targets -j"$jobs" >>"$work/fuzz.log" 2>&1
    status=$?
    echo "$status $((SECONDS - begin)) fuzz build" >"$work/fuzz.result"
    [ $status -ne 0 ] && return
    for script in "$root"/tests/fuzz/*.sh; do
        name=$(basename "$script" .sh)
        begin=$SECONDS
        bash "$script" "$fuzz_build" "$fuzz_seconds" >"$work/fuzz-$name.log" 2>&1
        echo "$? $((SECONDS - begin)) fuzz $name" >>"$work/fuzz.result"
    done
    echo "-- fuzz done"
}
run_job() {  # run_job NAME: "fuzz" or a script of tests/integration
    if [ "$1" = fuzz ]; then run_fuzz; else run_integration "$root/tests/integration/$1.sh"; fi
}
export -f run_integration run_fuzz run_job
export root work pg_dir pg_port fuzz_build fuzz_seconds jobs
jobs_began=$SECONDS
first_ones="citus fuzz interop-matrix matching_scenarios client_scenarios fault_injection hostile_input"
all_jobs=()
for name in $first_ones; do
    if [ "$name" = fuzz ]; then
        ls "$root"/tests/fuzz/*.sh >/dev/null 2>&1 && all_jobs+=(fuzz)
    elif [ -e "$root/tests/integration/$name.sh" ]; then
        all_jobs+=("$name")
    fi
done
for script in "$root"/tests/integration/*.sh; do
    [ -e "$script" ] || continue
    name=$(basename "$script" .sh)
    [[ " $first_ones " == *" $name "* ]] || all_jobs+=("$name")
done
selected=()
for name in "${all_jobs[@]}"; do
    if [ "$name" != fuzz ] && [ -n "${SYNCML_TEST_FILTER:-}" ] && ! [[ $name =~ $SYNCML_TEST_FILTER ]]; then continue; fi
    selected+=("$name")
done
printf '%s\0' "${selected[@]}" | xargs -0 -n 1 -P "${SYNCML_TEST_JOBS:-2}" bash -c 'run_job "$1"' _
for name in "${selected[@]}"; do
    if [ ! -s "$work/$name.result" ]; then
        record "$name (no result)" 1 "?"
        continue
    fi
    while read -r status took label; do
        if [ "$status" -ne 0 ]; then
            echo "-- $label:"
            case $label in
            "fuzz build") tail -60 "$work/fuzz.log" ;;
            fuzz\ *) tail -60 "$work/fuzz-${label#fuzz }.log" ;;
            *) tail -80 "$work/$name.log" ;;
            esac
        fi
        record "$label" "$status" "$took"
    done <"$work/$name.result"
done
echo "integration tests and fuzz targets took $((SECONDS - jobs_began)) s"

echo
[ $failed -gt 0 ] && printf 'failed: %s\n' "${failures[@]}"
echo "took $((SECONDS / 60)) min"
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
