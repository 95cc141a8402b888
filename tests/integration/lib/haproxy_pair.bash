# Sourced by tests/integration/haproxy_*.sh: two `syncml-server serve` instances on the test database behind
# haproxy, balancing every request round-robin with no stickiness (one request per server connection, so the
# requests of one client keep-alive connection alternate too). Health checks on /readyz take a dead instance
# out; a request that hit it is retried on the other one (retry-on + redispatch).
# Needs SYNCML_BUILD_DIR, SYNCML_TEST_DATABASE_URL, SYNCML_SOURCE_DIR. Sets server, interop, work, hp_url,
# pids in pair_pid[a|b], metrics ports in pair_metrics[a|b].

: "${SYNCML_BUILD_DIR:?}" "${SYNCML_TEST_DATABASE_URL:?}" "${SYNCML_SOURCE_DIR:?}"
server=$SYNCML_BUILD_DIR/src/syncml-server
interop=${SYNCML_INTEROP_DIR:-$SYNCML_SOURCE_DIR/../shared/interop}
# shellcheck source=wait.bash
source "$(dirname "${BASH_SOURCE[0]}")/wait.bash"
declare -A pair_pid pair_port pair_metrics
haproxy_pid=""

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

pair_cleanup() {
    local p
    for p in "${pair_pid[@]}" $haproxy_pid; do
        kill "$p" 2> /dev/null && wait "$p" 2> /dev/null
    done
    echo "logs: $work"
}

# start_instance NAME: one server on free ports, waits for /readyz.
start_instance() {
    local name=$1 port metrics
    port=$(free_port)
    metrics=$(free_port)
    SYNCML_LISTEN=127.0.0.1:$port SYNCML_METRICS_LISTEN=127.0.0.1:$metrics "$server" serve > "$work/server-$name.log" 2>&1 &
    pair_pid[$name]=$!
    pair_port[$name]=$port
    pair_metrics[$name]=$metrics
    wait_for_url "http://127.0.0.1:$metrics/readyz" "${pair_pid[$name]}" && return 0
    echo "instance $name not ready"; tail -20 "$work/server-$name.log"
    return 1
}

# start_haproxy: haproxy on hp_port in front of instances a and b; sets hp_url.
start_haproxy() {
    local port=$hp_port
    cat > "$work/haproxy.cfg" << CFG
global
    maxconn 200
    # L7 retries replay the request from haproxy's buffer: it must hold a whole SyncML message.
    tune.bufsize 262144
defaults
    mode http
    timeout connect 2s
    timeout client 180s
    timeout server 180s
    timeout check 2s
    retries 3
    option redispatch 1
    retry-on conn-failure empty-response response-timeout
    option http-buffer-request
frontend syncml
    bind 127.0.0.1:$port
    option forwardfor
    default_backend servers
backend servers
    balance roundrobin
    http-reuse never
    option http-server-close
    option httpchk GET /readyz
    # A killed instance refuses connections at once (retried elsewhere); the check then takes it out.
    default-server check inter 300ms fall 2 rise 2
    server a 127.0.0.1:${pair_port[a]} port ${pair_metrics[a]}
    server b 127.0.0.1:${pair_port[b]} port ${pair_metrics[b]}
CFG
    haproxy -f "$work/haproxy.cfg" -db > "$work/haproxy.log" 2>&1 &
    haproxy_pid=$!
    hp_url=http://127.0.0.1:$port
    wait_for_port "$port" "$haproxy_pid" && return 0
    echo "haproxy did not start:"; cat "$work/haproxy.log"
    return 1
}

# sync_requests NAME: POST /sync requests the instance answered (its own counter on /metrics).
sync_requests() {
    curl -sf "http://127.0.0.1:${pair_metrics[$1]}/metrics" 2> /dev/null |
        awk '/^syncml_http_requests_total\{/ && /route="sync"/ { n += $2 } END { printf "%d\n", n }'
}

start_pair() {
    export SYNCML_DATABASE_URL=$SYNCML_TEST_DATABASE_URL SYNCML_LOG_LEVEL=${SYNCML_LOG_LEVEL:-warn}
    # RespURIs name haproxy, not the instance that answered, so a phone's next message is balanced too; the
    # instances learn the phone's address from haproxy's X-Forwarded-For.
    hp_port=$(free_port)
    export SYNCML_PUBLIC_URL=http://127.0.0.1:$hp_port SYNCML_TRUSTED_PROXIES=127.0.0.1
    "$server" migrate > /dev/null
    start_instance a && start_instance b && start_haproxy
}
