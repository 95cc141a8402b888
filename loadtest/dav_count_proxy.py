#!/usr/bin/env python3
"""A small recording HTTP proxy for CardDAV/CalDAV clients, and the tools that read its log.

  dav_count_proxy.py serve --listen PORT --target http://127.0.0.1:PORT --log FILE [--body-bytes N]
      Forwards every request on 127.0.0.1:PORT to the target (one upstream connection per client connection,
      keep-alive on both sides) and appends one JSON line per exchange to FILE: time, method, path, the
      request headers that matter to DAV (Depth, If-Match, If-None-Match, Prefer, Content-Type, ...), the
      start of the request body, the status, the interesting response headers, bytes on the wire both ways
      (request line, headers and body as received; status line, headers and body as sent back) and seconds.
      The Host header is passed on unchanged, so absolute URLs the server builds point at the proxy.
  dav_count_proxy.py count FILE [--from LINE] [--to LINE]
      requests, bytes in (client -> server), bytes out (server -> client), seconds spent in the server:
      tab-separated, over lines FROM+1..TO of the log (line numbers as `wc -l` counts them).
  dav_count_proxy.py methods FILE [--from LINE] [--to LINE]
      the request methods of those lines, space-separated, in order (for assertions such as "no PUT").
  dav_count_proxy.py describe [--bodies] FILE...
      the distinct request shapes of one or more logs: client, method, path (item names replaced), Depth, the
      conditional headers, PROPFIND property names, REPORT type with its properties and filter, request and
      response content types, status codes and authentication seen; --bodies adds one sample body per shape.

Python 3 standard library only.
"""

import argparse
import http.client
import http.server
import json
import re
import socketserver
import sys
import threading
import time
import urllib.parse
import xml.etree.ElementTree as ET

REQUEST_HEADERS = ("depth", "if-match", "if-none-match", "prefer", "brief", "content-type", "accept",
                   "overwrite", "destination", "expect", "transfer-encoding", "content-encoding",
                   "accept-encoding", "user-agent", "if-modified-since", "if-unmodified-since", "range")
RESPONSE_HEADERS = ("content-type", "etag", "location", "dav", "www-authenticate", "allow", "preference-applied",
                    "last-modified", "content-encoding", "transfer-encoding", "vary")
HOP_BY_HOP = ("connection", "keep-alive", "proxy-connection", "transfer-encoding", "te", "trailer", "upgrade",
              "expect")

log_lock = threading.Lock()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "dav-count-proxy"

    def log_message(self, *args):  # keep stderr quiet
        pass

    def upstream(self, fresh=False):
        conn = getattr(self, "_upstream", None)
        if conn is None or fresh:
            if conn is not None:
                conn.close()
            conn = http.client.HTTPConnection(self.server.target_host, self.server.target_port, timeout=300)
            self._upstream = conn
        return conn

    def read_body(self):
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            chunks = []
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip() or b"0", 16)
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass
                    return b"".join(chunks), True
                chunks.append(self.rfile.read(size))
                self.rfile.readline()
        length = int(self.headers.get("Content-Length") or 0)
        return (self.rfile.read(length) if length else b""), False

    def forward(self):
        started = time.monotonic()
        body, chunked = self.read_body()
        headers = [(k, v) for k, v in self.headers.items() if k.lower() not in HOP_BY_HOP]
        if chunked or body or self.command in ("PUT", "POST", "PROPFIND", "REPORT", "PROPPATCH"):
            headers = [(k, v) for k, v in headers if k.lower() != "content-length"]
            headers.append(("Content-Length", str(len(body))))
        response = None
        for attempt in (0, 1):  # a kept-alive upstream connection the server closed meanwhile: retry once
            conn = self.upstream(fresh=attempt == 1)
            try:
                conn.putrequest(self.command, self.path, skip_host=True, skip_accept_encoding=True)
                for k, v in headers:
                    conn.putheader(k, v)
                conn.endheaders(body if body else None)
                response = conn.getresponse()
                break
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                if attempt == 1:
                    raise
        data = response.read()
        if response.getheader("Connection", "").lower() == "close":
            self.upstream().close()
            self._upstream = None
        seconds = time.monotonic() - started

        out_headers = [(k, v) for k, v in response.getheaders() if k.lower() not in HOP_BY_HOP]
        no_body = self.command == "HEAD" or response.status in (204, 304) or 100 <= response.status < 200
        if not no_body:
            out_headers = [(k, v) for k, v in out_headers if k.lower() != "content-length"]
            out_headers.append(("Content-Length", str(len(data))))
        status_line = "HTTP/1.1 %d %s\r\n" % (response.status, response.reason)
        head = status_line + "".join("%s: %s\r\n" % (k, v) for k, v in out_headers) + "\r\n"
        self.wfile.write(head.encode("latin-1"))
        if not no_body:
            self.wfile.write(data)
        self.wfile.flush()

        bytes_in = len(self.raw_requestline) + sum(len(k) + len(v) + 4 for k, v in self.headers.items()) + 2
        bytes_in += len(body)
        bytes_out = len(head.encode("latin-1")) + (0 if no_body else len(data))
        limit = self.server.body_bytes
        entry = {
            "t": round(time.time(), 3), "method": self.command, "path": self.path,
            "req": {k.lower(): v for k, v in self.headers.items() if k.lower() in REQUEST_HEADERS},
            "auth": (self.headers.get("Authorization", "").split(" ")[0] or None),
            "req_body": body[:limit].decode("utf-8", "replace"), "req_body_len": len(body),
            "status": response.status,
            "resp": {k.lower(): v for k, v in response.getheaders() if k.lower() in RESPONSE_HEADERS},
            "resp_body": data[:limit].decode("utf-8", "replace") if response.status >= 300 else "",
            "resp_body_len": len(data), "bytes_in": bytes_in, "bytes_out": bytes_out,
            "seconds": round(seconds, 4),
        }
        with log_lock:
            with open(self.server.log_path, "a", encoding="utf-8") as f:
                f.write(json.dumps(entry, sort_keys=True) + "\n")

    def finish(self):
        conn = getattr(self, "_upstream", None)
        if conn is not None:
            conn.close()
        super().finish()

    def handle_one_request(self):
        try:
            super().handle_one_request()
        except (ConnectionResetError, BrokenPipeError):
            self.close_connection = True

    def __getattr__(self, name):
        if name.startswith("do_"):
            return self.forward
        raise AttributeError(name)


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True


def serve(args):
    target = urllib.parse.urlsplit(args.target)
    server = Server(("127.0.0.1", args.listen), Handler)
    server.target_host, server.target_port = target.hostname, target.port or 80
    server.log_path, server.body_bytes = args.log, args.body_bytes
    open(args.log, "a").close()
    server.serve_forever()


def entries(path, first=0, last=None):
    with open(path, encoding="utf-8") as f:
        lines = f.readlines()
    return [json.loads(line) for line in lines[first:last] if line.strip()]


def count(args):
    es = entries(args.log, args.from_line, args.to_line)
    print("%d\t%d\t%d\t%.3f" % (len(es), sum(e["bytes_in"] for e in es), sum(e["bytes_out"] for e in es),
                                sum(e["seconds"] for e in es)))


def methods(args):
    print(" ".join(e["method"] for e in entries(args.log, args.from_line, args.to_line)))


def qname(tag):
    prefixes = {"DAV:": "D", "urn:ietf:params:xml:ns:caldav": "C", "urn:ietf:params:xml:ns:carddav": "CR",
                "http://calendarserver.org/ns/": "CS", "http://apple.com/ns/ical/": "ICAL"}
    m = re.match(r"\{([^}]*)\}(.*)", tag)
    if not m:
        return tag
    return "%s:%s" % (prefixes.get(m.group(1), m.group(1)), m.group(2))


def body_shape(entry):
    """PROPFIND: the requested property names; REPORT: its type, properties and filters/hrefs summary."""
    text = entry["req_body"]
    if not text.strip():
        return "(no body)" if entry["method"] in ("PROPFIND", "REPORT") else ""
    if entry["method"] not in ("PROPFIND", "REPORT", "PROPPATCH"):
        return ""
    try:
        root = ET.fromstring(text.encode("utf-8"))
    except ET.ParseError:
        return "(unparsable or truncated body)"
    parts = [qname(root.tag)]
    for child in root:
        name = qname(child.tag)
        if name == "D:prop":
            parts.append("prop=" + ",".join(qname(p.tag) for p in child))
        elif name == "D:href":
            continue
        elif name in ("C:filter", "CR:filter"):
            parts.append("filter=" + "/".join(
                "%s[%s]" % (qname(e.tag), e.get("name", "")) if e.get("name") else qname(e.tag)
                for e in child.iter() if e is not child))
        elif name == "D:sync-token":
            parts.append("sync-token=" + ("empty" if not (child.text or "").strip() else "token"))
        else:
            parts.append(name + ("=" + child.text.strip() if (child.text or "").strip() else ""))
    hrefs = [c for c in root if qname(c.tag) == "D:href"]
    if hrefs:
        parts.append("hrefs")
    return " ".join(parts)


def path_kind(path):
    """The path with an item's name replaced by <item> (keeping its extension); collections stay as they are."""
    p = urllib.parse.urlsplit(path).path
    if p.endswith("/") or p.startswith("/.well-known/"):
        return p
    head, _, name = p.rpartition("/")
    ext = name.rpartition(".")[2] if "." in name else ""
    return "%s/<item>%s" % (head, "." + ext if ext else "")


def describe(args):
    shapes, header_names = {}, {}
    for log in args.logs:
        for e in entries(log):
            req = e["req"]
            agent = req.get("user-agent", "?").split(" ")[0]
            header_names.setdefault(agent, set()).update(h for h in req if h != "user-agent")
            headers = sorted(h for h in req if h not in ("user-agent", "content-type", "accept", "depth",
                                                         "accept-encoding"))
            header_text = ",".join("%s=%s" % (h, req[h] if req[h] == "*" or not h.startswith("if-") else "<etag>")
                                   for h in headers)
            key = (agent, e["method"], path_kind(e["path"]), "Depth=" + req.get("depth", "-"), header_text,
                   body_shape(e), "ct=" + req.get("content-type", "-"), "accept=" + req.get("accept", "-"))
            seen = shapes.setdefault(key, {"n": 0, "status": set(), "resp_ct": set(), "etag": set(), "auth": set(),
                                           "body": e["req_body"] if e["method"] in ("PROPFIND", "REPORT") else ""})
            seen["n"] += 1
            seen["status"].add(e["status"])
            seen["resp_ct"].add(e["resp"].get("content-type", "-"))
            seen["etag"].add("ETag" if "etag" in e["resp"] else "no ETag")
            seen["auth"].add(e["auth"] or "none")
    for key in sorted(shapes):
        seen = shapes[key]
        print("%s | x%d | status %s | auth %s | response ct %s | %s" % (
            " | ".join(k for k in key if k), seen["n"], ",".join(map(str, sorted(seen["status"]))),
            ",".join(sorted(seen["auth"])), ",".join(sorted(seen["resp_ct"])), ",".join(sorted(seen["etag"]))))
        if args.bodies and seen["body"].strip():
            print("    " + " ".join(seen["body"].split()))
    for agent in sorted(header_names):
        print("%s request headers: %s" % (agent, ", ".join(sorted(header_names[agent]))))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("serve")
    s.add_argument("--listen", type=int, required=True)
    s.add_argument("--target", required=True)
    s.add_argument("--log", required=True)
    s.add_argument("--body-bytes", type=int, default=4000)
    for name in ("count", "methods"):
        c = sub.add_parser(name)
        c.add_argument("log")
        c.add_argument("--from", dest="from_line", type=int, default=0)
        c.add_argument("--to", dest="to_line", type=int, default=None)
    d = sub.add_parser("describe")
    d.add_argument("--bodies", action="store_true", help="also one sample PROPFIND/REPORT body per shape")
    d.add_argument("logs", nargs="+")
    args = ap.parse_args()
    {"serve": serve, "count": count, "methods": methods, "describe": describe}[args.cmd](args)


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        sys.exit(130)
