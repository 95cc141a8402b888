#!/usr/bin/env bash
# Fails when a tracked C++ file differs from clang-format's output (.clang-format at the root).
set -uo pipefail
root=${1:-.}
cd "$root" || exit 1
files=$(git ls-files -- '*.cpp' '*.hpp' '*.h' '*.cc')
[ -z "$files" ] && { echo "no sources"; exit 0; }
bad=$(for f in $files; do clang-format --style=file "$f" | cmp -s - "$f" || echo "$f"; done)
if [ -n "$bad" ]; then
    echo "not clang-formatted (run clang-format -i):"; echo "$bad"; exit 1
fi
echo "format ok"
