"""Issue 35, the Internet edge: a connection flood from one address, silent and dribbling headers, bodies announced and
never sent, over-long identifiers, tenant names probed, and the admin API reached by another Host or a form post.

hostile_input.sh runs the server with a small per-address cap, header timeout and body budget (HOSTILE_PER_ADDRESS,
HOSTILE_HEADER_TIMEOUT, HOSTILE_BODY_BUDGET) and the admin listener on HOSTILE_ADMIN_BASE."""

import http.client
import os
import socket
import time
import urllib.parse

import syncml_client as sc
from syncml_phone import Phone

ATTACKER_IP = "127.0.0.2"
BYSTANDER_IP = "127.0.0.3"
NO_PASSWORDS_TENANT = "h-edge-md5"  # DAV on, basic auth off (set by the unknown-tenant case)


def _address(base):
    u = urllib.parse.urlsplit(base)
    return u.hostname, u.port


def _connect(base, source_ip, timeout=5):
    s = socket.create_connection(_address(base), timeout=timeout, source_address=(source_ip, 0))
    s.settimeout(timeout)
    return s


def _closed_by_server(s, within):
    """True when the server closes (or resets) the socket within `within` seconds without answering."""
    s.settimeout(within)
    try:
        return s.recv(1) == b""
    except ConnectionResetError:
        return True
    except socket.timeout:
        return False


def _request(base, method, path, headers=None, body=None, source_ip="127.0.0.1"):
    host, port = _address(base)
    conn = http.client.HTTPConnection(host, port, timeout=10, source_address=(source_ip, 0))
    try:
        conn.request(method, path, body=body, headers=headers or {})
        resp = conn.getresponse()
        return resp.status, {k.lower(): v for k, v in resp.getheaders()}, resp.read()
    finally:
        conn.close()


def _metric(ctx, name):
    _, _, body = _request(os.environ["HOSTILE_METRICS_BASE"], "GET", "/metrics")
    for line in body.decode().splitlines():
        if line.startswith(name + " ") or line.startswith(name + "{"):
            return float(line.rsplit(" ", 1)[1])
    return 0.0


def flood(ctx):
    """One address opens twice its cap of idle sockets: the extra ones are closed at once, another client's sync and
    /healthz on both listeners are still served."""
    name = "edge-flood"
    cap = int(os.environ["HOSTILE_PER_ADDRESS"])
    metric = 'syncml_http_connections_refused_per_address_total{listener="sync"}'
    before = _metric(ctx, metric)
    held = []
    try:
        for _ in range(cap):
            held.append(_connect(ctx.base, ATTACKER_IP))
        time.sleep(0.3)  # the server has registered them
        extra = [_connect(ctx.base, ATTACKER_IP) for _ in range(cap)]
        closed = sum(1 for s in extra if _closed_by_server(s, 1))
        for s in extra:
            s.close()
        ctx.check(name + ": connections beyond the per-address cap are closed at once", closed == cap,
                  "%d of %d closed" % (closed, cap))
        status, _, _ = _request(ctx.base, "GET", "/healthz", source_ip=BYSTANDER_IP)
        ctx.check(name + ": another client's /healthz on the SyncML port is served", status == 200, str(status))
        status, _, _ = _request(os.environ["HOSTILE_METRICS_BASE"], "GET", "/healthz")
        ctx.check(name + ": /healthz on the metrics port is served", status == 200, str(status))
        phone = Phone(ctx.base, "h-lo", "alice", "pw", "IMEI:EDGE-FLOOD", source_ip=BYSTANDER_IP)
        first = phone.start(201)
        ctx.check(name + ": another client's sync logs in", first.header_status() == "212", first.describe())
        ctx.check(name + ": the refusals are counted", _metric(ctx, metric) - before >= cap,
                  "%s went from %s to %s" % (metric, before, _metric(ctx, metric)))
    finally:
        for s in held:
            s.close()


def slow_header(ctx):
    """A connection that sends nothing, and one that dribbles its header, are closed after the header timeout."""
    name = "edge-slow-header"
    timeout = float(os.environ["HOSTILE_HEADER_TIMEOUT"])
    silent = _connect(ctx.base, ATTACKER_IP)
    start = time.monotonic()
    closed = _closed_by_server(silent, timeout + 3)
    waited = time.monotonic() - start
    ctx.check(name + ": a silent connection is closed within the header timeout", closed and waited < timeout + 2,
              "closed %s after %.1f s" % (closed, waited))
    silent.close()
    dribbler = _connect(ctx.base, ATTACKER_IP)
    start = time.monotonic()
    closed = False
    for byte in b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 200:
        try:
            dribbler.send(bytes([byte]))
        except OSError:
            closed = True
            break
        if _closed_by_server(dribbler, 0.5):
            closed = True
            break
        if time.monotonic() - start > timeout + 5:
            break
    dribbler.close()
    ctx.check(name + ": a dribbled header is cut off within the header timeout",
              closed and time.monotonic() - start < timeout + 2, "%.1f s, closed %s" % (time.monotonic() - start,
                                                                                      closed))


def _announce(base, source_ip, length):
    s = _connect(base, source_ip)
    s.sendall(("POST /sync/h-lo HTTP/1.1\r\nHost: x\r\nContent-Type: application/vnd.syncml+xml\r\n"
               "Content-Length: %d\r\n\r\n" % length).encode() + b"<" * 1024)
    return s


def body_budget(ctx):
    """Bodies announced and never sent hold the budget; the next one that does not fit is 503 with Retry-After
    before it is read, and once they are gone a normal sync works."""
    name = "edge-body-budget"
    budget = int(os.environ["HOSTILE_BODY_BUDGET"])
    announced = ctx.body_limit
    held = []
    try:
        for _ in range(budget // announced):
            held.append(_announce(ctx.base, ATTACKER_IP, announced))
        time.sleep(0.3)
        status, headers, _ = _request(ctx.base, "POST", "/sync/h-lo",
                                      {"Content-Type": sc.XML_TYPE, "Content-Length": str(announced)},
                                      body=None, source_ip=BYSTANDER_IP)
        ctx.check(name + ": a body beyond the budget is 503 with Retry-After", status == 503 and
                  "retry-after" in headers, "HTTP %s %s" % (status, headers))
    finally:
        for s in held:
            s.close()
    time.sleep(0.3)
    phone = Phone(ctx.base, "h-lo", "alice", "pw", "IMEI:EDGE-BUDGET", source_ip=BYSTANDER_IP)
    first = phone.start(201)
    ctx.check(name + ": the budget is given back when the bodies' connections end", first.header_status() == "212",
              first.describe())


def _dav_on(ctx):
    """h-lo serves DAV: its answers are compared, and a tenant without DAV never gets to the login."""
    ctx.psql("UPDATE tenants SET dav_enabled = true WHERE name = 'h-lo'")


def long_ids(ctx):
    """3000-byte device id, SessionID and user name: SyncML 400 in the SyncHdr Status, never a 503."""
    name = "edge-long-ids"
    url = ctx.base + "/sync/h-lo"
    # Not one repeated letter: PostgreSQL compresses that below its index row limit, random text it cannot.
    long = os.urandom(1500).hex()
    cases = [("device id", sc.message(1, 1, long, url, [sc.alert(1, 201, "contacts")], sc.basic_cred("alice", "pw"))),
             ("SessionID", sc.message(long, 1, "IMEI:EDGE-LONG", url, [sc.alert(1, 201, "contacts")],
                                      sc.basic_cred("alice", "pw"))),
             ("user name", sc.message(1, 1, "IMEI:EDGE-LONG", url, [sc.alert(1, 201, "contacts")],
                                      sc.basic_cred(long, "pw")))]
    _dav_on(ctx)
    for what, body in cases:
        reply = sc.post(url, body, source_ip=ATTACKER_IP)
        ctx.check("%s: a 3000-byte %s is SyncML 400" % (name, what),
                  reply.http_status == 200 and reply.header_status() == "400", reply.describe())
    status, _, _ = _request(ctx.base, "PROPFIND", "/dav/h-lo/",
                            {"Depth": "0", "Authorization": "Basic " + sc.b64(long + ":pw")}, source_ip=ATTACKER_IP)
    ctx.check(name + ": a 3000-byte DAV user name is 400", status == 400, "HTTP %s" % status)


def _same_but_name(known, unknown, known_name, unknown_name):
    return known == unknown.replace(unknown_name.encode() if isinstance(unknown, bytes) else unknown_name,
                                    known_name.encode() if isinstance(unknown, bytes) else known_name)


def unknown_tenant(ctx):
    """An unknown tenant answers exactly as a known one answers missing or wrong credentials."""
    name = "edge-unknown-tenant"
    _dav_on(ctx)
    target = "http://sync.example/sync"  # the same Target in both, so the replies may be byte for byte the same
    device = "IMEI:EDGE-PROBE-%d" % os.getpid()  # a device of its own each run: no failed-login limit is reached
    for what, cred in (("no credentials", ""), ("wrong credentials", sc.basic_cred("alice", "wrong"))):
        body = sc.message(1, 1, device, target, [sc.alert(1, 201, "contacts")], cred)
        known = sc.post(ctx.base + "/sync/h-lo", body, source_ip=ATTACKER_IP)
        unknown = sc.post(ctx.base + "/sync/nosuch-tenant", body, source_ip=ATTACKER_IP)
        ctx.check("%s: SyncML, %s: the same answer" % (name, what),
                  (known.http_status, known.headers, known.body) == (unknown.http_status, unknown.headers,
                                                                     unknown.body),
                  "known %s / unknown %s" % (known.describe(), unknown.describe()))
    # A DAV tenant that takes no passwords must not stand out either (it answered 403).
    ctx.psql("UPDATE tenants SET dav_enabled = true, auth_basic = false, auth_md5 = true WHERE name = '%s'"
             % NO_PASSWORDS_TENANT)
    for known_tenant in ("h-lo", NO_PASSWORDS_TENANT):
        for what, headers in (("no credentials", {}), ("wrong credentials",
                                                       {"Authorization": "Basic " + sc.b64("alice:wrong")})):
            headers = dict(headers, Depth="0")
            known = _request(ctx.base, "PROPFIND", "/dav/%s/" % known_tenant, headers, source_ip=ATTACKER_IP)
            unknown = _request(ctx.base, "PROPFIND", "/dav/nosuch-tenant/", headers, source_ip=ATTACKER_IP)
            same = known[0] == unknown[0] == 401 and known[2] == unknown[2] and \
                set(known[1]) == set(unknown[1]) and \
                _same_but_name(known[1].get("www-authenticate", ""), unknown[1].get("www-authenticate", ""),
                               known_tenant, "nosuch-tenant")
            ctx.check("%s: DAV, %s, against %s: the same 401 and challenge" % (name, what, known_tenant), same,
                      "known %s / unknown %s" % (known[:2], unknown[:2]))


def admin_checks(ctx):
    """The admin API refuses another Host (DNS rebinding) and a write that is not JSON (a cross-site form)."""
    name = "edge-admin"
    base = os.environ["HOSTILE_ADMIN_BASE"]
    _, port = _address(base)
    status, _, _ = _request(base, "POST", "/admin/v1/tenants",
                            {"Host": "rebound.example:%d" % port, "Content-Type": "application/json"}, body=b"{}")
    ctx.check(name + ": another Host is 421", status == 421, "HTTP %s" % status)
    status, _, _ = _request(base, "POST", "/admin/v1/tenants", {"Content-Type": "text/plain"}, body=b'{"name":"x"}')
    ctx.check(name + ": a text/plain write is 415", status == 415, "HTTP %s" % status)
    status, _, _ = _request(base, "POST", "/admin/v1/tenants", {"Content-Type": "application/json"},
                            body=b'{"name":"x"}')
    ctx.check(name + ": a JSON write from loopback goes on to the token check (401)", status == 401, "HTTP %s" % status)


def _raw_exchange(base, request, source_ip):
    """Sends `request` bytes; returns (the answer's bytes, whether the server closed the connection after it)."""
    s = _connect(base, source_ip)
    try:
        s.sendall(request)
        answer = b""
        while b"\r\n\r\n" not in answer:
            chunk = s.recv(65536)
            if not chunk:
                return answer, True
            answer += chunk
        head, _, body = answer.partition(b"\r\n\r\n")
        length = 0
        for line in head.split(b"\r\n")[1:]:
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value)
        while len(body) < length:
            chunk = s.recv(65536)
            if not chunk:
                break
            body += chunk
        return head + b"\r\n\r\n" + body, _closed_by_server(s, 3)
    finally:
        s.close()


def request_forms(ctx):
    """Request heads spelled another legal way (issue 38): an absolute-form target is served like its path, and
    "Connection: keep-alive, close" closes the connection in HTTP/1.0 and 1.1; a DAV login "alice@h-lo" at the
    default tenant's context path (where /.well-known leads) lands in h-lo."""
    name = "edge-request-forms"
    _dav_on(ctx)
    host, port = _address(ctx.base)
    auth = "Authorization: Basic %s\r\n" % sc.b64("alice:pw")
    request = ("PROPFIND http://%s:%d/dav/h-lo/ HTTP/1.1\r\nHost: %s:%d\r\nDepth: 0\r\n%sContent-Length: 0\r\n\r\n"
               % (host, port, host, port, auth)).encode()
    answer, _ = _raw_exchange(ctx.base, request, "127.0.0.4")
    ctx.check(name + ": an absolute-form target is served", answer.startswith(b"HTTP/1.1 207"), answer[:200])
    for version in ("1.0", "1.1"):
        request = ("GET /readyz HTTP/%s\r\nHost: %s:%d\r\nConnection: keep-alive, close\r\n\r\n"
                   % (version, host, port)).encode()
        answer, closed = _raw_exchange(ctx.base, request, "127.0.0.4")
        ctx.check("%s: HTTP/%s, Connection: keep-alive, close: answered, then closed" % (name, version),
                  answer.startswith(b"HTTP/1.") and closed, "%r closed=%s" % (answer[:80], closed))
    headers = {"Depth": "0", "Authorization": "Basic " + sc.b64("alice@h-lo:pw"), "Content-Type": "application/xml"}
    principal = b'<propfind xmlns="DAV:"><prop><current-user-principal/></prop></propfind>'
    status, _, body = _request(ctx.base, "PROPFIND", "/dav/default/", headers, principal, source_ip="127.0.0.4")
    ctx.check(name + ": alice@h-lo at the default context path is led into h-lo",
              status == 207 and b"/dav/h-lo/principals/alice/" in body, "HTTP %s %r" % (status, body[:300]))
    status, _, body = _request(ctx.base, "PROPFIND", "/dav/h-lo/principals/alice/", headers, source_ip="127.0.0.4")
    ctx.check(name + ": alice@h-lo is alice at h-lo's own URLs", status == 207, "HTTP %s %r" % (status, body[:200]))


CASES = [("edge-flood", flood), ("edge-slow-header", slow_header), ("edge-body-budget", body_budget),
         ("edge-long-ids", long_ids), ("edge-unknown-tenant", unknown_tenant), ("edge-admin", admin_checks),
         ("edge-request-forms", request_forms)]
