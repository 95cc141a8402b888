#!/usr/bin/env python3
"""Helpers for client_scenarios.sh (Python 3 standard library only).

  photos DIR --count N --bytes B --seed S   give the first N vCards in DIR a PHOTO of B random bytes
  photo-digests DIR                          print the sorted SHA-256 of every decoded PHOTO in DIR
  sizes TSV --limit L                        wiretap exchanges.tsv: exchanges, largest reply; exit 1 over L
  moredata DIR request|response              how many dumped messages of that side carry MoreData
  msg-id FILE                                MsgID of the SyncHdr of a dumped XML message
  alerts FILE                                the Alert codes (Data of each Alert) of a dumped XML message
  alert-status FILE                          the codes of the Status commands answering Alerts in FILE
  count-adds DIR                             Add commands in all dumped client messages of DIR
  free-ports FIRST LAST N                    N ports in FIRST..LAST nobody listens on
"""

import base64
import hashlib
import os
import random
import re
import socket
import sys


def vcard_files(directory):
    # Files a phone received are named by its backend (0, 1, ...), not *.vcf.
    return sorted(f for f in os.listdir(directory) if os.path.isfile(os.path.join(directory, f)))


def unfolded_lines(text):
    return re.sub(r"\r?\n[ \t]", "", text).splitlines()


def photos(directory, count, size, seed):
    rng = random.Random(seed)
    for name in vcard_files(directory)[:count]:
        path = os.path.join(directory, name)
        with open(path, encoding="utf-8", newline="") as f:
            text = f.read()
        eol = "\r\n" if "\r\n" in text else "\n"
        lines = [line for line in unfolded_lines(text) if not line.upper().startswith("PHOTO")]
        b64 = base64.b64encode(bytes(rng.getrandbits(8) for _ in range(size))).decode()
        photo = "PHOTO;ENCODING=b;TYPE=JPEG:" + b64
        # Folded at 75 octets like any vCard 3.0 writer does.
        folded = [photo[:75]] + [" " + photo[i:i + 74] for i in range(75, len(photo), 74)]
        end = max(i for i, line in enumerate(lines) if line.upper().startswith("END:VCARD"))
        lines[end:end] = folded
        with open(path, "w", encoding="utf-8", newline="") as f:
            f.write(eol.join(lines) + eol)


def photo_digests(directory):
    digests = []
    for name in vcard_files(directory):
        with open(os.path.join(directory, name), encoding="utf-8", errors="replace", newline="") as f:
            for line in unfolded_lines(f.read()):
                if line.upper().startswith("PHOTO"):
                    data = line.split(":", 1)[1].replace(" ", "")
                    digests.append(hashlib.sha256(base64.b64decode(data + "=" * (-len(data) % 4))).hexdigest())
    for d in sorted(digests):
        print(d)


def sizes(tsv, limit):
    replies = []
    with open(tsv) as f:
        for line in f:
            cols = line.rstrip("\n").split("\t")
            if len(cols) >= 9:
                replies.append(int(cols[8]))
    over = [r for r in replies if r > limit]
    print("%d exchanges, largest reply %d bytes, %d over %d" % (len(replies), max(replies, default=0), len(over), limit))
    return 1 if over or not replies else 0


def moredata(directory, side):
    count = 0
    for name in sorted(os.listdir(directory)):
        if "-%s." % side in name and name.endswith(".xml"):
            with open(os.path.join(directory, name), "rb") as f:
                if re.search(rb"<MoreData\s*/?>", f.read()):
                    count += 1
    print(count)


def msg_id(path):
    with open(path, "rb") as f:
        m = re.search(rb"<SyncHdr.*?<MsgID>\s*([^<\s]+)\s*</MsgID>", f.read(), re.S)
    print(m.group(1).decode() if m else "")


def alerts(path):
    with open(path, "rb") as f:
        text = f.read()
    codes = re.findall(rb"<Alert>.*?<Data>\s*(\d+)\s*</Data>", text, re.S)
    print(" ".join(c.decode() for c in codes))


def alert_status(path):
    with open(path, "rb") as f:
        text = f.read()
    codes = re.findall(rb"<Status>(?:(?!</Status>).)*?<Cmd>Alert</Cmd>(?:(?!</Status>).)*?<Data>\s*(\d+)", text, re.S)
    print(" ".join(c.decode() for c in codes))


def count_adds(directory):
    count = 0
    for name in sorted(os.listdir(directory)):
        if "-request." in name and name.endswith(".xml"):
            with open(os.path.join(directory, name), "rb") as f:
                count += len(re.findall(rb"<Add>", f.read()))
    print(count)


def free_ports(first, last, n):
    found = []
    for port in range(first, last + 1):
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
        found.append(port)
        if len(found) == n:
            print(" ".join(map(str, found)))
            return 0
    return 1


def option(args, name, default=None):
    return args[args.index(name) + 1] if name in args else default


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    cmd, args = argv[1], argv[2:]
    if cmd == "photos":
        photos(args[0], int(option(args, "--count")), int(option(args, "--bytes")), option(args, "--seed", "1"))
    elif cmd == "photo-digests":
        photo_digests(args[0])
    elif cmd == "sizes":
        return sizes(args[0], int(option(args, "--limit")))
    elif cmd == "moredata":
        moredata(args[0], args[1])
    elif cmd == "msg-id":
        msg_id(args[0])
    elif cmd == "alerts":
        alerts(args[0])
    elif cmd == "alert-status":
        alert_status(args[0])
    elif cmd == "count-adds":
        count_adds(args[0])
    elif cmd == "free-ports":
        return free_ports(int(args[0]), int(args[1]), int(args[2]))
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
