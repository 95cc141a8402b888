#!/usr/bin/env python3
"""Checks every #include "..." of the tracked C++ files against architecture/whiteboard.json.

A file belongs to the longest listed folder its path starts with. It may include files of its own folder, of the
folders its folder `uses`, and of what those use in turn. Test files (*_test.cpp and test helpers) may also include
anything of their own top-level module and what that may use. Prints one line per forbidden include, and exits 1 when
there is one, or when the whiteboard's `uses` form a cycle or name a folder it does not list.
"""
import json
import re
import subprocess
import sys

TEST_FILE = re.compile(r"_test\.cpp$|test_support|_fixture|/fake_|test_phone|test_query|test_util")
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)


def owner(path, folders):
    best = None
    for folder in folders:
        if path == folder or path.startswith(folder + "/"):
            if best is None or len(folder) > len(best):
                best = folder
    return best


def closure(folder, folders, seen=None, stack=()):
    if folder in stack:
        raise SystemExit("whiteboard: cycle " + " -> ".join(stack + (folder,)))
    if seen is None:
        seen = set()
    for used in folders[folder]["uses"]:
        if used not in folders:
            raise SystemExit(f"whiteboard: {folder} uses {used}, which it does not list")
        if used not in seen:
            seen.add(used)
            closure(used, folders, seen, stack + (folder,))
    return seen


def main(root):
    folders = json.load(open(f"{root}/architecture/whiteboard.json"))["folders"]
    allowed = {f: closure(f, folders) | {f} for f in folders}
    module_allowed = {}
    for f in folders:
        top = f.split("/")[0]
        module_allowed.setdefault(top, set()).update(allowed[f])
    files = subprocess.run(["git", "-C", root, "ls-files", "-co", "--exclude-standard", "*.cpp", "*.hpp", "*.h"],
                           capture_output=True, text=True, check=True).stdout.split()
    bad = 0
    for path in files:
        mine = owner(path, folders)
        if mine is None:
            continue
        ok = set(allowed[mine])
        if TEST_FILE.search(path):
            ok |= module_allowed[mine.split("/")[0]]
        try:
            text = open(f"{root}/{path}", errors="replace").read()
        except FileNotFoundError:
            continue
        for included in INCLUDE.findall(text):
            theirs = owner(included, folders)
            if theirs is not None and theirs not in ok:
                print(f"{path} ({mine}) must not include {included} ({theirs})")
                bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "."))
