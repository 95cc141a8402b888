#!/usr/bin/env bash
# Metrics contract: every metric name that the Grafana dashboard (deploy/grafana/syncml-dashboard.json) or the
# alert rules (deploy/prometheus/alerts.yaml) use must exist in a real /metrics scrape, so a renamed metric
# cannot silently turn a panel into "no data" or an alert into one that never fires.
# Starts the real server on the test database (admin API on, per-tenant gauges every second), scrapes /metrics
# before any request and requires every counter family to have series and the label sets known in advance to be 0
# (a fresh instance shows zeros, not "no data"); then creates a user, runs ONE slow sync of a few contacts with the
# SyncEvolution client (../shared/interop) and one DAV request, requires the per-tenant gauges to count the user,
# scrapes /metrics and compares the names the dashboard and alerts use (deploy/tools/metric_names.py).
# Environment: SYNCML_BUILD_DIR, SYNCML_TEST_DATABASE_URL, SYNCML_SOURCE_DIR, SYNCML_TEST_WORK_DIR (optional),
# SYNCML_INTEROP_DIR (optional, default $SYNCML_SOURCE_DIR/../shared/interop). Exit 0 = contract holds.
set -uo pipefail
source_dir=${SYNCML_SOURCE_DIR:?SYNCML_SOURCE_DIR not set}
server=${SYNCML_BUILD_DIR:?SYNCML_BUILD_DIR not set}/src/syncml-server
database_url=${SYNCML_TEST_DATABASE_URL:?SYNCML_TEST_DATABASE_URL not set}
interop=${SYNCML_INTEROP_DIR:-$source_dir/../shared/interop}
work=${SYNCML_TEST_WORK_DIR:-$(mktemp -d /tmp/metrics-contract.XXXXXX)}
mkdir -p "$work"
[ -x "$server" ] || { echo "FAIL: no server binary at $server"; exit 1; }

python=python3
python3 -c 'import yaml' 2>/dev/null || python=/usr/bin/python3

free_port() { "$python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
sync_port=$(free_port)
metrics_port=$(free_port)
while [ "$metrics_port" = "$sync_port" ]; do metrics_port=$(free_port); done
admin_port=$(free_port)
while [ "$admin_port" = "$sync_port" ] || [ "$admin_port" = "$metrics_port" ]; do admin_port=$(free_port); done

export SYNCML_DATABASE_URL=$database_url SYNCML_DATA_DIR=$work/data SYNCML_LOG_LEVEL=info
export SYNCML_LISTEN=127.0.0.1:$sync_port SYNCML_METRICS_LISTEN=127.0.0.1:$metrics_port
# The admin API's counter is used by an alert; the tenant gauges are checked after the sync.
export SYNCML_ADMIN_LISTEN=127.0.0.1:$admin_port SYNCML_TENANT_METRICS_INTERVAL=1s

server_pid=""
stop_server() {
    [ -n "$server_pid" ] || return 0
    kill -TERM "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
    server_pid=""
}
trap stop_server EXIT

echo "== starting $server (sync :$sync_port, metrics :$metrics_port)"
"$server" serve >"$work/server.log" 2>&1 &
server_pid=$!
ready=0
for _ in $(seq 1 120); do
    if curl -fsS "http://127.0.0.1:$metrics_port/readyz" >/dev/null 2>&1; then ready=1; break; fi
    kill -0 "$server_pid" 2>/dev/null || break
    sleep 0.5
done
if [ $ready -ne 1 ]; then
    echo "FAIL: server not ready within 60 s"; tail -40 "$work/server.log"; exit 1
fi

echo "== a fresh instance: every counter has series, those known in advance at 0"
curl -fsS "http://127.0.0.1:$metrics_port/metrics" -o "$work/fresh.txt" || { echo "FAIL: cannot scrape /metrics"; exit 1; }
zero=()
for series in \
    'syncml_http_requests_total{route="sync",status="200"}' 'syncml_http_requests_total{route="sync",status="500"}' \
    'syncml_http_requests_total{route="dav",status="200"}' 'syncml_http_requests_total{route="dav",status="500"}' \
    'syncml_http_requests_total{route="dav",status="503"}' 'syncml_http_request_duration_seconds_count{route="dav"}' \
    'syncml_dav_requests_total{method="PROPFIND",outcome="read",status="207"}' \
    'syncml_dav_requests_total{method="PUT",outcome="error",status="500"}' \
    'syncml_dav_requests_total{method="GET",outcome="unauthorized",status="401"}' \
    'syncml_messages_total{result="ok"}' 'syncml_messages_total{result="bad_request"}' \
    'syncml_sessions_total{mode="slow"}' 'syncml_items_total{direction="from_client",operation="add"}' \
    'syncml_statuses_total{code="401"}' 'syncml_statuses_total{code="500"}' 'syncml_auth_failures_total' \
    'syncml_admin_requests_total{method="GET",route="/admin/v1/tenants",status="401"}' \
    'syncml_janitor_runs_total{result="failed"}' 'syncml_limit_refusals_total{limit="sessions"}' \
    'syncml_push_failed_total{transport="sms"}'; do
    zero+=(--zero "$series")
done
if ! "$python" "$source_dir/deploy/tools/metric_names.py" fresh --scrape "$work/fresh.txt" "${zero[@]}"; then
    echo "FAIL: a fresh instance lacks counters at 0 (see FRESH above)"; exit 1
fi
echo "fresh instance ok"

user=metrics-user
password=metrics-pass
if ! "$server" admin user add --tenant default --user "$user" --password "$password" >"$work/admin.log" 2>&1; then
    echo "FAIL: admin user add"; cat "$work/admin.log"; exit 1
fi

echo "== one slow sync with the SyncEvolution client"
phone=$work/phone
rm -rf "$phone"
sync_status=0
"$python" "$interop/gen-contacts.py" gen --kind contacts --format vcard30 --count 5 --seed 7 \
    --out "$phone/data/contacts" >"$work/client.log" 2>&1 &&
    bash "$interop/client.sh" setup --home "$phone" --url "http://127.0.0.1:$sync_port/sync" --user "$user" \
        --password "$password" --device-id metrics-contract-phone --kind contacts --format vcard30 \
        --timeout 60 >>"$work/client.log" 2>&1 &&
    bash "$interop/client.sh" sync --home "$phone" --mode slow >>"$work/client.log" 2>&1 || sync_status=$?
if [ $sync_status -ne 0 ]; then
    echo "SYNC FAILED (exit $sync_status): the engine does not complete a slow sync yet; metrics of a"
    echo "successful session may be missing below. Client output (tail):"
    tail -25 "$work/client.log" | sed 's/^/  /'
    echo "Server log (tail):"
    tail -15 "$work/server.log" | sed 's/^/  /'
else
    echo "sync ok"
fi

echo "== one CardDAV request (the DAV panels read its counter)"
"$server" admin tenant set default --dav on >>"$work/admin.log" 2>&1 || { echo "FAIL: tenant set --dav on"; exit 1; }
curl -s -o /dev/null -u "$user:$password" -X PROPFIND -H 'Depth: 0' "http://127.0.0.1:$sync_port/dav/default/" ||
    { echo "FAIL: PROPFIND /dav/default/"; exit 1; }

echo "== the per-tenant gauges count the user, the phone and the synced contacts (SYNCML_TENANT_METRICS_INTERVAL=1s)"
tenant_figures=""
for _ in $(seq 1 20); do
    tenant_figures=$(curl -fsS "http://127.0.0.1:$metrics_port/metrics" |
        sed -n 's/^syncml_tenant_\(users\|devices\|active_devices\|stored_bytes\){tenant="default"} /\1=/p' | tr '\n' ' ')
    echo "$tenant_figures" | grep -Eq '^users=1 devices=1 active_devices=1 stored_bytes=[1-9][0-9]* $' && break
    sleep 0.5
done
echo "$tenant_figures" | grep -Eq '^users=1 devices=1 active_devices=1 stored_bytes=[1-9][0-9]* $' ||
    { echo "FAIL: tenant default's gauges are '$tenant_figures', expected 1 user, 1 device active, stored bytes"; exit 1; }
echo "tenant gauges ok: $tenant_figures"

echo "== scrape /metrics"
if ! curl -fsS "http://127.0.0.1:$metrics_port/metrics" -o "$work/metrics.txt"; then
    echo "FAIL: cannot scrape /metrics"; exit 1
fi
if command -v promtool >/dev/null && ! promtool check metrics <"$work/metrics.txt" >"$work/promtool.log" 2>&1; then
    echo "note: promtool check metrics complains:"; sed 's/^/  /' "$work/promtool.log" | head -20
fi

echo "== metric names used by the dashboard and the alert rules"
"$python" "$source_dir/deploy/tools/metric_names.py" check \
    --dashboard "$source_dir/deploy/grafana/syncml-dashboard.json" \
    --rules "$source_dir/deploy/prometheus/alerts.yaml" --scrape "$work/metrics.txt"
contract_status=$?

stop_server
if [ $contract_status -ne 0 ]; then
    echo "FAIL: the dashboard or the alerts use metric names the server does not export (see MISSING above)"
    exit 1
fi
if [ $sync_status -ne 0 ]; then
    echo "FAIL: the metric names are all exported, but the sync itself failed"
    exit 1
fi
echo "PASS: metrics contract holds"
