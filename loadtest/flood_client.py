#!/usr/bin/env python3
"""Abusive clients for loadtest/edge-flood.sh (issue 35), from a source address of their own.

  flood_client.py bad-password --target 127.0.0.1:PORT --source 127.0.0.2 --path /dav/TENANT/USER/ --user USER \
      [--clients 100]
      CLIENTS keep-alive connections, each sending PROPFINDs with Basic credentials of USER and a new wrong password
      every time, as fast as the server answers.
  flood_client.py idle --target 127.0.0.1:PORT --source 127.0.0.2 [--connections 2000]
      CONNECTIONS TCP connections that send nothing; one the server closes is opened again.

Runs until SIGTERM or SIGINT, then prints one JSON line of counts: answers by HTTP status (bad-password), or
connections opened, closed by the server, failed to open and held at most (idle).
"""
import argparse
import asyncio
import base64
import json
import resource
import signal
import sys
import time

PROPFIND_BODY = (b'<?xml version="1.0" encoding="utf-8"?>\n'
                 b'<d:propfind xmlns:d="DAV:"><d:prop><d:resourcetype/></d:prop></d:propfind>\n')


class counts:
    def __init__(self):
        self.by_status = {}
        self.opened = 0
        self.closed_by_server = 0
        self.failed_opens = 0
        self.held = 0
        self.max_held = 0
        self.started = time.monotonic()


async def open_from(args):
    host, port = args.target.rsplit(":", 1)
    return await asyncio.open_connection(host, int(port), local_addr=(args.source, 0))


def propfind(args, n):
    password = "wrong-%d" % n
    token = base64.b64encode(("%s:%s" % (args.user, password)).encode()).decode()
    head = ("PROPFIND %s HTTP/1.1\r\nHost: %s\r\nAuthorization: Basic %s\r\nDepth: 0\r\n"
            "Content-Type: application/xml\r\nContent-Length: %d\r\n\r\n"
            % (args.path, args.target, token, len(PROPFIND_BODY)))
    return head.encode() + PROPFIND_BODY


async def read_answer(reader):
    """The status of one HTTP answer, its body read away; None when the server closed the connection."""
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = lines[0].split(" ")[1]
    length, close = 0, False
    for line in lines[1:]:
        name, _, value = line.partition(":")
        if name.strip().lower() == "content-length":
            length = int(value.strip())
        elif name.strip().lower() == "connection" and value.strip().lower() == "close":
            close = True
    if length:
        await reader.readexactly(length)
    return status, close


async def bad_password_client(args, c, index):
    n = index * 1_000_000
    while True:
        try:
            reader, writer = await open_from(args)
        except OSError:
            c.failed_opens += 1
            await asyncio.sleep(0.1)
            continue
        c.opened += 1
        try:
            while True:
                n += 1
                writer.write(propfind(args, n))
                await writer.drain()
                status, close = await read_answer(reader)
                c.by_status[status] = c.by_status.get(status, 0) + 1
                if close:
                    break
        except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, IndexError, ValueError):
            c.closed_by_server += 1
        writer.close()


async def idle_client(args, c, gate):
    while True:
        async with gate:  # a few hundred handshakes at a time: the listen backlog is finite
            try:
                reader, writer = await asyncio.wait_for(open_from(args), 10)
            except (OSError, asyncio.TimeoutError):
                c.failed_opens += 1
                await asyncio.sleep(0.5)
                continue
        c.opened += 1
        c.held += 1
        c.max_held = max(c.max_held, c.held)
        try:
            await reader.read()  # nothing comes until the server closes
        except OSError:
            pass
        c.held -= 1
        c.closed_by_server += 1
        writer.close()
        await asyncio.sleep(0.5)


def report(args, c):
    seconds = time.monotonic() - c.started
    out = {"mode": args.mode, "seconds": round(seconds, 1), "opened": c.opened,
           "closed_by_server": c.closed_by_server, "failed_opens": c.failed_opens}
    if args.mode == "bad-password":
        answers = sum(c.by_status.values())
        out.update({"clients": args.clients, "answers": answers, "answers_per_s": round(answers / seconds, 1),
                    "by_status": c.by_status})
    else:
        out.update({"connections": args.connections, "held_at_end": c.held, "max_held": c.max_held})
    return out


async def main(args):
    c = counts()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    if args.mode == "bad-password":
        tasks = [asyncio.create_task(bad_password_client(args, c, i)) for i in range(args.clients)]
    else:
        gate = asyncio.Semaphore(200)
        tasks = [asyncio.create_task(idle_client(args, c, gate)) for _ in range(args.connections)]
    await stop.wait()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    print(json.dumps(report(args, c)), flush=True)


def parse():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("mode", choices=["bad-password", "idle"])
    p.add_argument("--target", required=True, help="HOST:PORT of the server")
    p.add_argument("--source", default="127.0.0.2", help="local address the connections come from")
    p.add_argument("--path", default="/dav/", help="PROPFIND target (bad-password)")
    p.add_argument("--user", default="nobody", help="user name of the Basic credentials (bad-password)")
    p.add_argument("--clients", type=int, default=100, help="concurrent connections (bad-password)")
    p.add_argument("--connections", type=int, default=2000, help="idle connections to hold (idle)")
    return p.parse_args()


if __name__ == "__main__":
    arguments = parse()
    # Thousands of sockets need as many descriptors as the hard limit allows.
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    try:
        asyncio.run(main(arguments))
    except KeyboardInterrupt:
        sys.exit(130)
