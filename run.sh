#!/usr/bin/env bash
# Sets everything up and runs the server in the foreground: installs the Debian packages, builds Release and
# starts `syncml-server serve` (embedded PostgreSQL in ./data unless SYNCML_DATABASE_URL is set).
# Extra arguments go to syncml-server, e.g. ./run.sh --config server.conf
set -euo pipefail
root=$(cd "$(dirname "$0")" && pwd)
"$root/cmake/install-deps.sh" run
cmake -S "$root" -B "$root/build/release" -DCMAKE_BUILD_TYPE=Release -DSYNCML_TESTS=OFF >/dev/null
cmake --build "$root/build/release" --target syncml-server -j"$(nproc)"
exec "$root/build/release/src/syncml-server" serve "$@"
