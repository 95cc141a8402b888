"""A phone calendar that holds tasks, through the real server (issue 36), driven by calendar_tasks.sh: a scripted phone
in the manner of Nokia's and Sony Ericsson's (VEVENTs and VTODOs in vCalendar 1.0 through its one "Calendar"
datastore, no DevInf) and a CalDAV client (plain HTTP) of the same user.

  1. the phone's slow sync of a VTODO and a VEVENT: CalDAV lists the task in its task collection and the event, only,
     in its calendar collection;
  2. the CalDAV client edits the task: the phone's next two-way sync gets it as a Replace of its own item, in
     vCalendar 1.0, in the one Sync of its calendar datastore.
Prints PASS/FAIL lines; exit status 1 when any failed.
Usage: calendar_tasks.py BASE_URL TENANT USER PASSWORD
"""

import base64
import os
import re
import sys
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
import syncml_client as sc  # noqa: E402
import syncml_phone as sp  # noqa: E402

base, tenant, user, password = sys.argv[1:5]
failures = 0
VCAL = "text/x-vcalendar"


def check(what, ok, detail=""):
    global failures
    print("%s: %s%s" % ("PASS" if ok else "FAIL", what, "" if ok or not detail else " (%r)" % (detail,)))
    failures += 0 if ok else 1


def dav(method, collection, path="", body=None, headers=None):
    """(status, headers, body) of a DAV request on the user's collection."""
    url = "%s/dav/%s/%s/%s/%s" % (base, tenant, user, collection, path)
    req = urllib.request.Request(url, data=body.encode() if body else None, method=method)
    token = base64.b64encode(("%s:%s" % (user, password)).encode()).decode()
    req.add_header("Authorization", "Basic " + token)
    for k, v in (headers or {}).items():
        req.add_header(k, v)
    try:
        with urllib.request.urlopen(req, timeout=30) as resp:
            return resp.status, dict(resp.headers), resp.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), e.read().decode(errors="replace")


def dav_items(collection):
    """{name: (etag, content)} of every item of the collection."""
    status, _, listing = dav("PROPFIND", collection, "", '<?xml version="1.0"?><propfind xmlns="DAV:"><prop>'
                             "<getetag/></prop></propfind>", {"Depth": "1", "Content-Type": "application/xml"})
    if status != 207:
        return None
    items = {}
    for href in re.findall(r"<[^>]*href>([^<]+\.ics)</", listing):
        name = href.rsplit("/", 1)[-1]
        status, headers, content = dav("GET", collection, name)
        if status == 200:
            items[name] = (headers.get("ETag", ""), content)
    return items


def server_commands(reply):
    """(Sync target, command, item target, Type, data) of each command in the reply's Syncs."""
    out = []
    body = reply._body()
    for s in sc.children(body, "Sync") if body is not None else []:
        target = sc.child_text(s, "Target", "LocURI")
        for cmd in s:
            name = sc.local(cmd.tag)
            if name not in ("Add", "Replace", "Delete"):
                continue
            for it in sc.children(cmd, "Item"):
                mime = sc.child_text(it, "Meta", "Type") or sc.child_text(cmd, "Meta", "Type")
                out.append((target, name, sc.child_text(it, "Target", "LocURI"), mime, sc.child_text(it, "Data") or ""))
    return out


def vcal(component, summary, times):
    return ("BEGIN:VCALENDAR\r\nVERSION:1.0\r\nBEGIN:%s\r\nSUMMARY:%s\r\n%sEND:%s\r\nEND:VCALENDAR\r\n"
            % (component, summary, times, component))


phone = sp.Phone(base, tenant, user, password, "IMEI:350000000000036", store="Calendar")

# 1. The phone's slow sync: a task and an event through its calendar.
first = phone.start(201)
check("the phone's Alert on its Calendar is accepted", first.codes("Alert") == ["200"], first.describe())
reply = phone.send([sc.sync(1, "Calendar", [
    sc.add(2, "t1", vcal("VTODO", "Buy milk", "DUE:20240601T100000Z\r\nPRIORITY:1\r\n"), VCAL),
    sc.add(3, "e1", vcal("VEVENT", "Dentist", "DTSTART:20240601T090000Z\r\nDTEND:20240601T100000Z\r\n"), VCAL)])])
check("its task and event are added", reply.codes("Add") == ["201", "201"], reply.describe())
phone.drain(reply)
done = phone.finish()
check("its session completes", done.final and done.header_status() == "200", done.describe())

tasks = dav_items("tasks") or {}
events = dav_items("calendar") or {}
check("CalDAV lists the phone's task in the task collection",
      len(tasks) == 1 and all("BEGIN:VTODO" in c and "SUMMARY:Buy milk" in c for _, c in tasks.values()), tasks)
check("and only the event in the calendar collection",
      len(events) == 1 and all("BEGIN:VEVENT" in c and "VTODO" not in c for _, c in events.values()), events)

# 2. The CalDAV client edits the task; the phone's next two-way sync gets the Replace in its calendar.
if tasks:
    name, (etag, content) = next(iter(tasks.items()))
    edited = content.replace("SUMMARY:Buy milk", "SUMMARY:Buy oat milk")
    status, _, _ = dav("PUT", "tasks", name, edited, {"Content-Type": "text/calendar", "If-Match": etag})
    check("CalDAV PUT of the edited task", status in (200, 204), status)
phone.session_id, phone.msg_id, phone.resp_uri, phone.server_items = sp.new_session_id(), 0, None, []
second = phone.send([sc.alert(1, 200, "Calendar", last="1", next_anchor="2")], cred=phone.cred())
check("the phone's next sync is two-way", second.codes("Alert") == ["200"], second.describe())
reply = phone.send([sc.sync(1, "Calendar", [])])
commands = server_commands(reply)
reply = phone.drain(reply)
commands += [c for c in server_commands(reply) if c not in commands]
check("the edited task is the one command sent, a Replace of the phone's t1 in its Calendar",
      [(c[0], c[1], c[2]) for c in commands] == [("./Calendar", "Replace", "t1")], commands)
if commands:
    _, _, _, mime, data = commands[0]
    check("in vCalendar 1.0 with the CalDAV client's summary", mime == VCAL and "VERSION:1.0" in data and
          "BEGIN:VTODO" in data and "SUMMARY:Buy oat milk" in data, (mime, data))
syncs = [s for s in sc.children(reply._body(), "Sync")] if reply._body() is not None else []
check("one Sync for the phone's calendar", len(syncs) == 1, len(syncs))
done = phone.finish()
check("the second session completes", done.final and done.header_status() == "200", done.describe())
check("the task datastore still holds one task", len(dav_items("tasks") or {}) == 1)

sys.exit(1 if failures else 0)
