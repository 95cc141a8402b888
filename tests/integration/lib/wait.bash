# Sourced by test scripts: waiting for a process to be ready while it lives, never for a fixed time, so that a slow
# or busy machine makes a test slower, not failed. Bounded (10 minutes) only so that a hung start cannot stall a run.
# wait_for_port PORT PID: until 127.0.0.1:PORT accepts a connection; 1 when PID ended first or the bound passed.
wait_for_port() {
    local deadline=$((SECONDS + 600))
    until (exec 3<> "/dev/tcp/127.0.0.1/$1") 2> /dev/null; do
        kill -0 "$2" 2> /dev/null && [ $SECONDS -lt $deadline ] || return 1
        sleep 0.1
    done
}
# wait_for_url URL PID: until URL answers 2xx; 1 when PID ended first or the bound passed.
wait_for_url() {
    local deadline=$((SECONDS + 600))
    until curl -sf "$1" > /dev/null 2>&1; do
        kill -0 "$2" 2> /dev/null && [ $SECONDS -lt $deadline ] || return 1
        sleep 0.1
    done
}
