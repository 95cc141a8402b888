#!/usr/bin/env bash
# Several `syncml-server migrate` processes started at once against one empty database: every
# migration is applied exactly once (advisory lock + schema_migrations), all of them succeed, and a
# later run finds nothing to do. Needs SYNCML_BUILD_DIR and SYNCML_TEST_DATABASE_URL; psql.
set -euo pipefail
bin=${SYNCML_BUILD_DIR:?}/src/syncml-server
url=${SYNCML_TEST_DATABASE_URL:?}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; tail -n 20 "$work"/out.* >&2 || true; exit 1; }

instances=5
pids=()
for i in $(seq "$instances"); do
    SYNCML_DATABASE_URL=$url SYNCML_DATA_DIR=$work/data.$i "$bin" migrate >"$work/out.$i" 2>&1 &
    pids+=($!)
done
for pid in "${pids[@]}"; do wait "$pid" || fail "a concurrent migrate exited non-zero"; done

count_outputs() { grep -l "$1" "$work"/out.* | wc -l || true; }
migrated=$(count_outputs "migrated from version 0 to")
up_to_date=$(count_outputs "up to date")
[ "$migrated" -eq 1 ] || fail "$migrated instances migrated from version 0 (expected exactly 1)"
[ "$up_to_date" -eq $((instances - 1)) ] || fail "$up_to_date instances found the schema up to date"

read -r rows versions latest < <(psql "$url" -AtF ' ' -v ON_ERROR_STOP=1 \
    -c "SELECT count(*), count(DISTINCT version), max(version) FROM schema_migrations")
[ "$rows" -eq "$versions" ] || fail "schema_migrations has $rows rows for $versions versions"
[ "$rows" -eq "$latest" ] || fail "schema_migrations has $rows rows but the latest version is $latest"
tenants=$(psql "$url" -At -v ON_ERROR_STOP=1 -c "SELECT count(*) FROM tenants WHERE name = 'default'")
[ "$tenants" -eq 1 ] || fail "the default tenant exists $tenants times"

SYNCML_DATABASE_URL=$url SYNCML_DATA_DIR=$work/data.again "$bin" migrate >"$work/out.again" 2>&1 ||
    fail "a second migrate failed"
grep -q "up to date at version $latest" "$work/out.again" || fail "a second migrate did not find the schema up to date"
echo "ok: $instances concurrent migrations applied $latest versions exactly once"
