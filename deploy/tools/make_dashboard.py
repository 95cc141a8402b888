#!/usr/bin/env python3
"""Writes deploy/grafana/syncml-dashboard.json (the provisioned Grafana dashboard).

  make_dashboard.py [OUT]      default: the dashboard file next to this repository's deploy/tools
  make_dashboard.py --check    exit 1 when the committed JSON differs from what this script generates

Generated so panels stay uniform and a renamed metric is changed in one place (METRICS below); the metrics
contract test (tests/integration/metrics_contract.sh) fails when a name used here is not exported.
"""

import json
import os
import sys

# Every server metric the dashboard reads, in one place.
METRICS = {
    "http_requests": "syncml_http_requests_total",
    "http_duration": "syncml_http_request_duration_seconds",
    "http_request_bytes": "syncml_http_request_bytes_total",
    "http_response_bytes": "syncml_http_response_bytes_total",
    "in_flight": "syncml_http_in_flight_requests",
    "queue_length": "syncml_worker_queue_length",
    "queue_wait": "syncml_worker_queue_wait_seconds",
    "db_errors": "syncml_db_errors_total",
    "build_info": "syncml_build_info",
    "sessions": "syncml_sessions_total",
    "messages": "syncml_messages_total",
    "items": "syncml_items_total",
    "session_duration": "syncml_session_duration_seconds",
    "message_duration": "syncml_message_duration_seconds",
    "slow_syncs": "syncml_slow_syncs_total",
    "auth_failures": "syncml_auth_failures_total",
    "conflicts": "syncml_conflicts_total",
    "dav_requests": "syncml_dav_requests_total",
    "statuses": "syncml_statuses_total",
    "ready": "syncml_ready",
    "janitor_runs": "syncml_janitor_runs_total",
    "janitor_removed": "syncml_janitor_removed_total",
    "limit_refusals": "syncml_limit_refusals_total",
    "tenant_users": "syncml_tenant_users",
    "tenant_devices": "syncml_tenant_devices",
    "tenant_active_devices": "syncml_tenant_active_devices",
    "tenant_stored_bytes": "syncml_tenant_stored_bytes",
    "tenant_live_sessions": "syncml_tenant_live_sessions",
    "tenant_max_sessions": "syncml_tenant_max_sessions",
    "tenant_users_near_quota": "syncml_tenant_users_near_quota",
    "rss": "process_resident_memory_bytes",
    "cpu": "process_cpu_seconds_total",
}
M = METRICS
SEL = 'job=~"$job", instance=~"$instance"'
# Every instance exports the same per-tenant figures: max by (tenant) picks one copy.
TENANT_SEL = 'job=~"$job", tenant=~"$tenant"'
DAV = 'route="dav"'
DAV_FAILURES = 'route="dav", status=~"5..", status!~"503|507"'
RATE = "$__rate_interval"
SYNC = 'route="sync"'
SYNC_ERRORS = 'route="sync", status=~"4..|5.."'
SYNC_503 = 'route="sync", status="503"'
ERROR_STATUS = 'code=~"[45].."'
ERROR_STATUS_HTTP = 'status=~"[45].."'
NOT_OK = 'result!="ok"'
TENANT_LIMITS = 'limit=~"sessions|user_bytes|devices_per_user|items_per_datastore"'
DATASOURCE = {"type": "prometheus", "uid": "${datasource}"}


def rate(metric, labels="", window=RATE):
    extra = f", {labels}" if labels else ""
    return f"rate({metric}{{{SEL}{extra}}}[{window}])"


def quantiles(histogram, by="", labels=""):
    group = f"le{', ' + by if by else ''}"
    suffix = f" {{{{{by}}}}}" if by else ""
    return [(f"histogram_quantile({q}, sum by ({group}) ({rate(histogram + '_bucket', labels)}))", f"p{int(q * 100)}{suffix}")
            for q in (0.5, 0.95, 0.99)]


class Board:
    def __init__(self):
        self.panels = []
        self.y = 0
        self.x = 0
        self.row_height = 0

    def row(self, title):
        self.newline()
        self.panels.append({"type": "row", "title": title, "collapsed": False, "id": len(self.panels) + 1,
                            "gridPos": {"h": 1, "w": 24, "x": 0, "y": self.y}, "panels": []})
        self.y += 1

    def newline(self):
        if self.x:
            self.y += self.row_height
            self.x, self.row_height = 0, 0

    def panel(self, title, targets, unit="short", kind="timeseries", width=8, height=8, description="", stack=False,
              transformations=None):
        if self.x + width > 24:
            self.newline()
        panel = {
            "id": len(self.panels) + 1,
            "type": kind,
            "title": title,
            "description": description,
            "datasource": DATASOURCE,
            "gridPos": {"h": height, "w": width, "x": self.x, "y": self.y},
            "fieldConfig": {"defaults": {"unit": unit}, "overrides": []},
            "targets": [{"refId": chr(ord("A") + i), "datasource": DATASOURCE, "expr": expr, "legendFormat": legend}
                        for i, (expr, legend) in enumerate(targets)],
        }
        if kind == "timeseries":
            panel["fieldConfig"]["defaults"]["custom"] = {"stacking": {"mode": "normal" if stack else "none"},
                                                          "fillOpacity": 20 if stack else 5}
            panel["options"] = {"legend": {"displayMode": "table", "placement": "bottom", "calcs": ["mean", "max"]},
                                "tooltip": {"mode": "multi", "sort": "desc"}}
        if kind == "table":
            for target in panel["targets"]:
                target.update({"format": "table", "instant": True})
        if transformations:
            panel["transformations"] = transformations
        self.panels.append(panel)
        self.x += width
        self.row_height = max(self.row_height, height)


def traffic(b):
    b.row("Traffic")
    b.panel("Synced datastores/s by mode", [(f"sum by (mode) ({rate(M['sessions'])})", "{{mode}}")],
            "reqps", stack=True, description="Datastores of completed sessions, by the sync mode the server granted.")
    b.panel("Messages/s by instance and result",
            [(f"sum by (instance, result) ({rate(M['messages'])})", "{{instance}} {{result}}")], "reqps", stack=True,
            description="SyncML messages handled; the spread over instances shows the balancer works.")
    b.panel("Items/s by operation and direction",
            [(f"sum by (operation, direction) ({rate(M['items'])})", "{{operation}} {{direction}}")], "ops",
            stack=True, description="Items received from (from_client) and sent to (to_client) devices.")
    b.panel("HTTP requests/s by route and status",
            [(f"sum by (route, status) ({rate(M['http_requests'])})", "{{route}} {{status}}")], "reqps", width=12)
    b.panel("HTTP body bytes/s", [(f"sum({rate(M['http_request_bytes'], SYNC)})", "received"),
                                  (f"sum({rate(M['http_response_bytes'], SYNC)})", "sent")], "Bps",
            width=12)


def latency(b):
    b.row("Latency")
    b.panel("SyncML request latency (HTTP, route sync)", quantiles(M["http_duration"], labels='route="sync"'), "s",
            description="Complete request head to response written; includes the worker queue wait.")
    b.panel("Message processing time", quantiles(M["message_duration"]), "s",
            description="One message in the engine: its database transaction, matching and encoding.")
    b.panel("Session duration", quantiles(M["session_duration"]), "s",
            description="First to last message of a session; slow syncs of large address books dominate p99.")


def quality(b):
    b.row("Sync quality and errors")
    b.panel("Slow syncs/s", [(f"sum({rate(M['slow_syncs'])})", "slow and refresh syncs"),
                             (f"sum({rate(M['sessions'])})", "all synced datastores")], "reqps",
            description="Slow syncs re-send every item: a storm after an upgrade or restore means lost anchors.")
    b.panel("Authentication failures/s", [(f"sum by (instance) ({rate(M['auth_failures'])})", "{{instance}}")],
            "reqps", stack=True, description="Wrong passwords or unknown users; a spike is a misconfigured fleet "
            "or credential stuffing.")
    b.panel("SyncML messages not ok/s by result",
            [(f"sum by (result) ({rate(M['messages'], NOT_OK)})", "{{result}}")], "reqps", stack=True,
            description="resend: client retried a message; auth_failed; bad_request: undecodable or invalid "
            "SyncML; unavailable: busy or database trouble.")
    b.panel("HTTP errors/s by code",
            [(f"sum by (status) ({rate(M['http_requests'], SYNC_ERRORS)})", "{{status}}")],
            "reqps", width=12, stack=True, description="503 = worker queue full (see Capacity); 500 = a bug.")
    b.panel("SyncML error statuses sent/s by code",
            [(f"sum by (code) ({rate(M['statuses'], ERROR_STATUS)})", "{{code}}")], "reqps", width=12, stack=True,
            description="Status codes 4xx/5xx the server answered to SyncML commands: 401/407 auth, 404 unknown "
            "datastore or item, 419/208/209 conflicts, 508 refresh required, 500 item errors.")
    b.panel("Conflicts/s by tenant policy and resolution",
            [(f"sum by (policy, resolution) ({rate(M['conflicts'])})", "{{policy}}: {{resolution}}")],
            "reqps", width=24, stack=True, description="An item changed on a device and on the server since that "
            "device's last sync. Each one is logged with tenant, user, device, datastore and guid.")


def dav(b):
    b.row("CardDAV / CalDAV")
    b.panel("DAV requests/s by method and outcome",
            [(f"sum by (method, outcome) ({rate(M['dav_requests'])})", "{{method}} {{outcome}}")], "reqps",
            stack=True, description="read: PROPFIND, GET, REPORT; write: PUT; delete: DELETE; refused: bad input, "
            "a failed precondition (412) or a limit; unauthorized: no or wrong credentials, throttled logins.")
    b.panel("DAV request latency (HTTP, route dav)", quantiles(M["http_duration"], labels='route="dav"'), "s",
            description="Complete request head to response written; includes authentication and the worker wait.")
    b.panel("DAV errors/s by code",
            [(f"sum by (status) ({rate(M['dav_requests'], ERROR_STATUS_HTTP)})", "{{status}}")], "reqps",
            stack=True, description="401 credentials, 404 unknown resource or DAV off for the tenant, 412 a "
            "client's stale ETag (normal under concurrent edits), 503 busy or database trouble, 500 a bug.")
    b.panel("DAV failure ratio (5xx other than 503 and 507)",
            [(f"sum({rate(M['http_requests'], DAV_FAILURES)}) / sum({rate(M['http_requests'], DAV)})", "failing")],
            "percentunit", width=12, description="What SyncmlDavHighErrorRate watches (it fires above 2%): every "
            "request of the DAV route at the HTTP layer, those refused before the handler included.")
    b.panel("DAV requests/s by status (HTTP layer)",
            [(f"sum by (status) ({rate(M['http_requests'], DAV)})", "{{status}}")], "reqps", width=12, stack=True,
            description="Including the 503s of a full worker queue or the tenant's worker share, which never reach "
            "the DAV handler and so are not in the DAV panels above.")


def tenant_figure(metric):
    return f"max by (tenant) ({metric}{{{TENANT_SEL}}})"


def tenants(b):
    b.row("Tenants")
    columns = [("users", "tenant_users"), ("devices", "tenant_devices"),
               ("active devices (1 h)", "tenant_active_devices"), ("stored bytes", "tenant_stored_bytes"),
               ("live sessions", "tenant_live_sessions"), ("session limit", "tenant_max_sessions"),
               ("users near quota", "tenant_users_near_quota")]
    b.panel("Tenants now", [(tenant_figure(M[metric]), name) for name, metric in columns], "short", kind="table",
            width=24, height=9, transformations=[
                {"id": "merge", "options": {}},
                {"id": "organize", "options": {"excludeByName": {"Time": True}, "renameByName": {
                    f"Value #{chr(ord('A') + i)}": name for i, (name, _) in enumerate(columns)}}}],
            description="The SYNCML_TENANT_METRICS_TOP tenants (those at a limit first, then the largest); the rest "
            "summed as _other. Counted by each instance every SYNCML_TENANT_METRICS_INTERVAL.")
    b.panel("Stored bytes by tenant", [(tenant_figure(M["tenant_stored_bytes"]), "{{tenant}}")], "bytes",
            description="Bytes of the tenants' live items, as the storage quota counts them.")
    b.panel("Devices syncing (last hour) by tenant", [(tenant_figure(M["tenant_active_devices"]), "{{tenant}}")],
            "short", description="Devices that started a SyncML session in the hour before each count.")
    b.panel("Live sessions by tenant (dashed: its limit)",
            [(tenant_figure(M["tenant_live_sessions"]), "{{tenant}}"),
             (tenant_figure(M["tenant_max_sessions"]), "{{tenant}} limit")], "short",
            description="SyncmlTenantAtSessionLimit fires at 90% of the limit for 10 minutes.")
    b.panel("Users near their quota by tenant", [(tenant_figure(M["tenant_users_near_quota"]), "{{tenant}}")],
            "short", width=12, description="Users at 90% or more of the tenant's --max-user-bytes.")
    b.panel("Refusals/s by tenant limit",
            [(f"sum by (limit) ({rate(M['limit_refusals'], TENANT_LIMITS)})", "{{limit}}")], "reqps", width=12,
            stack=True, description="Requests and items refused by a tenant limit (all tenants: the log lines name "
            "the tenant).")


def maintenance(b):
    b.row("Janitor")
    b.panel("Janitor passes by result", [(f"sum by (result) (increase({M['janitor_runs']}{{{SEL}}}[$__range]))",
                                          "{{result}}")], "short", kind="table", width=8,
            description="ran: one instance's pass; skipped: another held the lease; failed: see the logs.")
    b.panel("Rows removed/s by kind", [(f"sum by (what) ({rate(M['janitor_removed'])})", "{{what}}")], "ops",
            width=16, stack=True, description="What the janitor deletes: expired sessions, old counters, tombstones.")


def capacity(b):
    b.row("Capacity")
    b.panel("Worker queue length", [(f"max by (instance) ({M['queue_length']}{{{SEL}}})", "{{instance}}")], "short",
            description="Requests waiting for a database worker; above zero for long means every worker is busy.")
    b.panel("Worker queue wait", quantiles(M["queue_wait"]), "s",
            description="Time a request waited for a worker (a worker holds one PostgreSQL connection).")
    b.panel("Requests rejected for a full queue (503)",
            [(f"sum by (instance) ({rate(M['http_requests'], SYNC_503)})", "{{instance}}")],
            "reqps")
    b.panel("In-flight requests", [(f"sum by (instance) ({M['in_flight']}{{{SEL}}})", "{{instance}}")], "short")
    b.panel("Database errors/s", [(f"sum by (instance) ({rate(M['db_errors'])})", "{{instance}}")], "ops",
            description="Connection failures and failed transactions seen by workers.")
    b.panel("Instances up and ready", [(f'sum(up{{{SEL}}})', "up"), (f'count(up{{{SEL}}})', "scraped"),
                                       (f"sum({M['ready']}{{{SEL}}})", "ready (/readyz)")], "short",
            description="Ready = the instance reaches PostgreSQL with the expected schema (same check as /readyz).")


def instances(b):
    b.row("Instances")
    b.panel("Resident memory per instance", [(f"max by (instance) ({M['rss']}{{{SEL}}})", "{{instance}}")], "bytes",
            description="The server's own process_resident_memory_bytes (read from /proc at scrape time).")
    b.panel("CPU per instance", [(f"sum by (instance) ({rate(M['cpu'])})", "{{instance}}")],
            "percentunit", description="Cores used by the server process (process_cpu_seconds_total).")
    b.panel("Versions", [(f"count by (version) ({M['build_info']}{{{SEL}}})", "{{version}}")], "short",
            kind="table", description="Instances per build version: two rows during a rollout.")


def dashboard():
    b = Board()
    for section in (traffic, latency, quality, dav, tenants, capacity, maintenance, instances):
        section(b)
    variables = [
        {"name": "datasource", "type": "datasource", "query": "prometheus", "label": "Data source",
         "current": {}, "hide": 0},
        {"name": "job", "type": "query", "datasource": DATASOURCE, "label": "Job", "refresh": 2,
         "query": {"query": f"label_values({M['build_info']}, job)", "refId": "job"},
         "definition": f"label_values({M['build_info']}, job)", "includeAll": True, "multi": True,
         "allValue": ".+", "current": {}, "hide": 0, "sort": 1},
        {"name": "instance", "type": "query", "datasource": DATASOURCE, "label": "Instance", "refresh": 2,
         "query": {"query": f'label_values({M["build_info"]}{{job=~"$job"}}, instance)', "refId": "instance"},
         "definition": f'label_values({M["build_info"]}{{job=~"$job"}}, instance)', "includeAll": True,
         "multi": True, "allValue": ".+", "current": {}, "hide": 0, "sort": 1},
        {"name": "tenant", "type": "query", "datasource": DATASOURCE, "label": "Tenant", "refresh": 2,
         "query": {"query": f'label_values({M["tenant_users"]}{{job=~"$job"}}, tenant)', "refId": "tenant"},
         "definition": f'label_values({M["tenant_users"]}{{job=~"$job"}}, tenant)', "includeAll": True,
         "multi": True, "allValue": ".+", "current": {}, "hide": 0, "sort": 1},
    ]
    return {
        "uid": "syncml-server",
        "title": "SyncML server",
        "description": "Traffic, latency, sync quality, DAV, tenants, capacity, the janitor and resources of the SyncML "
                       "server fleet.",
        "tags": ["syncml"],
        "editable": False,
        "graphTooltip": 1,
        "schemaVersion": 39,
        "version": 1,
        "time": {"from": "now-6h", "to": "now"},
        "refresh": "30s",
        "timezone": "",
        "templating": {"list": variables},
        "annotations": {"list": []},
        "links": [],
        "panels": b.panels,
    }


def main(argv):
    default = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "grafana", "syncml-dashboard.json")
    text = json.dumps(dashboard(), indent=2) + "\n"
    if argv[1:2] == ["--check"]:
        path = argv[2] if len(argv) > 2 else default
        with open(path, encoding="utf-8") as f:
            if f.read() != text:
                print(f"{path} is not what deploy/tools/make_dashboard.py generates; run it")
                return 1
        return 0
    with open(argv[1] if len(argv) > 1 else default, "w", encoding="utf-8") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
