# Sourced by integration scripts: pass/fail/check counting into $failures, free_port, status_of.
failures=0
pass() { echo "ok: $1"; }
fail() { echo "FAIL: $1"; failures=$((failures + 1)); }
check() {  # check DESCRIPTION COMMAND...
    local what=$1
    shift
    if "$@"; then pass "$what"; else fail "$what"; fi
}
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
status_of() { "$@" >/dev/null 2>&1; echo $?; }  # the exit status of COMMAND... (output dropped)
# json_field JSON EXPRESSION: repr() of a Python expression over the parsed JSON `j`.
json_field() { python3 -c "import json, sys; j = json.loads(sys.argv[1]); print(repr(($2)))" "$1"; }
