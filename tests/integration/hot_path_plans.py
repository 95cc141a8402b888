#!/usr/bin/env python3
"""Reads auto_explain's plans (PostgreSQL jsonlog lines, log_format = json, log_analyze = on, nested statements
included) and fails when a statement read rows of a table that grows with a phone's history only to throw them away:
a filter that removed more than --max-removed rows (per statement execution, all loops together), or a sequential
scan of such a table that saw more rows than that. Such a plan makes the thousandth session of a device cost more
than its tenth (issue 40), however fast it looks on a fresh database.

    hot_path_plans.py --max-removed N LOG...
Prints every offending plan node with the statement it belongs to; exit 1 when there was one, 2 when the log held
no plan at all (auto_explain did not run: the check would prove nothing).
"""
import argparse
import json
import re
import sys

# The tables a no-change session or a slow sync reads per phone; all of them grow with time or with the user's data.
HOT_TABLES = {
    "sessions", "session_routes", "session_starts", "resume_pointers", "mappings", "items", "item_match_keys",
    "devices", "device_stores", "datastores", "incoming_chunks", "auth_failures", "known_clients", "dav_names",
}
PLAN_START = re.compile(r"duration: [0-9.]+ ms\s+plan:\s*", re.S)


def plans(paths):
    for path in paths:
        with open(path, encoding="utf-8", errors="replace") as log:
            for line in log:
                try:
                    entry = json.loads(line)
                except ValueError:
                    continue
                message = entry.get("message", "")
                start = PLAN_START.match(message)
                if not start:
                    continue
                try:
                    yield json.loads(message[start.end():])
                except ValueError:
                    continue


def nodes(plan):
    yield plan
    for child in plan.get("Plans", []):
        yield from nodes(child)


def offences(explained, max_removed):
    for node in nodes(explained["Plan"]):
        table = node.get("Relation Name")
        if table not in HOT_TABLES:
            continue
        loops = node.get("Actual Loops", 1) or 1
        removed = (node.get("Rows Removed by Filter", 0) + node.get("Rows Removed by Index Recheck", 0)) * loops
        seen = node.get("Actual Rows", 0) * loops + removed
        if removed > max_removed:
            yield f"{node['Node Type']} on {table} removed {removed} rows by filter ({node.get('Filter', '')})"
        elif node["Node Type"] == "Seq Scan" and seen > max_removed:
            yield f"Seq Scan on {table} read {seen} rows"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--max-removed", type=int, default=100)
    parser.add_argument("logs", nargs="+")
    args = parser.parse_args()
    count = 0
    bad = {}
    for explained in plans(args.logs):
        count += 1
        query = " ".join(explained.get("Query Text", "?").split())
        for offence in offences(explained, args.max_removed):
            bad.setdefault((query, offence), 0)
            bad[(query, offence)] += 1
    if count == 0:
        print("FAIL: no plan in the log (auto_explain did not run)")
        return 2
    for (query, offence), times in sorted(bad.items()):
        print(f"FAIL: {offence} ({times}x)\n      in: {query[:400]}")
    print(f"{count} plans read, {len(bad)} offending statement shapes")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
