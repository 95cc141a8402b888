#!/usr/bin/env bash
# Fails when a file includes a folder its folder may not use (architecture/whiteboard.json, checked by layering.py:
# modules and the sub-folders inside them), Asio/Beast outside src/server/net.hpp and the load generator, or libpqxx
# outside persistence/ or in a public persistence header (only the detail/ folders may include it), or libsynthesis
# outside push/'s tests and test tools (an independent decoder of our notifications, never part of the product).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=${1:-.}
cd "$root" || exit 1
status=0
sources() { git ls-files -- "$1" | grep -E '\.(cpp|hpp|h|cc)$'; }

bad=$(sources . | grep -vE '^(src/server/net\.hpp|loadtest/)' | xargs -r grep -lE '#include *[<"]boost/(asio|beast)' || true)
[ -n "$bad" ] && { echo "Asio/Beast included outside src/server/net.hpp: $bad"; status=1; }
bad=$(sources . | grep -v '^persistence/' | xargs -r grep -lE '#include *[<"]pqxx' || true)
[ -n "$bad" ] && { echo "libpqxx included outside persistence/: $bad"; status=1; }
bad=$(sources persistence | grep -E '\.hpp$' | grep -v '/detail/' | xargs -r grep -lE '#include *[<"]pqxx' || true)
[ -n "$bad" ] && { echo "libpqxx in a public persistence header: $bad"; status=1; }
bad=$(sources . | grep -vE '^push/(.*_test\.cpp|tools/.*)$' | xargs -r grep -lE '#include *[<"]synthesis/' || true)
[ -n "$bad" ] && { echo "libsynthesis included outside push/'s tests and test tools: $bad"; status=1; }

python3 "$here/layering.py" . || status=1
[ $status -eq 0 ] && echo "layering ok"
exit $status
