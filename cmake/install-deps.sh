#!/usr/bin/env bash
# Installs the Debian 12 packages the project needs (build, run, test); a no-op when all are present.
# Usage: install-deps.sh run|test
set -euo pipefail
what=${1:-test}

build_packages=(cmake g++ make pkg-config libboost-dev libssl-dev libpqxx-dev libpq-dev libspdlog-dev libfmt-dev
    prometheus-cpp-dev libexpat1-dev zlib1g-dev libical-dev libicu-dev tzdata postgresql-15 postgresql-client-15
    ca-certificates)
test_packages=(libgtest-dev libgmock-dev libbenchmark-dev clang libclang-rt-14-dev lld clang-format libwbxml2-dev
    libwbxml2-utils syncevolution syncevolution-http python3 python3-twisted haproxy curl wrk prometheus
    procps psmisc iproute2 gcc yamllint python3-yaml postgresql-contrib pgbouncer vdirsyncer radicale
    postgresql-server-dev-15 build-essential liblz4-dev libzstd-dev libkrb5-dev libsynthesis-dev
    kannel kannel-extras python3-pytest python3-lxml python3-requests python3-icalendar python3-vobject
    python3-recurring-ical-events python3-tzlocal python3-six chromium chromium-driver python3-selenium)
# The line from postgresql-server-dev-15 builds Citus from ../shared/vendor/citus for tests/integration/citus.sh
# (tests/citus-cluster.sh);
# libsynthesis-dev decodes our push notifications in push/'s tests; Kannel and its fake SMSC carry them in
# tests/integration/push_kannel.sh; the python3-* packages from python3-pytest on run python-caldav's functional suite
# (../shared/vendor/python-caldav) in tests/integration/caldav_suite.sh. Chromium, its driver and Selenium (for
# Debian's /usr/bin/python3) drive the admin web page in tests/integration/admin_web.sh.

packages=("${build_packages[@]}")
[ "$what" = test ] && packages+=("${test_packages[@]}")

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "installing: ${missing[*]}" >&2
sudo_cmd=()
[ "$(id -u)" = 0 ] || sudo_cmd=(sudo)
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
# The Debian postgresql package starts a system cluster on 5432; the project manages its own.
if command -v pg_lsclusters >/dev/null && pg_lsclusters -h 2>/dev/null | grep -q '^15 main'; then
    "${sudo_cmd[@]}" pg_ctlcluster 15 main stop 2>/dev/null || true
fi
# The Debian kannel package starts a system gateway where it can; the tests start their own.
if [ -x /etc/init.d/kannel ] && pgrep -x bearerbox >/dev/null; then
    "${sudo_cmd[@]}" /etc/init.d/kannel stop >/dev/null 2>&1 || true
fi
