#!/usr/bin/env python3
"""Helpers for filtered_sync.sh (Python 3 standard library only).

  gen DIR --count N --seed S --now EPOCH --manifest FILE
        N iCalendar 2.0 events spread over ten years around EPOCH, one file each, plus a few weekly series with
        UNTIL; FILE gets one line per event: UID, start of its span, end of its span (seconds since 1970 UTC)
  expected MANIFEST --now EPOCH --past DAYS --future DAYS
        the UIDs of the events whose span overlaps [now - past days, now + future days), sorted
  in-window-single MANIFEST DIR --now EPOCH --past DAYS --future DAYS
        the file in DIR holding a single (not recurring) event inside the window
  compare DIR EXPECTED
        the UIDs held in DIR against the UID list EXPECTED: one line of counts; exit 1 on any missing, extra or
        duplicate UID
  alert-targets FILE
        the target LocURIs of the Alerts in a dumped XML message, as the client sent them
  session-end LOG DEVICE
        the last "session end" line of DEVICE in the server's JSON log: modes, filters, items filtered out

Spans are computed here from the generated values, independently of the server: a single event from DTSTART to
DTEND (all-day: the dates at 00:00 UTC), a series from its first start to the end of its last occurrence. No span
starts or ends within two days of a window edge, so a few minutes between generating and syncing, or the server's
reading of a floating or zoned time, cannot move an event across an edge.
"""

import argparse
import json
import calendar
import os
import random
import re
import sys
import time

DAY = 86400
YEAR = 365 * DAY
WEEK = 7 * DAY
GUARD = 2 * DAY
# The window the scenarios use; the guard band keeps every span away from its edges.
WINDOW_PAST, WINDOW_FUTURE = 30, 365
SUMMARIES = ["Team meeting", "Dentist", "Lunch with Anna", "Project review", "Flight", "Yoga", "Call Bob",
             "Quarterly report", "Car service", "Birthday party", "Workshop", "Standup"]


def utc(t):
    return time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(t))


def date(t):
    return time.strftime("%Y%m%d", time.gmtime(t))


def berlin_offset(t):
    """CET/CEST offset of a UTC instant, by the EU rule (last Sunday of March / October at 01:00 UTC)."""
    year = time.gmtime(t).tm_year

    def last_sunday(month):
        last = calendar.monthrange(year, month)[1]
        wday = calendar.weekday(year, month, last)  # Monday = 0
        return calendar.timegm((year, month, last - (wday + 1) % 7, 1, 0, 0))

    return 2 * 3600 if last_sunday(3) <= t < last_sunday(10) else 3600


VTIMEZONE = ["BEGIN:VTIMEZONE", "TZID:Europe/Berlin",
             "BEGIN:DAYLIGHT", "TZOFFSETFROM:+0100", "TZOFFSETTO:+0200", "TZNAME:CEST", "DTSTART:19700329T020000",
             "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU", "END:DAYLIGHT",
             "BEGIN:STANDARD", "TZOFFSETFROM:+0200", "TZOFFSETTO:+0100", "TZNAME:CET", "DTSTART:19701025T030000",
             "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU", "END:STANDARD", "END:VTIMEZONE"]


def near_edge(start, end, now):
    lo, hi = now - WINDOW_PAST * DAY, now + WINDOW_FUTURE * DAY
    return abs(end - lo) < GUARD or abs(start - hi) < GUARD or abs(start - lo) < GUARD or abs(end - hi) < GUARD


def single_event(r, now):
    """(style, start, end) of a single event away from the window's edges."""
    while True:
        style = r.choices(["utc", "allday", "berlin", "multiday"], [80, 8, 9, 3])[0]
        start = now + r.randint(-5 * YEAR, 5 * YEAR)
        if style == "allday":
            start -= start % DAY
            end = start + DAY
        else:
            start -= start % 900
            minutes = r.choice([30, 60, 90, 120, 180, 240]) if style != "multiday" else r.randint(2, 6) * 1440
            end = start + minutes * 60
        if not near_edge(start, end, now):
            return style, start, end


def series(now):
    """Weekly series (first start, last occurrence start, duration) relative to now, chosen to cross or miss the
    window by the whole span: what a series' first occurrence alone would decide wrongly."""
    hour = 3600
    base = now - now % hour
    plans = [
        (-3 * YEAR, 10 * DAY),     # started three years ago, ends in ten days: inside
        (-3 * YEAR, -60 * DAY),    # ended two months ago: outside
        (-5 * YEAR, -20 * DAY),    # last occurrence twenty days ago, inside the 30 past days: inside
        (200 * DAY, 2 * YEAR),     # starts in the window, ends after it: inside
        (400 * DAY, 3 * YEAR),     # starts after the window: outside
        (-4 * YEAR, 4 * YEAR),     # around the whole window: inside
    ]
    out = []
    for first, last in plans:
        start = base + first
        count = (last - first) // WEEK
        out.append((start, start + count * WEEK, 2 * hour))
    return out


def ical(uid, summary, lines):
    body = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//syncml tests//filtered sync//EN"]
    if any(";TZID=Europe/Berlin" in line for line in lines):
        body += VTIMEZONE
    body += ["BEGIN:VEVENT", "UID:" + uid, "DTSTAMP:20240101T000000Z", "SUMMARY:" + summary] + lines
    body += ["END:VEVENT", "END:VCALENDAR"]
    return "\r\n".join(body) + "\r\n"


def gen(a):
    r = random.Random(a.seed)
    os.makedirs(a.dir, exist_ok=True)
    manifest = []
    plans = series(a.now)
    for i in range(a.count):
        uid = "filtered-%s-%05d@syncml.test" % (a.seed, i)
        summary = "%s #%d" % (r.choice(SUMMARIES), i)
        if i < len(plans):
            start, last, duration = plans[i]
            lines = ["DTSTART:" + utc(start), "DTEND:" + utc(start + duration),
                     "RRULE:FREQ=WEEKLY;UNTIL=" + utc(last)]
            manifest.append((uid, start, last + duration, "series"))
        else:
            style, start, end = single_event(r, a.now)
            if style == "allday":
                lines = ["DTSTART;VALUE=DATE:" + date(start), "DTEND;VALUE=DATE:" + date(end)]
            elif style == "berlin":
                lines = ["DTSTART;TZID=Europe/Berlin:" + utc(start + berlin_offset(start))[:-1],
                         "DTEND;TZID=Europe/Berlin:" + utc(end + berlin_offset(end))[:-1]]
            else:
                lines = ["DTSTART:" + utc(start), "DTEND:" + utc(end)]
            if r.random() < 0.3:
                lines.append("LOCATION:Room %d" % r.randint(1, 40))
            manifest.append((uid, start, end, "single"))
        with open(os.path.join(a.dir, "event%05d.ics" % i), "w", encoding="utf-8", newline="") as f:
            f.write(ical(uid, summary, lines))
    with open(a.manifest, "w", encoding="utf-8") as f:
        for uid, start, end, kind in manifest:
            f.write("%s %d %d %s\n" % (uid, start, end, kind))


def read_manifest(path):
    with open(path, encoding="utf-8") as f:
        return [(uid, int(start), int(end), kind) for uid, start, end, kind in (line.split() for line in f)]


def inside(start, end, a):
    return start < a.now + a.future * DAY and end > a.now - a.past * DAY


def expected(a):
    for uid in sorted(uid for uid, start, end, _ in read_manifest(a.manifest) if inside(start, end, a)):
        print(uid)


def uid_of(path):
    with open(path, encoding="utf-8", errors="replace", newline="") as f:
        text = re.sub(r"\r?\n[ \t]", "", f.read())
    found = re.findall(r"^UID(?:;[^:]*)?:(.*?)\r?$", text, re.M)
    return found[0] if found else None


def held(directory):
    return {name: uid_of(os.path.join(directory, name)) for name in sorted(os.listdir(directory))
            if os.path.isfile(os.path.join(directory, name))}


def in_window_single(a):
    wanted = {uid for uid, start, end, kind in read_manifest(a.manifest) if kind == "single" and inside(start, end, a)}
    for name, uid in held(a.dir).items():
        if uid in wanted:
            print(os.path.join(a.dir, name))
            return 0
    return 1


def compare(a):
    uids = list(held(a.dir).values())
    with open(a.expected, encoding="utf-8") as f:
        want = {line.strip() for line in f if line.strip()}
    got = set(u for u in uids if u)
    duplicates = len(uids) - len(got)
    missing, extra = want - got, got - want
    print("%d items, %d UIDs, %d expected, %d missing, %d unexpected, %d duplicates" %
          (len(uids), len(got), len(want), len(missing), len(extra), duplicates))
    for what, uids_ in (("missing", missing), ("unexpected", extra)):
        if uids_:
            print("  %s: %s" % (what, " ".join(sorted(uids_)[:8])))
    return 0 if not missing and not extra and duplicates == 0 else 1


def limited(a):
    """The phone holds exactly `count` distinct events, all of `allowed`, and every UID of `kept`."""
    uids = list(held(a.dir).values())
    got = set(u for u in uids if u)
    with open(a.allowed, encoding="utf-8") as f:
        allowed = {line.strip() for line in f if line.strip()}
    kept = set()
    if a.kept:
        with open(a.kept, encoding="utf-8") as f:
            kept = {line.strip() for line in f if line.strip()}
    duplicates = len(uids) - len(got)
    foreign, lost = got - allowed, kept - got
    print("%d items, %d UIDs (want %d), %d duplicates, %d not on the server, %d it held before missing" %
          (len(uids), len(got), a.count, duplicates, len(foreign), len(lost)))
    if a.save:
        with open(a.save, "w", encoding="utf-8") as f:
            f.writelines(u + "\n" for u in sorted(got))
    return 0 if len(got) == a.count and not duplicates and not foreign and not lost else 1


def drop(a):
    """Deletes `count` of the phone's events (the first by file name) and prints their UIDs."""
    for name, uid in list(held(a.dir).items())[:a.count]:
        os.remove(os.path.join(a.dir, name))
        print(uid)


def alert_targets(a):
    with open(a.file, encoding="utf-8", errors="replace") as f:
        text = f.read()
    targets = []
    for alert in re.findall(r"<Alert>.*?</Alert>", text, re.S):
        targets += re.findall(r"<Target>\s*<LocURI>(.*?)</LocURI>", alert, re.S)
    print(" ".join(targets))


def session_end(a):
    last = None
    with open(a.log, encoding="utf-8", errors="replace") as f:
        for line in f:
            if '"session end"' not in line:
                continue
            event = json.loads(line)
            if event.get("msg") == "session end" and event.get("device") == a.device:
                last = event
    if not last:
        print("no session end")
        return 1
    print("modes=%s filters=%s filtered_out=%s sent=%s received=%s duration_ms=%s" % tuple(
        str(last.get(k)).replace(" ", "_") for k in ("modes", "filters", "filtered_out", "sent", "received",
                                                        "duration_ms")))
    return 0


def main():
    p = argparse.ArgumentParser()
    sub = p.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("gen")
    g.add_argument("dir")
    g.add_argument("--count", type=int, required=True)
    g.add_argument("--seed", required=True)
    g.add_argument("--now", type=int, required=True)
    g.add_argument("--manifest", required=True)
    for name in ("expected", "in-window-single"):
        e = sub.add_parser(name)
        e.add_argument("manifest")
        if name == "in-window-single":
            e.add_argument("dir")
        e.add_argument("--now", type=int, required=True)
        e.add_argument("--past", type=int, default=WINDOW_PAST)
        e.add_argument("--future", type=int, default=WINDOW_FUTURE)
    c = sub.add_parser("compare")
    c.add_argument("dir")
    c.add_argument("expected")
    lim = sub.add_parser("limited")
    lim.add_argument("dir")
    lim.add_argument("count", type=int)
    lim.add_argument("allowed")
    lim.add_argument("--kept")
    lim.add_argument("--save")
    d = sub.add_parser("drop")
    d.add_argument("dir")
    d.add_argument("count", type=int)
    t = sub.add_parser("alert-targets")
    t.add_argument("file")
    e = sub.add_parser("session-end")
    e.add_argument("log")
    e.add_argument("device")
    a = p.parse_args()
    return {"gen": gen, "expected": expected, "in-window-single": in_window_single, "compare": compare,
            "alert-targets": alert_targets, "session-end": session_end, "limited": limited, "drop": drop}[a.cmd](a)


if __name__ == "__main__":
    sys.exit(main() or 0)
