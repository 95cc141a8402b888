"""A scripted SyncML phone for dav_collections.sh (issue 38): one datastore of one device, whose items and anchors live
in a JSON state file between runs, so that the shell script can interleave its syncs with CalDAV requests.

Usage: dav_collections_phone.py STATE BASE_URL TENANT USER PASSWORD DEVICE STORE MODE
  STORE: the datastore URI the phone addresses, e.g. "calendar" or "calendar?collection=work"
  MODE: slow (201), two-way (200) or refresh (205, refresh from the server)
Runs one session without client changes and prints one line for the shell: "alert=200;adds=...;replaces=...;
deletes=...;held=...;completed=yes", the server's Adds, Replaces and Deletes by SUMMARY of the item (a Delete by the
SUMMARY the phone held), each list sorted and joined by '|', and the SUMMARYs the phone holds afterwards. Exit status 0
when the session completed (or its Alert was refused, which the line says), else 1.
"""

import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
import syncml_client as sc  # noqa: E402
import syncml_phone as sp  # noqa: E402

state_file, base, tenant, user, password, device, store, mode = sys.argv[1:9]
code = {"slow": 201, "two-way": 200, "refresh": 205}[mode]
state = {"next": "", "items": {}, "counter": 0}
if os.path.exists(state_file):
    with open(state_file, encoding="utf-8") as f:
        state = json.load(f)


def line(result):
    return ";".join("%s=%s" % (k, "|".join(sorted(v)) if isinstance(v, list) else v) for k, v in result.items())


def summary(data):
    found = re.search(r"^SUMMARY[^:\r\n]*:(.*?)\r?$", data or "", re.M)
    return found.group(1) if found else "?"


def commands(reply):
    """(command, target LUID, source GUID, data) of the Adds, Replaces and Deletes in the reply's Syncs."""
    out = []
    body = reply._body()
    for s in (sc.children(body, "Sync") if body is not None else []):
        for cmd in s:
            name = sc.local(cmd.tag)
            if name in ("Add", "Replace", "Delete"):
                for it in sc.children(cmd, "Item"):
                    out.append((name, sc.child_text(it, "Target", "LocURI"), sc.child_text(it, "Source", "LocURI"),
                                sc.child_text(it, "Data") or ""))
    return out


phone = sp.Phone(base, tenant, user, password, device, store=store)
next_anchor = str(int(state["next"] or "0") + 1)
phone.session_id = sp.new_session_id()
first = phone.send([sc.alert(1, code, store, last=state["next"], next_anchor=next_anchor)], cred=phone.cred())
alert = (first.codes("Alert") or ["none"])[0]
result = {"alert": alert, "adds": [], "replaces": [], "deletes": [], "held": [], "completed": "no"}
accepted = first.header_status() in ("200", "212")  # 212: authentication accepted for the session
if not accepted or (not alert.startswith("2") and alert != "508"):
    result["held"] = list(state["items"].values())
    print(line(result))
    sys.exit(0 if accepted else 1)
if code in (201, 205) or alert == "508":
    # A slow sync or refresh in which the phone sends nothing: it holds nothing, and the server sends everything.
    state["items"] = {}
reply = phone.send([sc.sync(1, store, [])])
seen = commands(reply)
while not reply.final and reply.http_status == 200:
    reply = phone.send([sc.plain_alert(1, 222)], final=False)
    seen += commands(reply)
pairs = []
for name, target, source, data in seen:
    if name == "Add":
        state["counter"] += 1
        luid = "p%d" % state["counter"]
        state["items"][luid] = summary(data)
        pairs.append((source, luid))
        result["adds"].append(summary(data))
    elif name == "Replace":
        luid = target if target in state["items"] else None
        if luid is None:  # a slow sync may send what the phone holds as a Replace of the server's id
            state["counter"] += 1
            luid = "p%d" % state["counter"]
            pairs.append((source, luid))
        state["items"][luid] = summary(data)
        result["replaces"].append(summary(data))
    else:
        result["deletes"].append(state["items"].pop(target, "?" + (target or "")))
done = phone.send([sc.map_items(1, store, pairs)] if pairs else [])
ok = done.header_status() == "200" and done.final and all(c == "200" for c in done.codes("Map"))
if ok:
    state["next"] = next_anchor
with open(state_file, "w", encoding="utf-8") as f:
    json.dump(state, f)
result["held"] = list(state["items"].values())
result["completed"] = "yes" if ok else "no"
print(line(result))
sys.exit(0 if ok else 1)
