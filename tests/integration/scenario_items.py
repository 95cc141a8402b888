#!/usr/bin/env python3
"""Test data and checks for tests/integration/matching_scenarios.sh (issue 7 scenarios, issue 6 convergence).

Subcommands (all work on directories of one item per file, as the SyncEvolution file backend keeps them):
  contacts-variant SRC OUT --count N   the first N contacts of SRC written as another phone would hold them:
                                       vCard 2.1, FN "Last, First", phones in national form, no EMAIL, one
                                       extra phone number that SRC does not have
  events-variant SRC OUT --count N     the first N non-all-day events of SRC as vCalendar 1.0 without UID
  tasks-variant SRC OUT --count N      the first N tasks of SRC as vCalendar 1.0 without UID
  add-exceptions DIR                   adds an EXDATE (second occurrence) to every recurring iCalendar event
  strip-profile SRC OUT PROP...        a copy of a SyncEvolution XML profile without the named properties
  server-dump URL TENANT USER STORE OUT  the live server items of one datastore, one file each; prints count
  check-union DIR --kind K --base SRC --variant VAR [--others OTHERS] --total N
                                       every base/other item once in DIR, paired ones with the union of fields
  check-kept DIR --kind K --base SRC --props P,...  items of SRC found in DIR with those properties unchanged
  find DIR --key KEY                   the file names of DIR items holding phone number KEY (trailing digits)
  edit FILE [--set LINE]... [--add LINE]...  change a vCard 3.0 / iCalendar 2.0 item in place: --set replaces
                                       the lines of LINE's property, --add adds LINE ("NAME;PARAMS:VALUE")
  first-key FILE                       the first phone number key of a contact (as find --key takes it)
  check-conflict DIR --key KEY --expect a|b|merged|both  the items holding KEY after an edit-edit conflict
  compare-calendar DIR_A DIR_B         compare.py for a vCalendar 1.0 and an iCalendar 2.0 phone: only what both
                                       formats express, in one spelling (alarm run time, RRULE, all-day dates,
                                       priority scale, status)
  show DIR --key KEY                   print the properties of the DIR items holding KEY
Exit status 0 = check passed; failures print one line per problem (at most 10) and a summary.
"""

import argparse
import base64
import collections
import datetime
import hashlib
import importlib.util
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
WEEKDAYS = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]


def load_compare():
    """compare.py of the interop harness: its normalization is the one every check here agrees with."""
    interop = os.environ.get("SYNCML_INTEROP_DIR") or os.path.join(HERE, "..", "..", "..", "shared", "interop")
    spec = importlib.util.spec_from_file_location("interop_compare", os.path.join(interop, "compare.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


COMPARE = load_compare()


# ---------------------------------------------------------------- reading items

def read_text(path):
    with open(path, encoding="utf-8", errors="replace", newline="") as f:
        return f.read()


def item_files(directory):
    return [os.path.join(directory, n) for n in sorted(os.listdir(directory))
            if not n.startswith(".") and os.path.isfile(os.path.join(directory, n))]


def props(text):
    """Normalized properties of one item: {NAME: [(params, value), ...]} (sub-components as PATH/NAME)."""
    _, lines = COMPARE.normalize(text, set(COMPARE.DEFAULT_IGNORE), {"UID"})
    out = {}
    for line in lines:
        head, _, value = line.partition(":")
        name, _, params = head.partition(";")
        # Properties of the item's own component without its path ("VEVENT/SUMMARY" -> "SUMMARY").
        component, _, rest = name.partition("/")
        if rest and component in ("VEVENT", "VTODO", "VJOURNAL"):
            name = rest
        out.setdefault(name, []).append((params, value))
    return out


def values(item, name):
    return [v for _, v in item.get(name, [])]


def raw_lines(text):
    """Unfolded lines with QP still encoded: (name, params list, value)."""
    out = []
    for line in COMPARE.logical_lines(text):
        head, _, value = line.partition(":")
        parts = head.split(";")
        out.append((parts[0].upper(), parts[1:], value))
    return out


def unescape3(value):
    return re.sub(r"\\(.)", lambda m: "\n" if m.group(1) in "nN" else m.group(1), value)


def split3(value, sep):
    return [unescape3(x) for x in COMPARE.split_unescaped(value, sep)]


# ---------------------------------------------------------------- keys that identify one item across formats

def phone_key(raw):
    """Trailing 9 digits: the same line in national ("030 1234567") and international ("+49 30 1234567") form."""
    digits = re.sub(r"\D", "", raw)
    if not raw.strip().startswith("+"):
        digits = digits[2:] if digits.startswith("00") else digits.lstrip("0")
    return digits[-9:]


def contact_keys(item):
    return {phone_key(v) for v in values(item, "TEL") if len(re.sub(r"\D", "", v)) >= 5}


def summary_key(item):
    summaries = values(item, "SUMMARY")
    return summaries[0].strip().lower() if summaries else ""


def identity(kind, item):
    """Keys under which an item of the base set is found again in a directory."""
    if kind == "contacts":
        return contact_keys(item)
    return {"summary:" + summary_key(item)} | {"uid:" + v for v in values(item, "UID")}


# ---------------------------------------------------------------- writing vCard 2.1 / vCalendar 1.0

def qp(value):
    raw = value.replace("\r\n", "\n").replace("\n", "\r\n").encode("utf-8")
    encoded = "".join("=%02X" % b if b < 0x20 or b > 0x7E or b == 0x3D else chr(b) for b in raw)
    lines, cur = [], ""
    for token in re.findall(r"=[0-9A-F]{2}|.", encoded):
        if len(cur) + len(token) > 72:
            lines.append(cur + "=")
            cur = ""
        cur += token
    lines.append(cur)
    return "\r\n".join(lines)


def legacy_prop(name, value, params=""):
    if "\n" in value or any(ord(c) > 0x7E for c in value):
        return "%s%s;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:%s" % (name, params, qp(value))
    return "%s%s:%s" % (name, params, value)


def national(number):
    """'+49 30 1234567' -> '030 1234567'; NANP numbers have no trunk zero: '+1 30 1234567' -> '(30) 1234567'."""
    parts = number.split()
    if len(parts) != 3 or not parts[0].startswith("+"):
        return number
    if parts[0] == "+1":
        return "(%s) %s" % (parts[1], parts[2])
    return "0%s %s" % (parts[1], parts[2])


def type_params(params):
    types = []
    for p in params:
        key, _, val = p.partition("=")
        for t in (val if val else key).split(","):
            if t.upper() not in ("INTERNET", "PREF") and t:
                types.append(t.upper())
    return "".join(";" + t for t in types)


def extra_phone(name):
    digits = int(hashlib.sha256(name.encode()).hexdigest(), 16) % 10 ** 7
    return "0170 %07d" % digits


def contact_variant(text, name):
    """One vCard 3.0 contact as another phone holds it (see the module doc)."""
    out = ["BEGIN:VCARD", "VERSION:2.1"]
    for prop, params, value in raw_lines(text):
        if prop in ("BEGIN", "END", "VERSION", "UID", "EMAIL", "FN", "PRODID", "REV"):
            continue
        if prop == "N":
            comps = split3(value, ";") + [""] * 5
            out.append(legacy_prop("N", ";".join(comps[:5]).rstrip(";")))
            first = " ".join(x for x in (comps[1], comps[2]) if x)
            out.append(legacy_prop("FN", "%s, %s" % (comps[0], first)))
        elif prop == "TEL":
            out.append("TEL%s:%s" % (type_params(params), national(value)))
        elif prop in ("ORG", "ADR"):
            out.append(legacy_prop(prop, ";".join(split3(value, ";")), type_params(params)))
        elif prop == "CATEGORIES":
            out.append(legacy_prop(prop, ";".join(split3(value, ","))))
        elif prop == "PHOTO":
            out.append("PHOTO;ENCODING=BASE64;TYPE=JPEG:" + value.strip() + "\r\n")
        else:
            out.append(legacy_prop(prop, unescape3(value)))
    out.append("TEL;HOME;VOICE:" + extra_phone(name))
    out.append("END:VCARD")
    return "\r\n".join(out) + "\r\n"


def vcal_rrule(value, dtstart):
    rule = dict(x.split("=", 1) for x in value.upper().split(";") if "=" in x)
    freq = {"WEEKLY": "W1", "DAILY": "D1"}.get(rule.get("FREQ", ""))
    if not freq or "UNTIL" not in rule:
        return None
    day = ""
    if freq == "W1":
        day = " " + WEEKDAYS[datetime.datetime.strptime(dtstart[:8], "%Y%m%d").weekday()]
    return "%s%s %s" % (freq, day, rule["UNTIL"])


def calendar_variant(text, component):
    """An iCalendar 2.0 event or task as a vCalendar 1.0 phone without UIDs holds it."""
    out = ["BEGIN:VCALENDAR", "VERSION:1.0", "BEGIN:" + component]
    depth, dtstart = 0, ""
    for prop, params, value in raw_lines(text):
        if prop == "BEGIN":
            depth += 1
            continue
        if prop == "END":
            depth -= 1
            continue
        if depth != 2 or prop in ("UID", "DTSTAMP", "PRODID", "VERSION"):
            continue  # VALARM and the calendar level are left out: alarms are not what is matched here
        if prop == "DTSTART":
            dtstart = value
        if prop == "RRULE":
            rule = vcal_rrule(value, dtstart)
            if rule:
                out.append("RRULE:" + rule)
        elif prop in ("DTSTART", "DTEND", "DUE", "COMPLETED", "EXDATE", "LAST-MODIFIED"):
            out.append("%s:%s" % (prop, value))
        elif prop == "CATEGORIES":
            out.append(legacy_prop(prop, ";".join(split3(value, ","))))
        elif prop == "STATUS":
            out.append("STATUS:" + value.replace("-", " "))
        elif prop == "PRIORITY":
            out.append("PRIORITY:%d" % {1: 1, 5: 2, 9: 3}.get(int(value), 2))
        elif prop == "PERCENT-COMPLETE":
            continue
        else:
            out.append(legacy_prop(prop, unescape3(value)))
    out += ["END:" + component, "END:VCALENDAR"]
    return "\r\n".join(out) + "\r\n"


def is_allday(text):
    return re.search(r"^DTSTART;VALUE=DATE:", text, re.M) is not None


def cmd_variant(a, kind):
    os.makedirs(a.out, exist_ok=True)
    written = 0
    for path in item_files(a.src):
        if written == a.count:
            break
        text, name = read_text(path), os.path.basename(path)
        if kind == "contacts":
            variant = contact_variant(text, name)
        elif kind == "events":
            if is_allday(text):
                continue
            variant = calendar_variant(text, "VEVENT")
        else:
            variant = calendar_variant(text, "VTODO")
        with open(os.path.join(a.out, "v-" + os.path.splitext(name)[0] + a.suffix), "w", encoding="utf-8",
                  newline="") as f:
            f.write(variant)
        written += 1
    if written != a.count:
        sys.exit("only %d of %d items could be rewritten" % (written, a.count))
    print("wrote %d %s variants to %s" % (written, kind, a.out))


def cmd_add_exceptions(a):
    """An EXDATE on the second occurrence of each recurring event: a recurrence with an exception."""
    changed = 0
    for path in item_files(a.dir):
        text = read_text(path)
        start = re.search(r"^DTSTART(;VALUE=DATE)?:(\S+)", text, re.M)
        rule = re.search(r"^RRULE:.*FREQ=(DAILY|WEEKLY)", text, re.M)
        if not start or not rule:
            continue
        step = datetime.timedelta(days=1 if rule.group(1) == "DAILY" else 7)
        value = start.group(2)
        fmt = "%Y%m%d" if start.group(1) else "%Y%m%dT%H%M%SZ"
        second = (datetime.datetime.strptime(value, fmt) + step).strftime(fmt)
        line = ("EXDATE;VALUE=DATE:" if start.group(1) else "EXDATE:") + second
        text = re.sub(r"^(RRULE:[^\r\n]*\r?\n)", lambda m: m.group(1) + line + "\r\n", text, count=1, flags=re.M)
        with open(path, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        changed += 1
    print("added an exception to %d recurring events" % changed)


def cmd_strip_profile(a):
    text = read_text(a.src)
    for name in a.props:
        pattern = r'[ \t]*<property\b[^>]*\bname="%s"[^>]*?(/>|>.*?</property>)[ \t]*\r?\n?' % re.escape(name)
        text, n = re.subn(pattern, "", text, flags=re.S)
        if n == 0:
            sys.exit("property %s not found in %s" % (name, a.src))
    os.makedirs(os.path.dirname(a.out), exist_ok=True)
    with open(a.out, "w", encoding="utf-8") as f:
        f.write(text)


# ---------------------------------------------------------------- server side

# Joined on user_id too: a distributed database joins its tables only along the user they are distributed by.
SERVER_ITEMS_SQL = """
SELECT i.guid, translate(encode(convert_to(i.content, 'UTF8'), 'base64'), E'\\n', '')
FROM items i
JOIN datastores d ON d.tenant_id = i.tenant_id AND d.user_id = i.user_id AND d.datastore_id = i.datastore_id
JOIN users u ON u.tenant_id = d.tenant_id AND u.user_id = d.user_id
JOIN tenants t ON t.tenant_id = u.tenant_id
WHERE t.name = :'tenant' AND u.name = :'user' AND d.kind = :'kind' AND NOT i.deleted
ORDER BY i.item_id
"""
STORE_KIND = {"contacts": "contacts", "events": "calendar", "tasks": "tasks", "memos": "memos"}


def cmd_server_dump(a):
    result = subprocess.run(["psql", "-X", "-q", "-At", "-F", "\t", "-v", "ON_ERROR_STOP=1", "-v",
                             "tenant=" + a.tenant, "-v", "user=" + a.user, "-v", "kind=" + STORE_KIND[a.store],
                             a.url], input=SERVER_ITEMS_SQL, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit("psql failed: " + result.stderr.strip())
    os.makedirs(a.out, exist_ok=True)
    for old in item_files(a.out):
        os.remove(old)
    count = 0
    for line in result.stdout.splitlines():
        if not line.strip():
            continue
        guid, content = line.split("\t", 1)
        with open(os.path.join(a.out, re.sub(r"[^A-Za-z0-9-]", "_", guid)), "wb") as f:
            f.write(base64.b64decode(content))
        count += 1
    print(count)


# ---------------------------------------------------------------- vCalendar 1.0 vs iCalendar 2.0

def parse_time(value):
    value = value.strip()
    for fmt in ("%Y%m%dT%H%M%SZ", "%Y%m%dT%H%M%S", "%Y%m%d"):
        try:
            return datetime.datetime.strptime(value, fmt), fmt
        except ValueError:
            pass
    return None, None


def common_date(prop, value, item):
    """All-day values as dates: iCalendar VALUE=DATE, vCalendar 1.0 midnight-to-midnight (or 23:59)."""
    t, fmt = parse_time(value)
    if fmt != "%Y%m%dT%H%M%S":
        return value
    starts = [parse_time(v)[0] for v in values(item, "DTSTART")]
    allday = starts and starts[0] and starts[0].time() == datetime.time(0)
    if not allday:
        return value
    if t.time() == datetime.time(0):
        return t.strftime("%Y%m%d")
    if prop == "DTEND" and t.time() == datetime.time(23, 59):
        return (t + datetime.timedelta(minutes=1)).strftime("%Y%m%d")
    if prop == "UNTIL" and t.time() >= datetime.time(23, 59):
        return t.strftime("%Y%m%d")
    return value


def common_rrule(value, item):
    rule = {}
    if "=" in value:
        rule = dict(x.split("=", 1) for x in value.upper().split(";") if "=" in x)
    else:  # vCalendar 1.0: "W1 WE 20240228T094500Z", "D1 20240520T091500Z", "W2 #5"
        words = value.upper().split()
        m = re.match(r"([DWMY][DP]?)(\d+)$", words[0]) if words else None
        if not m:
            return value
        rule["FREQ"] = {"D": "DAILY", "W": "WEEKLY", "MD": "MONTHLY", "MP": "MONTHLY", "YD": "YEARLY",
                        "YM": "YEARLY"}.get(m.group(1), m.group(1))
        rule["INTERVAL"] = m.group(2)
        days = [w for w in words[1:] if w in WEEKDAYS]
        if days:
            rule["BYDAY"] = ",".join(days)
        for w in words[1:]:
            if w.startswith("#") and w != "#0":
                rule["COUNT"] = w[1:]
            elif re.match(r"\d{8}T", w):
                rule["UNTIL"] = w
    if rule.get("INTERVAL") == "1":
        del rule["INTERVAL"]
    if rule.get("FREQ") == "WEEKLY" and "BYDAY" not in rule:
        start = parse_time((values(item, "DTSTART") or [""])[0])[0]
        if start:
            rule["BYDAY"] = WEEKDAYS[start.weekday()]
    if "UNTIL" in rule:
        rule["UNTIL"] = common_date("UNTIL", rule["UNTIL"], item)
    return ";".join("%s=%s" % kv for kv in sorted(rule.items()))


def alarm_times(item):
    """Run times of the item's alarms: vCalendar AALARM/DALARM values or iCalendar VALARM triggers."""
    times = {v.split(";")[0] for name in ("AALARM", "DALARM") for v in values(item, name)}
    start, fmt = parse_time((values(item, "DTSTART") or values(item, "DUE") or [""])[0])
    for trigger in values(item, "VALARM/TRIGGER"):
        m = re.fullmatch(r"(-?)(\d+)s", trigger)
        if m and start:
            delta = datetime.timedelta(seconds=int(m.group(2)))
            at = start - delta if m.group(1) else start + delta
            times.add(at.strftime("%Y%m%dT%H%M%SZ" if fmt.endswith("Z") else "%Y%m%dT%H%M%S"))
        else:
            times.add(trigger)
    return times


def common_priority(value):
    """iCalendar 1-9 and vCalendar 1-3 on one scale: high, medium, low."""
    n = int(value) if value.isdigit() else 0
    if n == 0:
        return None
    ical = {1: "high", 2: "high", 3: "high", 4: "high", 5: "medium", 6: "low", 7: "low", 8: "low", 9: "low"}
    return ical[n]


ONLY_ONE_FORMAT = {"PERCENT-COMPLETE", "VALARM/ACTION", "VALARM/DESCRIPTION", "VALARM/TRIGGER", "VALARM/ATTACH",
                   "AALARM", "DALARM", "UID", "SEQUENCE", "TRANSP", "VTIMEZONE"}


def common_calendar(item):
    out = set()
    for name, entries in item.items():
        if name in ONLY_ONE_FORMAT or name.startswith("VTIMEZONE") or name.startswith("VCALENDAR"):
            continue
        for params, value in entries:
            params = re.sub(r";?VALUE=DATE(-TIME)?", "", params)
            if name in ("DTSTART", "DTEND", "DUE", "COMPLETED", "EXDATE"):
                value = common_date(name, value, item)
            elif name == "RRULE":
                value = common_rrule(value, item)
            elif name == "STATUS":
                value = value.replace(" ", "-")
            elif name == "PRIORITY" and value not in ("high", "medium", "low"):
                value = common_priority(value)
            if value is not None:
                out.add("%s%s:%s" % (name, ";" + params if params else "", value))
    out |= {"ALARM:" + t for t in alarm_times(item)}
    return out


def load_calendar(directory):
    items = {}
    for path in item_files(directory):
        text = read_text(path)
        item = props(text)
        if re.search(r"^VERSION:1\.0", text, re.M) and "PRIORITY" in item:
            scale = {"1": "high", "2": "medium", "3": "low"}
            item["PRIORITY"] = [(p, scale.get(v, v)) for p, v in item["PRIORITY"]]
        items[os.path.basename(path)] = item
    return items


def cmd_compare_calendar(a):
    sides = []
    for directory in (a.dir_a, a.dir_b):
        sides.append({name: (summary_key(item), frozenset(common_calendar(item)))
                      for name, item in load_calendar(directory).items()})
    ca = collections.Counter(v[1] for v in sides[0].values())
    cb = collections.Counter(v[1] for v in sides[1].values())
    only_a, only_b = ca - cb, cb - ca
    if not only_a and not only_b:
        print("same: %d items in %s and %s (fields both formats express)" % (len(sides[0]), a.dir_a, a.dir_b))
        return 0
    print("DIFFERENT: %d only in %s, %d only in %s" % (sum(only_a.values()), a.dir_a, sum(only_b.values()), a.dir_b))
    by_summary = {v[0]: v[1] for v in sides[1].values() if v[1] in only_b}
    for key, lines in sorted((v for v in sides[0].values() if v[1] in only_a), key=lambda v: v[0])[:a.show]:
        other = by_summary.get(key)
        if other is None:
            print("  only in A: %r" % key)
            continue
        print("  %r: A %s, B %s" % (key, sorted(lines - other), sorted(other - lines)))
    return 1


# ---------------------------------------------------------------- checks

class Problems:
    def __init__(self):
        self.lines = []

    def add(self, text):
        self.lines.append(text)

    def report(self, summary_ok):
        for line in self.lines[:10]:
            print("  " + line)
        if len(self.lines) > 10:
            print("  (%d more problems)" % (len(self.lines) - 10))
        if self.lines:
            print("%d problems" % len(self.lines))
            return 1
        print(summary_ok)
        return 0


def load_dir(directory):
    return {os.path.basename(p): props(read_text(p)) for p in item_files(directory)}


def index_by_key(kind, items):
    index = {}
    for name, item in items.items():
        for key in identity(kind, item):
            index.setdefault(key, set()).add(name)
    return index


def holders(kind, index, item):
    found = set()
    for key in identity(kind, item):
        found |= index.get(key, set())
    return found


def norm_email(v):
    return v.strip().lower()


def expected_union(kind, base, variant):
    """What the merged copy must hold: every multi-valued entry of both, by normalized value."""
    if kind == "contacts":
        return {"TEL": {phone_key(v) for v in values(base, "TEL") + values(variant, "TEL")},
                "EMAIL": {norm_email(v) for v in values(base, "EMAIL") + values(variant, "EMAIL")}}
    return {"CATEGORIES": set(values(base, "CATEGORIES") + values(variant, "CATEGORIES"))}


def check_union_item(kind, label, item, want, problems):
    if kind == "contacts":
        tels = [phone_key(v) for v in values(item, "TEL")]
        if set(tels) != want["TEL"] or len(tels) != len(set(tels)):
            problems.add("%s: TEL %s, want each of %s once" % (label, sorted(tels), sorted(want["TEL"])))
        emails = {norm_email(v) for v in values(item, "EMAIL")}
        if emails != want["EMAIL"]:
            problems.add("%s: EMAIL %s, want %s" % (label, sorted(emails), sorted(want["EMAIL"])))


def cmd_check_union(a):
    items = load_dir(a.dir)
    index = index_by_key(a.kind, items)
    problems = Problems()
    if len(items) != a.total:
        problems.add("%d items in %s, want %d" % (len(items), a.dir, a.total))
    base = load_dir(a.base)
    variants = load_dir(a.variant) if a.variant else {}
    variant_of = {}
    for vname, v in variants.items():
        matches = [b for b, item in base.items() if identity(a.kind, item) & identity(a.kind, v)]
        if len(matches) != 1:
            sys.exit("test data: variant %s matches %d base items" % (vname, len(matches)))
        variant_of[matches[0]] = v
    others = load_dir(a.others) if a.others else {}
    for name, item in list(base.items()) + list(others.items()):
        found = holders(a.kind, index, item)
        if len(found) != 1:
            problems.add("%s is held by %d items %s" % (name, len(found), sorted(found)[:4]))
            continue
        if name in variant_of:
            want = expected_union(a.kind, item, variant_of[name])
            check_union_item(a.kind, "%s (as %s)" % (name, next(iter(found))), items[next(iter(found))], want,
                             problems)
    return problems.report("ok: %d items, each base/other item once%s" %
                           (len(items), ", paired ones with the union of fields" if variants else ""))


def kept_values(item, prop):
    """A property's values in one spelling: RRULE by meaning (a weekly rule names DTSTART's weekday or not)."""
    if prop == "RRULE":
        return sorted(common_rrule(v, item) for v in values(item, prop))
    return sorted(values(item, prop))


def cmd_check_kept(a):
    items = load_dir(a.dir)
    index = index_by_key(a.kind, items)
    problems = Problems()
    wanted = [p.strip().upper() for p in a.props.split(",") if p.strip()]
    checked = {p: 0 for p in wanted}
    for name, item in load_dir(a.base).items():
        found = holders(a.kind, index, item)
        if len(found) != 1:
            problems.add("%s is held by %d items" % (name, len(found)))
            continue
        held = items[next(iter(found))]
        for prop in wanted:
            if prop not in item:
                continue
            checked[prop] += 1
            if kept_values(held, prop) != kept_values(item, prop):
                got = [v[:80] for v in values(held, prop)]
                problems.add("%s: %s is %s, want %s" % (name, prop, got or "missing",
                                                        [v[:80] for v in values(item, prop)]))
    missing = [p for p, n in checked.items() if n == 0]
    if missing:
        problems.add("test data has no item with %s" % ",".join(missing))
    return problems.report("ok: %s kept (%s items checked)" %
                           (",".join(wanted), ", ".join("%s %d" % kv for kv in checked.items())))


def key_holders(items, key):
    return {n: i for n, i in items.items() if key in contact_keys(i)}


def cmd_find(a):
    for name in sorted(key_holders(load_dir(a.dir), a.key)):
        print(name)
    return 0


def cmd_edit(a):
    """Content lines go before the item's END line; --set first drops the lines of the same property."""
    text = read_text(a.file)
    nl = "\r\n" if "\r\n" in text else "\n"
    lines = COMPARE.logical_lines(text)
    end = max(i for i, line in enumerate(lines) if line.upper().startswith("END:V") and
              line.upper() != "END:VCALENDAR" and line.upper() != "END:VALARM")
    tail, lines = lines[end:], lines[:end]
    for line in a.set:
        prop = re.split(r"[;:]", line, 1)[0].upper()
        lines = [l for l in lines if re.split(r"[;:]", l, 1)[0].upper() != prop] + [line]
    lines += a.add
    with open(a.file, "w", encoding="utf-8", newline="") as f:
        f.write(nl.join(lines + tail) + nl)
    return 0


EDIT_A = {"TITLE": "Title from A", "EMAIL": "from-a@example.com"}
EDIT_B = {"TITLE": "Title from B", "TEL": "+49 89 5550123"}


def version_of(item):
    """Which edit(s) an item carries: 'a', 'b', 'merged' (both), or a description of what it is."""
    title = values(item, "TITLE")
    has_a = EDIT_A["EMAIL"] in [norm_email(v) for v in values(item, "EMAIL")]
    has_b = phone_key(EDIT_B["TEL"]) in contact_keys(item)
    if has_a and has_b and title in ([EDIT_A["TITLE"]], [EDIT_B["TITLE"]]):
        return "merged"
    if has_a and not has_b and title == [EDIT_A["TITLE"]]:
        return "a"
    if has_b and not has_a and title == [EDIT_B["TITLE"]]:
        return "b"
    return "TITLE %s, A's email %s, B's phone %s" % (title, "present" if has_a else "absent",
                                                     "present" if has_b else "absent")


def cmd_check_conflict(a):
    found = key_holders(load_dir(a.dir), a.key)
    versions = sorted(version_of(i) for i in found.values())
    want = ["a", "b"] if a.expect == "both" else [a.expect]
    if versions == want:
        print("ok: %s holds %s" % (a.key, " and ".join(want)))
        return 0
    print("  %d items hold %s in %s: %s; want %s" % (len(found), a.key, a.dir, versions, want))
    return 1


def cmd_first_key(a):
    keys = sorted(contact_keys(props(read_text(a.file))))
    if not keys:
        sys.exit("no phone number in " + a.file)
    print(keys[0])
    return 0


def cmd_show(a):
    items = load_dir(a.dir)
    for name, item in items.items():
        if a.key in contact_keys(item) or any(a.key in v for vs in item.values() for _, v in vs):
            print("--", name)
            for prop, vs in sorted(item.items()):
                for params, v in vs:
                    print("  %s%s: %s" % (prop, ";" + params if params else "", v[:100]))
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    for kind, suffix in (("contacts", ".vcf"), ("events", ".vcs"), ("tasks", ".vcs")):
        p = sub.add_parser(kind + "-variant")
        p.add_argument("src")
        p.add_argument("out")
        p.add_argument("--count", type=int, required=True)
        p.set_defaults(func=lambda a, k=kind: cmd_variant(a, k), suffix=suffix)
    p = sub.add_parser("add-exceptions")
    p.add_argument("dir")
    p.set_defaults(func=cmd_add_exceptions)
    p = sub.add_parser("strip-profile")
    p.add_argument("src")
    p.add_argument("out")
    p.add_argument("props", nargs="+")
    p.set_defaults(func=cmd_strip_profile)
    p = sub.add_parser("server-dump")
    for name in ("url", "tenant", "user", "store", "out"):
        p.add_argument(name)
    p.set_defaults(func=cmd_server_dump)
    p = sub.add_parser("check-union")
    p.add_argument("dir")
    p.add_argument("--kind", required=True)
    p.add_argument("--base", required=True)
    p.add_argument("--variant")
    p.add_argument("--others")
    p.add_argument("--total", type=int, required=True)
    p.set_defaults(func=cmd_check_union)
    p = sub.add_parser("check-kept")
    p.add_argument("dir")
    p.add_argument("--kind", required=True)
    p.add_argument("--base", required=True)
    p.add_argument("--props", required=True)
    p.set_defaults(func=cmd_check_kept)
    for name, func in (("show", cmd_show), ("find", cmd_find)):
        p = sub.add_parser(name)
        p.add_argument("dir")
        p.add_argument("--key", required=True)
        p.set_defaults(func=func)
    p = sub.add_parser("edit")
    p.add_argument("file")
    p.add_argument("--set", action="append", default=[])
    p.add_argument("--add", action="append", default=[])
    p.set_defaults(func=cmd_edit)
    p = sub.add_parser("compare-calendar")
    p.add_argument("dir_a")
    p.add_argument("dir_b")
    p.add_argument("--show", type=int, default=5)
    p.set_defaults(func=cmd_compare_calendar)
    p = sub.add_parser("first-key")
    p.add_argument("file")
    p.set_defaults(func=cmd_first_key)
    p = sub.add_parser("check-conflict")
    p.add_argument("dir")
    p.add_argument("--key", required=True)
    p.add_argument("--expect", required=True, choices=["a", "b", "merged", "both"])
    p.set_defaults(func=cmd_check_conflict)
    a = ap.parse_args()
    return a.func(a) or 0


if __name__ == "__main__":
    sys.exit(main())
