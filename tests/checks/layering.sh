#!/usr/bin/env bash
# Fails when a file includes Asio/Beast outside src/ (and the load generator) or libpqxx outside persistence/,
# or when a module includes a module it must not depend on (src -> session -> matching; src -> dav -> matching;
# session, dav, src -> persistence: the two protocol front ends know nothing of each other).
set -uo pipefail
root=${1:-.}
cd "$root" || exit 1
status=0
sources() { git ls-files -- "$1" | grep -E '\.(cpp|hpp|h|cc)$'; }

bad=$(sources . | grep -vE '^(src|loadtest)/' | xargs -r grep -lE '#include *[<"]boost/(asio|beast)' || true)
[ -n "$bad" ] && { echo "Asio/Beast included outside src/: $bad"; status=1; }
bad=$(sources . | grep -v '^persistence/' | xargs -r grep -lE '#include *[<"]pqxx' || true)
[ -n "$bad" ] && { echo "libpqxx included outside persistence/: $bad"; status=1; }
# Public headers of persistence stay free of pqxx; only detail/ may include it.
bad=$(sources persistence | grep -E '\.hpp$' | grep -v '^persistence/detail/' | xargs -r grep -lE '#include *[<"]pqxx' || true)
[ -n "$bad" ] && { echo "libpqxx in a public persistence header: $bad"; status=1; }

forbid() {  # forbid MODULE INCLUDED_MODULE...
    local module=$1; shift
    for other in "$@"; do
        bad=$(sources "$module" | xargs -r grep -lE "#include *\"$other/" || true)
        [ -n "$bad" ] && { echo "$module/ must not include $other/: $bad"; status=1; }
    done
}
forbid matching session dav persistence src
forbid persistence session dav matching src
forbid session dav src
forbid dav session src
[ $status -eq 0 ] && echo "layering ok"
exit $status
