#!/usr/bin/env bash
# Sets everything up and runs all tests: installs the Debian packages, builds the Debug+ASan+UBSan test build,
# runs the static checks, the unit tests (ctest), the integration and interop tests against a PostgreSQL 15
# cluster started here, and the fuzz targets for a bounded time. Prints "N passed, N failed" at the end.
# Environment: SYNCML_FUZZ_SECONDS (default 20 per target), SYNCML_TEST_FILTER (regex on integration script names),
# SYNCML_TEST_BUILD_DIR (default build/test).
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
record() {  # record NAME STATUS: with the seconds since the previous record, to keep an eye on the 45-minute budget
    local took="($((SECONDS - started)) s)"
    started=$SECONDS
    if [ "$2" -eq 0 ]; then
        passed=$((passed + 1)); echo "PASS $1 $took"
    else
        failed=$((failed + 1)); failures+=("$1"); echo "FAIL $1 $took"
    fi
}

echo "== build (Debug, ASan+UBSan)"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Debug -DSYNCML_SANITIZE=ON -DSYNCML_TESTS=ON \
    -DSYNCML_BENCHMARKS=OFF >/dev/null || exit 1
cmake --build "$build" -j"$jobs" || { echo "build failed" >&2; exit 1; }

echo "== static checks"
for check in "$root"/tests/checks/*.sh; do
    bash "$check" "$root"
    record "check $(basename "$check" .sh)" $?
done

rm -rf "$work"
mkdir -p "$work"
chmod 755 "$root/build" "$work"
pg_port=$((55000 + RANDOM % 900))
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

echo "== integration tests"
for script in "$root"/tests/integration/*.sh; do
    [ -e "$script" ] || continue
    name=$(basename "$script" .sh)
    if [ -n "${SYNCML_TEST_FILTER:-}" ] && ! [[ $name =~ $SYNCML_TEST_FILTER ]]; then continue; fi
    SYNCML_TEST_DATABASE_URL=$(bash "$root/tests/pg-cluster.sh" createdb "$pg_dir" "$pg_port" "it_${name//-/_}")
    mkdir -p "$work/$name"
    echo "-- $name"
    SYNCML_TEST_WORK_DIR="$work/$name" bash "$script" >"$work/$name.log" 2>&1
    status=$?
    [ $status -ne 0 ] && tail -80 "$work/$name.log"
    record "integration $name" $status
done

echo "== fuzz targets (${fuzz_seconds}s each)"
if ls "$root"/tests/fuzz/*.sh >/dev/null 2>&1; then
    CC=clang CXX=clang++ cmake -S "$root" -B "$fuzz_build" -DCMAKE_BUILD_TYPE=Debug -DSYNCML_FUZZ=ON -DSYNCML_WERROR=OFF \
        -DSYNCML_TESTS=OFF >/dev/null && cmake --build "$fuzz_build" --target fuzz_targets -j"$jobs" >"$work/fuzz-build.log" 2>&1
    status=$?
    [ $status -ne 0 ] && tail -60 "$work/fuzz-build.log"
    record "fuzz build" $status
    if [ $status -eq 0 ]; then
        for script in "$root"/tests/fuzz/*.sh; do
            name=$(basename "$script" .sh)
            bash "$script" "$fuzz_build" "$fuzz_seconds" >"$work/$name.log" 2>&1
            status=$?
            [ $status -ne 0 ] && tail -60 "$work/$name.log"
            record "fuzz $name" $status
        done
    fi
fi

echo
[ $failed -gt 0 ] && printf 'failed: %s\n' "${failures[@]}"
echo "took $((SECONDS / 60)) min"
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
