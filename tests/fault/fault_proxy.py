#!/usr/bin/env python3
"""Fault-injecting HTTP proxy between a SyncML client and the server (Python 3 standard library only).

  fault_proxy.py --listen PORT --target http://127.0.0.1:SERVERPORT --log FILE
                 [--fault none|drop-request|drop-reply|kill-server --at N [--server-pid-file F]]
                 [--status CMD:OLD:NEW --status-at N] [--resume-as CODE] [--dump DIR]

Requests are counted from 1 over the proxy's life (one proxy per client run). At request N:
  drop-request  the request is read and never forwarded; the client's connection is closed unanswered;
  drop-reply    the request is forwarded, the server's whole reply read (the server committed), and the
                client's connection closed without it;
  kill-server   the request is forwarded and the server (pid in --server-pid-file) SIGKILLed while it
                works on it; the client's connection is closed unanswered. Restarting it is the caller's job.
--status CMD:OLD:NEW rewrites, in request --status-at (0: every request), each Status of the client for
a CMD (Add, Replace, Delete) whose Data is OLD to NEW: the phone refused that command. The refused item
references (SourceRef/TargetRef of those statuses) are logged as "refused CMD REF".
--resume-as CODE turns an Alert 225 (resume) of the client into Alert CODE: a client that does not
resume but starts a new session with the anchors it has.
XML only (the client must not use WBXML): the proxy replaces the server's base URL in replies
(RespURI) by its own and the reverse in requests.
--dump DIR writes every answered exchange as DIR/NNNN-request.xml and NNNN-response.xml.
The log gets one line per request: "N bytes action"; "fired N ACTION" when the fault was applied.
"""

import argparse
import http.client
import http.server
import os
import re
import signal
import socketserver
import sys
import threading
import time

LOCK = threading.Lock()
COUNT = [0]


def log(args, line):
    with LOCK:
        with open(args.log, "a") as f:
            f.write(line + "\n")


def rewrite_statuses(args, body):
    cmd, old, new = args.status.split(":")
    refused = []

    def one(m):
        block = m.group(0)
        if not re.search(rb"<Cmd>\s*" + cmd.encode() + rb"\s*</Cmd>", block):
            return block
        if not re.search(rb"<Data>\s*" + old.encode() + rb"\s*</Data>", block):
            return block
        refs = re.findall(rb"<(?:SourceRef|TargetRef)>\s*([^<\s]+)\s*</(?:SourceRef|TargetRef)>", block)
        refused.extend(r.decode() for r in refs)
        return re.sub(rb"<Data>\s*" + old.encode() + rb"\s*</Data>", b"<Data>" + new.encode() + b"</Data>", block)

    body = re.sub(rb"<Status>.*?</Status>", one, body, flags=re.S)
    return body, refused


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *a):
        pass

    def do_POST(self):
        args = self.server.args
        length = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(length)
        with LOCK:
            COUNT[0] += 1
            n = COUNT[0]
        mine = "http://127.0.0.1:%d" % args.listen
        body = body.replace(mine.encode(), args.target.encode())
        action = "forward"
        if args.status and args.status_at in (0, n):
            body, refused = rewrite_statuses(args, body)
            for ref in refused:
                log(args, "refused %s %s" % (args.status.split(":")[0], ref))
        if args.resume_as and re.search(rb"<Alert>.*?<Data>\s*225\s*</Data>", body, re.S):
            body = re.sub(rb"(<Alert>(?:(?!</Alert>).)*?<Data>)\s*225\s*(</Data>)",
                          rb"\g<1>" + args.resume_as.encode() + rb"\g<2>", body, flags=re.S)
            log(args, "resume-as %s in request %d" % (args.resume_as, n))
        fault = args.fault if args.at == n else "none"
        if fault == "drop-request":
            log(args, "%d %d drop-request" % (n, len(body)))
            log(args, "fired %d drop-request" % n)
            self.close_connection = True
            return
        host, port = args.target.split("//")[1].split(":")
        conn = http.client.HTTPConnection(host, int(port), timeout=args.timeout)
        headers = {"Content-Type": self.headers.get("Content-Type", "application/vnd.syncml+xml")}
        try:
            if fault == "kill-server":
                conn.request("POST", self.path, body=body, headers=headers)
                # The server has the whole message and works on it: kill it without waiting for the reply.
                time.sleep(args.kill_delay)
                with open(args.server_pid_file) as f:
                    pid = int(f.read().strip())
                os.kill(pid, signal.SIGKILL)
                log(args, "%d %d kill-server %d" % (n, len(body), pid))
                log(args, "fired %d kill-server" % n)
                self.close_connection = True
                return
            conn.request("POST", self.path, body=body, headers=headers)
            resp = conn.getresponse()
            data = resp.read()
            status = resp.status
            rtype = resp.getheader("Content-Type", "application/vnd.syncml+xml")
        except (OSError, http.client.HTTPException) as e:
            log(args, "%d %d upstream-error %s" % (n, len(body), e))
            self.close_connection = True
            return
        finally:
            conn.close()
        if fault == "drop-reply":
            log(args, "%d %d drop-reply after %d" % (n, len(body), status))
            log(args, "fired %d drop-reply" % n)
            self.close_connection = True
            return
        data = data.replace(args.target.encode(), mine.encode())
        if args.dump:
            os.makedirs(args.dump, exist_ok=True)
            for side, content in (("request", body), ("response", data)):
                with open(os.path.join(args.dump, "%04d-%s.xml" % (n, side)), "wb") as f:
                    f.write(content)
        log(args, "%d %d %s %d %d" % (n, len(body), action, status, len(data)))
        self.send_response(status)
        self.send_header("Content-Type", rtype)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--listen", type=int, required=True)
    p.add_argument("--target", required=True)
    p.add_argument("--log", required=True)
    p.add_argument("--fault", default="none", choices=["none", "drop-request", "drop-reply", "kill-server"])
    p.add_argument("--at", type=int, default=0)
    p.add_argument("--server-pid-file")
    p.add_argument("--kill-delay", type=float, default=0.0)
    p.add_argument("--status")
    p.add_argument("--status-at", type=int, default=0)
    p.add_argument("--resume-as")
    p.add_argument("--timeout", type=float, default=120)
    p.add_argument("--dump")
    args = p.parse_args()
    if not args.target.startswith("http://127.0.0.1:"):
        print("fault_proxy.py: only http://127.0.0.1:PORT targets", file=sys.stderr)
        return 2
    if args.fault == "kill-server" and not args.server_pid_file:
        print("fault_proxy.py: kill-server needs --server-pid-file", file=sys.stderr)
        return 2
    srv = Server(("127.0.0.1", args.listen), Handler)
    srv.args = args
    signal.signal(signal.SIGTERM, lambda *a: sys.exit(0))
    srv.serve_forever()
    return 0


if __name__ == "__main__":
    sys.exit(main())
