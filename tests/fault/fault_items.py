#!/usr/bin/env python3
"""Contacts of the fault-injection suite and the model of what every device must hold (standard library only).

  fault_items.py gen DIR MODEL --names A,B,...          write one vCard per name (revision 0), model = them
  fault_items.py edit DIR MODEL [--modify A,..] [--delete A,..] [--add A,..] --rev R
                                                         change the phone's files and the model alike
  fault_items.py check DIR MODEL --label L               DIR holds exactly the model: every name once, at
                                                         its revision; prints each difference, exit 1
  fault_items.py follow DIR MODEL --names A,...          the model takes the phone's state of these contacts
                                                         (its revision when the phone holds one copy, deleted
                                                         when it holds none)
  fault_items.py names PREFIX FIRST LAST                 PREFIX-FIRST,...,PREFIX-LAST

A contact is identified by its FN; its revision is the "rev-R" word that opens its NOTE. The NOTE is
padded so that a few contacts fill a small SyncML message.
"""

import argparse
import json
import os
import re
import sys

PAD = " ".join("padding-word-%02d" % i for i in range(100))


def vcard(name, rev):
    return ("BEGIN:VCARD\r\nVERSION:3.0\r\nN:%s;Fault;;;\r\nFN:%s\r\nTEL;TYPE=CELL:+1 555 %04d\r\n"
            "NOTE:rev-%s %s\r\nEND:VCARD\r\n" % (name, name, sum(map(ord, name)) % 10000, rev, PAD))


def unfolded(text):
    return re.sub(r"\r?\n[ \t]", "", text).splitlines()


def read_dir(directory):
    """[(file, FN, rev)] of every file in DIR."""
    out = []
    for f in sorted(os.listdir(directory)):
        path = os.path.join(directory, f)
        if not os.path.isfile(path):
            continue
        with open(path, encoding="utf-8", errors="replace") as fh:
            lines = unfolded(fh.read())
        fn = rev = None
        for line in lines:
            key, _, value = line.partition(":")
            key = key.split(";")[0].upper()
            if key == "FN":
                fn = value.strip()
            elif key == "NOTE":
                m = re.match(r"rev-(\S+)", value)
                rev = m.group(1) if m else None
        out.append((f, fn, rev))
    return out


def load(model):
    with open(model) as f:
        return json.load(f)


def save(model, data):
    with open(model, "w") as f:
        json.dump(data, f, indent=1, sort_keys=True)


def names_of(s):
    return [n for n in (s or "").split(",") if n]


def gen(directory, model, names):
    os.makedirs(directory, exist_ok=True)
    data = {}
    for n in names:
        with open(os.path.join(directory, n + ".vcf"), "w", newline="") as f:
            f.write(vcard(n, "0"))
        data[n] = "0"
    save(model, data)


def edit(directory, model, modify, delete, add, rev):
    data = load(model)
    files = {fn: f for f, fn, _ in read_dir(directory)}
    for n in modify:
        if n not in files:
            print("edit: %s not on the phone" % n, file=sys.stderr)
            return 1
        with open(os.path.join(directory, files[n]), "w", newline="") as f:
            f.write(vcard(n, rev))
        data[n] = rev
    for n in delete:
        if n not in files:
            print("edit: %s not on the phone" % n, file=sys.stderr)
            return 1
        os.unlink(os.path.join(directory, files[n]))
        data.pop(n, None)
    for n in add:
        with open(os.path.join(directory, n + ".vcf"), "w", newline="") as f:
            f.write(vcard(n, rev))
        data[n] = rev
    save(model, data)
    return 0


def follow(directory, model, names):
    data = load(model)
    have = {}
    for _, fn, rev in read_dir(directory):
        have.setdefault(fn, []).append(rev)
    for n in names:
        revs = have.get(n, [])
        if len(revs) > 1:
            print("follow: %s is on the phone %d times" % (n, len(revs)), file=sys.stderr)
            return 1
        if revs:
            data[n] = revs[0]
        else:
            data.pop(n, None)
    save(model, data)
    return 0


def check(directory, model, label):
    want = load(model)
    have = {}
    problems = []
    for f, fn, rev in read_dir(directory):
        if fn is None:
            problems.append("file %s has no FN" % f)
            continue
        have.setdefault(fn, []).append(rev)
    for n, revs in sorted(have.items()):
        if len(revs) > 1:
            problems.append("duplicated: %s (%d copies, revisions %s)" % (n, len(revs), ",".join(map(str, revs))))
        if n not in want:
            problems.append("should be deleted: %s (rev %s)" % (n, revs[0]))
        elif want[n] not in revs:
            problems.append("stale: %s has rev %s, expected rev %s" % (n, ",".join(map(str, revs)), want[n]))
    for n in sorted(want):
        if n not in have:
            problems.append("lost: %s (rev %s)" % (n, want[n]))
    for p in problems:
        print("%s: %s" % (label, p))
    return 1 if problems else 0


def main(argv):
    p = argparse.ArgumentParser(usage=__doc__)
    p.add_argument("cmd", choices=["gen", "edit", "check", "follow", "names"])
    p.add_argument("operands", nargs="+")
    for name in ("--names", "--modify", "--delete", "--add", "--rev", "--label"):
        p.add_argument(name)
    a = p.parse_args(argv[1:])
    if a.cmd == "gen":
        gen(a.operands[0], a.operands[1], names_of(a.names))
        return 0
    if a.cmd == "edit":
        return edit(a.operands[0], a.operands[1], names_of(a.modify), names_of(a.delete), names_of(a.add), a.rev)
    if a.cmd == "follow":
        return follow(a.operands[0], a.operands[1], names_of(a.names))
    if a.cmd == "check":
        return check(a.operands[0], a.operands[1], a.label or a.operands[0])
    prefix, first, last = a.operands
    print(",".join("%s-%02d" % (prefix, i) for i in range(int(first), int(last) + 1)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
