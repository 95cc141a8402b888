#!/usr/bin/env bash
# The fault-injection suite of tests/fault/ (README there) in its quick mode: SyncEvolution phones through our
# fault proxy, cut at a message (request lost, reply lost, server killed), resuming and not, and refused statuses;
# every device and the server must converge. SYNCML_FAULT_FULL=1 runs every case (a benchmark-length run).
# Environment: SYNCML_BUILD_DIR, SYNCML_TEST_DATABASE_URL, SYNCML_SOURCE_DIR (as for every integration script).
set -uo pipefail
# Two cases at a time: CI has two cores, and each case runs a server and a SyncEvolution client.
export SYNCML_FAULT_JOBS=${SYNCML_FAULT_JOBS:-2}
exec bash "$(dirname "$0")/../fault/run.sh"
