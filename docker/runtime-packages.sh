#!/bin/bash
# Prints the Debian packages that own the shared libraries the given ELF files load, one per line, sorted: the
# runtime stage installs exactly these, so a new dependency cannot be forgotten in the Dockerfile. ldd prints
# /lib paths while some packages register /usr/lib ones (merged /usr), so both spellings are tried; a library no
# package owns is an error. Files that are no dynamic ELF objects (scripts, data) are skipped.
# Usage: runtime-packages.sh FILE...
set -euo pipefail
for file in "$@"; do
    ldd "$file" 2>/dev/null | awk '$2 == "=>" && $3 ~ /^\// {print $3}' || true
done | sort -u | while read -r lib; do
    dpkg -S "$lib" 2>/dev/null || dpkg -S "$(realpath "$lib")" 2>/dev/null \
        || { echo "no Debian package owns $lib" >&2; exit 1; }
done | cut -d: -f1 | sort -u
