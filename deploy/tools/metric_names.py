#!/usr/bin/env python3
"""Metric names used by the Grafana dashboard and the Prometheus rules, and a check against a /metrics scrape.

  metric_names.py list  --dashboard FILE --rules FILE          names used, with where they are used
  metric_names.py check --dashboard FILE --rules FILE --scrape FILE
      exit 1 when a used name is missing from the scrape (a renamed metric would make a panel show
      "no data" or an alert never fire without anyone noticing)
  metric_names.py fresh --scrape FILE [--zero SERIES ...]
      a scrape of an instance that has served no request yet: exit 1 when a counter family has no series
      (it would show "no data", and its first event would not count in rate()) or a SERIES (as written in
      the exposition, e.g. 'syncml_messages_total{result="ok"}') is missing or not 0

A name counts as exported when the scrape has a sample of it or declares its family (# TYPE): counters with
labels have no series before their first event, and a metric of a feature that is off has none at all (the
server declares syncml_tls_certificate_expiry_timestamp_seconds without a sample when TLS is off, so the name
is still checked by a scrape without TLS).

PromQL is not parsed fully: strings, label matchers, range/offset durations, grouping clauses and Grafana
variables are removed, then every identifier that is not a function or keyword is a metric name.
"""

import argparse
import json
import re
import sys

import yaml

KEYWORDS = {
    "by", "without", "on", "ignoring", "group_left", "group_right", "bool", "and", "or", "unless", "offset",
    "inf", "nan", "atan2",
    # Aggregation operators may be followed by a grouping clause instead of '('.
    "sum", "avg", "min", "max", "count", "stddev", "stdvar", "topk", "bottomk", "quantile", "count_values", "group",
}
# Series that come from elsewhere than the server: Prometheus itself, and cAdvisor (kubelet or the compose
# service) for per-instance CPU and memory, which the server does not export.
EXTERNAL = [re.compile(p) for p in (r"^up$", r"^ALERTS(_FOR_STATE)?$", r"^container_")]
HISTOGRAM_SUFFIXES = ("_bucket", "_sum", "_count")

TOKEN = re.compile(
    r"""(?P<string>"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'|`[^`]*`)"""
    r"""|(?P<var>\$\{[^}]*\}|\$[A-Za-z_][A-Za-z0-9_]*)"""
    r"""|(?P<number>[0-9][0-9A-Za-z_.]*)"""
    r"""|(?P<ident>[A-Za-z_:][A-Za-z0-9_:]*)"""
    r"""|(?P<other>\S)""",
    re.S,
)


def tokens(expr):
    return [(m.lastgroup, m.group()) for m in TOKEN.finditer(expr)]


def skip_group(toks, i, open_char, close_char):
    """Index after the bracket group that starts at toks[i] (an opening bracket)."""
    depth = 0
    while i < len(toks):
        if toks[i] == ("other", open_char):
            depth += 1
        elif toks[i] == ("other", close_char):
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return i


def names_in(expr):
    """Metric names referenced by one PromQL expression."""
    toks = tokens(expr)
    found = set()
    i = 0
    while i < len(toks):
        kind, text = toks[i]
        nxt = toks[i + 1] if i + 1 < len(toks) else (None, None)
        if kind == "other" and text in "{[":
            i = skip_group(toks, i, text, "}" if text == "{" else "]")
            continue
        if kind == "ident" and text in ("by", "without", "on", "ignoring", "group_left", "group_right"):
            i += 1
            if i < len(toks) and toks[i] == ("other", "("):
                i = skip_group(toks, i, "(", ")")
            continue
        if kind == "ident" and text == "label_values" and nxt == ("other", "("):
            # label_values(metric, label) or label_values(label): only a first argument followed by ',' or a
            # selector is a metric.
            if i + 3 < len(toks) and toks[i + 2][0] == "ident" and toks[i + 3] in (("other", ","), ("other", "{")):
                found.add(toks[i + 2][1])
            i = skip_group(toks, i + 1, "(", ")")
            continue
        if kind == "ident" and nxt != ("other", "(") and text not in KEYWORDS:
            found.add(text)
        i += 1
    return found


def dashboard_exprs(path):
    with open(path, encoding="utf-8") as f:
        board = json.load(f)
    out = []

    def panels(items):
        for panel in items:
            yield panel
            yield from panels(panel.get("panels", []))

    for panel in panels(board.get("panels", [])):
        for target in panel.get("targets", []):
            if target.get("expr"):
                out.append((f"{path}: panel '{panel.get('title', '?')}'", target["expr"]))
    for var in board.get("templating", {}).get("list", []):
        if var.get("type") == "query":
            query = var.get("query")
            if isinstance(query, dict):
                query = query.get("query", "")
            if query:
                out.append((f"{path}: variable '{var.get('name')}'", query))
    return out


def rule_exprs(path):
    with open(path, encoding="utf-8") as f:
        doc = yaml.safe_load(f)
    out, recorded = [], set()
    for group in doc.get("groups", []):
        for rule in group.get("rules", []):
            name = rule.get("alert") or rule.get("record")
            if rule.get("record"):
                recorded.add(rule["record"])
            out.append((f"{path}: rule '{name}'", str(rule.get("expr", ""))))
    return out, recorded


def used_names(dashboards, rules):
    """{metric name: [places]} for every name the server must export."""
    exprs, recorded = [], set()
    for path in dashboards:
        exprs += dashboard_exprs(path)
    for path in rules:
        rule_list, names = rule_exprs(path)
        exprs += rule_list
        recorded |= names
    used = {}
    for where, expr in exprs:
        for name in names_in(expr):
            if name in recorded or any(p.search(name) for p in EXTERNAL):
                continue
            used.setdefault(name, []).append(where)
    return used


def scraped_names(text):
    """Sample names and declared families (# TYPE) of a Prometheus text exposition."""
    samples, families = set(), {}
    for line in text.splitlines():
        if line.startswith("# TYPE "):
            parts = line.split()
            if len(parts) >= 4:
                families[parts[2]] = parts[3]
        elif line and not line.startswith("#"):
            samples.add(re.match(r"[A-Za-z_:][A-Za-z0-9_:]*", line).group())
    return samples, families


def present(name, samples, families):
    if name in samples or name in families:
        return True
    for suffix in HISTOGRAM_SUFFIXES:
        base = name[: -len(suffix)]
        if name.endswith(suffix) and families.get(base) in ("histogram", "summary"):
            return not (suffix == "_bucket" and families[base] == "summary")
    return False


def series_values(text):
    """Series (name and labels, as written) -> value, of a Prometheus text exposition."""
    values = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            series, _, value = line.rpartition(" ")
            values[series] = float(value)
    return values


def fresh_problems(text, zero_series):
    """What a scrape of a fresh instance lacks: counter families without series, and series not at 0."""
    samples, families = scraped_names(text)
    problems = [f"counter {name} has no series" for name, kind in sorted(families.items())
                if kind == "counter" and name not in samples]
    values = series_values(text)
    for series in zero_series:
        if series not in values:
            problems.append(f"{series} is missing")
        elif values[series] != 0:
            problems.append(f"{series} is {values[series]:g}, expected 0")
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", choices=["list", "check", "fresh"])
    parser.add_argument("--dashboard", action="append", default=[])
    parser.add_argument("--rules", action="append", default=[])
    parser.add_argument("--scrape")
    parser.add_argument("--zero", action="append", default=[])
    args = parser.parse_args()
    if args.command == "fresh":
        with open(args.scrape, encoding="utf-8") as f:
            problems = fresh_problems(f.read(), args.zero)
        for problem in problems:
            print("FRESH", problem)
        return 1 if problems else 0
    used = used_names(args.dashboard, args.rules)
    if args.command == "list":
        for name in sorted(used):
            print(f"{name}\t{len(used[name])} uses")
        return 0
    if not args.scrape:
        parser.error("check needs --scrape")
    with open(args.scrape, encoding="utf-8") as f:
        samples, families = scraped_names(f.read())
    missing = sorted(n for n in used if not present(n, samples, families))
    for name in missing:
        print(f"MISSING {name}: used by " + "; ".join(sorted(set(used[name]))))
    declared_only = sorted(n for n in used if n not in samples and present(n, samples, families))
    for name in declared_only:
        print(f"note: {name} is declared but has no series (no event of that kind in this run, or its feature is off)")
    print(f"{len(used) - len(missing)} of {len(used)} metric names used by dashboards and rules are exported")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
