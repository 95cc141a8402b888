#!/usr/bin/env bash
# Sets everything up and runs the server in the foreground: installs the Debian packages, builds Release and
# starts `syncml-server serve` (embedded PostgreSQL in ./data unless SYNCML_DATABASE_URL is set).
# Extra arguments go to syncml-server, e.g. ./run.sh --config server.conf
# Warnings are not errors here: GCC 12 at -O2 reports false positives (-Wrestrict inside std::string) that the
# -Werror test build (-O0) does not; a user running the server should not be stopped by them.
set -euo pipefail
root=$(cd "$(dirname "$0")" && pwd)
"$root/cmake/install-deps.sh" run
cmake -S "$root" -B "$root/build/release" -DCMAKE_BUILD_TYPE=Release -DSYNCML_TESTS=OFF -DSYNCML_WERROR=OFF >/dev/null
cmake --build "$root/build/release" --target syncml-server -j"$(nproc)"
exec "$root/build/release/src/syncml-server" serve "$@"
